// Fault injection (issue 17): the SDK sends N ≥ 5 000 hits, from Node and from a Chromium page, through a proxy
// that fails at random in front of the project's server (test/support/fault-proxy.ts); after recovery the
// store holds every valid hit exactly once and nothing else, and the server's count equals the valid hits
// sent. Each run prints sent / received / counted. Expected values come from what the test sent (one label
// per hit), never from the SDK.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { migrate } from '../../server/src/store/migrations/migrate.js';
import { openPgliteThread } from '../../server/src/store/pglite/pglite-thread.js';
import { createSqlStore } from '../../server/src/store/sql/sql-store.js';
import type { Sql } from '../../server/src/store/sql/sql.js';
import { launchChromium } from '../support/chromium.js';
import { FAULTS, startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { labelOf, startFaultRun, type FaultRun, type FaultSender } from './fault-injection-run.js';
import { startE2eServer, type E2eServer } from './sdk-server-support.js';
import { until } from '../support/until.js';
import { auditedByTests } from '../server/test-actor.js';

const N = 5_000;
const INVALID = 20;
/** Share of the hit requests that fail while the faults are on. */
const FAULT_RATE = 0.35;

let sql: Sql;
let server: E2eServer;

before(async () => {
  sql = await openPgliteThread(null);
  await migrate(sql);
  server = await startE2eServer(auditedByTests(createSqlStore(sql, 'pglite')));
});
after(() => server.close());

/** How the store ended: the label of every stored fault hit, duplicates impossible to miss. */
const stored = async (envId: string): Promise<string[]> => {
  const rows = await sql.query(`SELECT body FROM hits WHERE env_id = $1 AND type = 'EVENT' ORDER BY seq`, [
    envId,
  ]);
  return rows.map((row) => {
    const body = (typeof row.body === 'string' ? JSON.parse(row.body) : row.body) as { el?: unknown };
    return String(body.el);
  });
};

/**
 * Runs one sender through a fresh proxy: the hits go out while faults are on, the faults stop, the sender
 * delivers what is left, then the store is checked against what was sent.
 */
const exercise = async (
  where: string,
  seed: number,
  run: (proxy: FaultProxy, env: { envId: string; apiKey: string }) => Promise<FaultSender>,
  prefix: string,
): Promise<void> => {
  const env = await server.seed();
  const proxy = await startFaultProxy({
    target: server.running.url,
    seed,
    faultRate: FAULT_RATE,
    holdMs: 400,
    retryAfterSeconds: 1,
    matches: (method, path) => method === 'POST' && path.startsWith('/events'),
  });
  try {
    const receivedBefore = server.received.hits.filter((h) => h.envId === env.envId).length;
    const sender = await run(proxy, env);
    await sender.send();
    // Faults stay on a little longer, so the last batches meet them too.
    await new Promise((resolve) => setTimeout(resolve, 500));
    proxy.recover();
    // A check that finds hits left asks for a flush before the next check (300 checks 100 ms apart at most).
    await until(
      async () => {
        if ((await sender.left()) === 0) return true;
        await sender.flush();
        return false;
      },
      { what: `${where}: the cache to empty`, timeoutMs: 60_000, intervalMs: 100, maxChecks: 300 },
    );
    await sender.close();
    await proxy.idle();

    const labels = await stored(env.envId);
    const counts = new Map<string, number>();
    for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
    const missing: string[] = [];
    for (let i = 0; i < N; i += 1) if (!counts.has(labelOf(prefix, i))) missing.push(labelOf(prefix, i));
    const doubled = [...counts].filter(([, n]) => n > 1).map(([label]) => label);
    const foreign = [...counts.keys()].filter((label) => !label.startsWith(prefix));
    const received = server.received.hits.filter((h) => h.envId === env.envId).length - receivedBefore;
    const counted = Object.values(await server.store.countHits(env.envId)).reduce((a, b) => a + b, 0);
    const faults = Object.entries(proxy.modes)
      .filter(([, n]) => n > 0)
      .map(([mode, n]) => `${mode} ${n}`)
      .join(', ');
    console.log(
      `fault injection (${where}): sent ${N + INVALID} (${N} valid, ${INVALID} invalid) / received ${received} ` +
        `hits in ${proxy.forwarded()} requests that reached the server (duplicates included) / counted ${counted}; ` +
        `proxy: ${faults}`,
    );
    assert.deepEqual(missing.slice(0, 10), [], `${missing.length} valid hits lost`);
    assert.deepEqual(doubled.slice(0, 10), [], `${doubled.length} hits stored twice`);
    assert.deepEqual(foreign, [], 'invalid hits were rejected, not stored');
    assert.equal(labels.length, N);
    assert.equal(counted, N, "the server's count is the valid hits sent");
    assert.deepEqual(
      FAULTS.filter((mode) => proxy.modes[mode] === 0),
      [],
      `every fault kind happened (${faults})`,
    );
  } finally {
    await proxy.close();
  }
};

void describe('fault injection: every valid hit counted once across failures', () => {
  void test(`Node: ${N} hits through 5xx, 429, resets, held and cut-short answers, malformed bodies`, async () => {
    await exercise(
      'Node',
      17,
      async (proxy, env): Promise<FaultRun> =>
        startFaultRun({ proxyUrl: proxy.url, ...env, n: N, invalid: INVALID, prefix: 'node-' }),
      'node-',
    );
  });

  void describe('Chromium', () => {
    let page: Server;
    let pageUrl: string;
    let browser: Browser;
    before(async () => {
      browser = await launchChromium();
      // The sending side bundled as a page script: the tracker from src/, as the SDK's own chunks hold it.
      const bundle = await build({
        entryPoints: ['test/e2e/fault-injection-page.ts'],
        bundle: true,
        format: 'esm',
        target: 'es2022',
        // `#transport` (package.json `imports`) from src/: the fetch one, as in the SDK's browser bundles. Not
        // tsconfig.json, whose `paths` give tsx (Node) the Node transport; tsconfig.core.json has no `paths`.
        conditions: ['feature-ts-source'],
        tsconfig: 'tsconfig.core.json',
        write: false,
        logLevel: 'error',
      });
      const script = bundle.outputFiles[0]?.text ?? '';
      page = createServer((req, res) => {
        if (req.url === '/page.js') {
          res.writeHead(200, { 'content-type': 'text/javascript' });
          res.end(script);
        } else {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(
            '<!doctype html><title>fault injection</title><script type="module" src="/page.js"></script>',
          );
        }
      });
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    });
    after(async () => {
      await browser.close();
      await new Promise((resolve) => page.close(resolve));
    });

    void test(`${N} hits from a page (cross-origin, text/plain: no preflight)`, async () => {
      const tab = await browser.newPage();
      await tab.goto(pageUrl);
      await tab.waitForFunction(() => 'faultRun' in window);
      await exercise(
        'Chromium',
        42,
        async (proxy, env) => {
          await tab.evaluate(
            (o) => (window as unknown as { faultRun: (o: unknown) => Promise<void> }).faultRun(o),
            { proxyUrl: proxy.url, ...env, n: N, invalid: INVALID, prefix: 'page-' },
          );
          const call = (name: string): Promise<unknown> =>
            tab.evaluate(
              (n) => (window as unknown as Record<string, (() => Promise<unknown>) | undefined>)[n]?.(),
              name,
            );
          return {
            send: async () => {
              await call('faultSend');
            },
            left: async () => Number(await call('faultLeft')),
            flush: async () => {
              await call('faultFlush');
            },
            close: async () => {
              await call('faultClose');
            },
          };
        },
        'page-',
      );
      await tab.close();
    });
  });
});
