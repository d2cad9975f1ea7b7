// Live updates under faults (PROTOCOL.md §17, issue 34 "Faults"): a Node SDK in bucketing mode with live
// updates against the project's real server, while the server is killed and restarted, while a proxy keeps
// cutting its stream, and while the server is at its stream limit. Each change's state is awaited in the
// visitor's flags (no fetchFlags after the first); every wait is bounded (until.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { liveUpdatesOf } from '../../server/src/app.js';
import { openPgliteStore } from '../../server/src/store/pglite/pglite.js';
import type { Store } from '../../server/src/store/store.js';
import { runCliInProcess, startServerProcess } from '../server/cli-support.js';
import { seedEnvironment, startApp, type Running, type SeededEnvironment } from '../server/support.js';
import { copyTemplateDataDir, openFreshPgliteStore } from '../server/template-data-dir.js';
import { seededRandom } from '../support/seeded-random.js';
import { startStreamCuttingProxy } from '../support/stream-cutting-proxy.js';
import { until } from '../support/until.js';
import { LIVE_TOGGLE, LIVE_TOGGLE_TEXT, startLiveSdk, type LiveSdk } from './live-sdk.js';
import { auditedByTests } from '../server/test-actor.js';

const KEY = 'operator-key-for-the-live-fault-tests-34';
const ON = LIVE_TOGGLE_TEXT;
const OFF = 'none';

/** Pauses or resumes the campaign through the operator route (§13.8). */
const toggle = async (server: Running, envId: string, active: boolean): Promise<void> => {
  const res = await fetch(`${server.url}/admin/v1/environments/${envId}/campaigns/c-live/toggle`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ state: active ? 'active' : 'paused' }),
  });
  assert.equal(res.status, 200, await res.text());
};

/** A port free right now, for a server that must come back where its clients left it. */
const freePort = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

const sdks: LiveSdk[] = [];
const startSdk = async (serverUrl: string, env: SeededEnvironment, pollingSeconds: number) => {
  const sdk = await startLiveSdk(serverUrl, env, pollingSeconds);
  sdks.push(sdk);
  return sdk;
};
afterEach(async () => {
  for (const sdk of sdks.splice(0)) await sdk.instance.close();
});

void describe('live updates: server killed and restarted (child process, embedded store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-live-restart-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('falls back to polling while it is down, reconnects, re-fetches and applies a change made meanwhile', async () => {
    await copyTemplateDataDir(dir);
    const seeding = auditedByTests(await openPgliteStore(dir));
    const env = await seedEnvironment(seeding, [LIVE_TOGGLE]);
    await seeding.close();
    // The same port after the restart: the SDKs were started with that URL.
    const port = String(await freePort());
    const first = await startServerProcess({ FEATURE_DATA_DIR: dir, PORT: port });
    // Two SDKs: one polling once an hour (only the reconnect's re-fetch can bring it the change), one polling
    // every second (its downloads go on failing while the server is down: the fallback at work).
    const streamOnly = await startSdk(first.url, env, 3600);
    const polling = await startSdk(first.url, env, 1);
    for (const sdk of [streamOnly, polling]) {
      assert.equal(sdk.text(), ON);
      await until(() => sdk.said(/live updates: the stream .* is open\./), { what: 'the stream open' });
    }

    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    for (const [sdk, seconds] of [
      [streamOnly, 3600],
      [polling, 1],
    ] as const)
      await until(
        () =>
          sdk.said(
            new RegExp(
              `reconnecting in \\d+ ms \\(the (stream failed|server ended the stream).*\\); meanwhile fell back to polling the bucketing file every ${seconds} s`,
            ),
          ),
        { what: `the ${seconds} s SDK to say it reconnects and polls meanwhile` },
      );
    const failuresBefore = polling.count(/bucketing file: failure/);
    await until(() => polling.count(/bucketing file: failure/) > failuresBefore, {
      what: 'a polling download to fail while the server is down',
    });

    // The change, made while the server is down, as an operator would: the CLI on the data folder.
    const toggled = await runCliInProcess(
      ['campaign', 'toggle', 'c-live', '--env', env.envId, '--state', 'paused'],
      { FEATURE_DATA_DIR: dir },
    );
    assert.equal(toggled.code, 0, toggled.stderr);
    assert.equal(streamOnly.text(), ON, 'nothing reached the SDK while the server was down');

    const second = await startServerProcess({ FEATURE_DATA_DIR: dir, PORT: port });
    try {
      assert.equal(second.url, first.url);
      // The stream-only SDK's reconnect backoff (1, 3, 9, 27, 81 s ±20 %, from the kill) bounds this wait: on a
      // loaded machine the restart may miss the fourth attempt (about 40 s after the kill), not the fifth.
      await until(() => streamOnly.text() === OFF, {
        what: 'the change made while down, applied after the reconnect',
        timeoutMs: 150_000,
        intervalMs: 50,
      });
      assert.ok(streamOnly.said(/is open again: re-fetching/), 'the reconnect re-fetched');
      await until(() => polling.text() === OFF, { what: 'the polling SDK to apply it', timeoutMs: 30_000 });
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
    }
  });
});

