// Webhook delivery end to end (issue 36): a server process sends an environment's events to a receiver that
// fails its first 3 deliveries, then is down while the server is killed (SIGKILL) and restarted, and comes
// back: it still gets every event, once each by delivery id, in the order the changes were made, each with a
// valid signature. The receiver checks signatures with the server's own verifier.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  webhookSignatureProblem,
} from '../../../server/src/webhooks/webhook-signature.js';
import type { WebhookEventBody } from '../../../server/src/webhooks/webhook-events.js';
import { until } from '../../support/until.js';
import { startServerProcess } from '../cli-support.js';
import { checkoutCampaign, post, seedEnvironment } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { auditedByTests } from '../test-actor.js';

const KEY = 'operator-key-for-webhooks-0123456789';

interface Received {
  deliveryId: string;
  type: string;
  body: WebhookEventBody;
}

/** A receiver on `port` (0: any) that answers 500 to its first `failFirst` requests, then 200. */
const startReceiver = async (
  secret: string,
  state: { failFirst: number; seen: number; got: Received[]; bad: string[] },
  port = 0,
): Promise<Server> => {
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      state.seen++;
      if (state.seen <= state.failFirst) {
        response.writeHead(500).end('not yet');
        return;
      }
      const header = request.headers[SIGNATURE_HEADER.toLowerCase()];
      const problem = webhookSignatureProblem(
        secret,
        text,
        typeof header === 'string' ? header : undefined,
        Math.floor(Date.now() / 1000),
      );
      if (problem !== null) {
        state.bad.push(problem);
        response.writeHead(400).end(problem);
        return;
      }
      state.got.push({
        deliveryId: String(request.headers[DELIVERY_HEADER.toLowerCase()]),
        type: String(request.headers[EVENT_HEADER.toLowerCase()]),
        body: JSON.parse(text) as WebhookEventBody,
      });
      response.writeHead(200).end('ok');
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return server;
};

void describe('webhook delivery across failures and a killed server (embedded store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-webhooks-'));
  const children: Array<{ kill: (signal: NodeJS.Signals) => boolean }> = [];
  after(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  void it('delivers every event once, in order, signed, after 3 failures and a restart with the receiver down', async () => {
    await copyTemplateDataDir(dir);
    const seedStore = auditedByTests(await openPgliteStore(dir));
    const env = await seedEnvironment(seedStore, [checkoutCampaign()]);
    await seedStore.close();

    const state = { failFirst: 3, seen: 0, got: [] as Received[], bad: [] as string[] };
    // The secret comes from the server's answer: the receiver starts first, on a port the webhook names.
    let receiver = await startReceiver('', state);
    const port = (receiver.address() as AddressInfo).port;
    const serverEnv = {
      FEATURE_DATA_DIR: dir,
      FEATURE_OPERATOR_KEY: KEY,
      FEATURE_WEBHOOK_FIRST_RETRY_MS: '200',
      // The receiver is on this machine: a server refuses it unless told its own network is allowed.
      FEATURE_WEBHOOK_PRIVATE_NETWORKS: 'allow',
    };
    const first = await startServerProcess(serverEnv);
    children.push(first.child);
    const auth = { authorization: `Bearer ${KEY}` };
    const created = await post(
      `${first.url}/admin/v1/environments/${env.envId}/webhooks`,
      { url: `http://127.0.0.1:${port}/hook` },
      auth,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const secret = (created.body as { secret: string }).secret;
    receiver.close();
    await once(receiver, 'close');
    receiver = await startReceiver(secret, state, port);

    const patch = async (url: string, panic: boolean): Promise<void> => {
      const response = await fetch(`${url}/admin/v1/environments/${env.envId}`, {
        method: 'PATCH',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ panic }),
      });
      assert.equal(response.status, 200);
    };
    // 4 events while the receiver fails its first 3 deliveries, then answers.
    for (const panic of [true, false, true, false]) await patch(first.url, panic);
    await until(() => state.got.length >= 2, {
      timeoutMs: 30_000,
      what: 'two events delivered after 3 failures',
    });

    // The receiver goes down; 2 more events; the server is killed and a new one started on the same folder.
    receiver.close();
    await once(receiver, 'close');
    for (const panic of [true, false]) await patch(first.url, panic);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const second = await startServerProcess(serverEnv);
    children.push(second.child);
    await patch(second.url, true);
    receiver = await startReceiver(secret, state, port);
    await until(() => new Set(state.got.map((g) => g.deliveryId)).size >= 7, {
      timeoutMs: 60_000,
      what: 'all 7 events delivered after the restart',
    });

    const firstSeen = new Map<string, Received>();
    for (const got of state.got) if (!firstSeen.has(got.deliveryId)) firstSeen.set(got.deliveryId, got);
    const events = [...firstSeen.values()];
    assert.equal(events.length, 7);
    assert.deepEqual(
      events.map((e) => (e.body.data as { panic: boolean }).panic),
      [true, false, true, false, true, false, true],
      'in the order the changes were made',
    );
    for (const e of events) {
      assert.equal(e.type, 'environment.panic_changed');
      assert.equal(e.body.envId, env.envId);
    }
    assert.deepEqual(state.bad, [], 'every signature valid');
    // A delivery sent again because its answer was not recorded before the kill is the same delivery id.
    assert.ok(state.got.length - events.length <= 1, `${state.got.length - events.length} repeats`);
    const deliveriesUrl = `${second.url}/admin/v1/environments/${env.envId}/webhooks/${(created.body as { id: string }).id}/deliveries`;
    const recorded = await until(
      async () => {
        const items = (
          (await (await fetch(deliveriesUrl, { headers: auth })).json()) as {
            items: Array<{ state: string; attempts: number; last_status: number }>;
          }
        ).items;
        return items.length === 7 && items.every((d) => d.state === 'delivered') && items;
      },
      { timeoutMs: 10_000, what: 'every delivery recorded as delivered' },
    );
    // Newest first: the oldest was refused 3 times (the receiver's first 3 answers), then delivered.
    const oldest = recorded.at(-1);
    assert.equal(oldest?.attempts, 4);
    assert.equal(oldest.last_status, 200);
    receiver.close();
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');
  });
});