void describe('live updates: faults in front of one server (embedded store)', () => {
  let store: Store;
  before(async () => {
    store = await openFreshPgliteStore();
  });
  after(() => store.close());

  void it('a proxy that keeps cutting the stream: no change is missed', async () => {
    const server = await startApp(store, { operatorKeys: [KEY] });
    const random = seededRandom(34);
    const proxy = await startStreamCuttingProxy({
      target: server.url,
      cutAfterMs: () => 500 + random() * 2000,
      resets: () => random() < 0.5,
    });
    try {
      const env = await seedEnvironment(store, [LIVE_TOGGLE]);
      // Polling once an hour: a change can only come through the stream or a reconnect's re-fetch.
      const sdk = await startSdk(proxy.url, env, 3600);
      await until(() => proxy.open() === 1, { what: 'the stream open through the proxy' });
      let active = true;
      const moments = { whileDown: 0, whileUp: 0 };
      for (let change = 1; change <= 10; change++) {
        // Each change at a moment drawn at random: just after a cut (the stream is down), just after a
        // reopening, or at once (the stream up, or half-way through either).
        const moment = Math.floor(random() * 3);
        if (moment === 0) {
          const cuts = proxy.cut();
          await until(() => proxy.cut() > cuts, { what: `a cut before change ${change}`, timeoutMs: 30_000 });
        } else if (moment === 1) {
          const opens = proxy.opened();
          await until(() => proxy.opened() > opens, {
            what: `a reopening before change ${change}`,
            timeoutMs: 30_000,
          });
        }
        moments[proxy.open() === 0 ? 'whileDown' : 'whileUp']++;
        active = !active;
        await toggle(server, env.envId, active);
        await until(() => sdk.text() === (active ? ON : OFF), {
          what: `change ${change} (${active ? 'resumed' : 'paused'}) applied`,
          timeoutMs: 30_000,
          intervalMs: 20,
        });
      }
      assert.ok(moments.whileDown > 0 && moments.whileUp > 0, JSON.stringify(moments));
      assert.ok(proxy.cut() >= 5, `the proxy cut ${proxy.cut()} streams`);
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  void it('FEATURE_MAX_STREAMS reached: 503 with Retry-After 5, and the SDK keeps polling', async () => {
    const server = await startApp(store, { operatorKeys: [KEY], maxStreams: 2 });
    try {
      const env = await seedEnvironment(store, [LIVE_TOGGLE]);
      const streams = liveUpdatesOf(server.app).streams;
      const live: LiveSdk[] = [];
      for (const count of [1, 2]) {
        live.push(await startSdk(server.url, env, 1));
        await until(() => streams.size === count, { what: `${count} streams open` });
      }
      const refused = await fetch(`${server.url}/v1/${env.envId}/stream`);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '5');
      await refused.text();

      const third = await startSdk(server.url, env, 1);
      const delay = await until(
        () => /reconnecting in (\d+) ms \(the server answered 503\)/.exec(third.messages())?.[1],
        { what: 'the third SDK to be refused' },
      );
      assert.ok(Number(delay) >= 5000, `waits at least Retry-After: ${delay} ms`);
      assert.match(third.messages(), /meanwhile fell back to polling the bucketing file every 1 s/);

      await toggle(server, env.envId, false);
      for (const sdk of [...live, third])
        await until(() => sdk.text() === OFF, { what: 'the pause applied', timeoutMs: 15_000 });
      assert.ok(!third.said(/live updates: the stream .* is open/), 'the third SDK never had a stream');
      assert.equal(streams.size, 2);
    } finally {
      await server.close();
    }
  });
});
