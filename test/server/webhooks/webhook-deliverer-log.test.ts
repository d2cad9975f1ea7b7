// The deliverer's log lines name a failing target by its webhook id and origin only: many receivers (chat
// incoming-webhook URLs, for one) carry their credential in the URL's path or query, and server logs are read
// by more people than the operator routes.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, it } from 'node:test';
import type {
  ClaimedDelivery,
  DeliveryAttempt,
  WebhookStore,
} from '../../../server/src/store/webhook-store.js';
import { startWebhookDeliverer } from '../../../server/src/webhooks/webhook-deliverer.js';
import { until } from '../../support/until.js';

void it("logs a failed delivery without the URL's path or query", async () => {
  const receiver = createServer((_request, response) => response.writeHead(500).end('no'));
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  after(() => receiver.close());
  const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const url = `${origin}/services/T0/B0/secret-token-in-path?token=secret-in-query`;

  const settled: DeliveryAttempt[] = [];
  let claimed = false;
  const delivery: ClaimedDelivery = {
    id: 'ev1.wh1',
    webhookId: 'wh1',
    eventId: 'ev1',
    eventType: 'environment.panic_changed',
    body: '{}',
    createdMs: Date.now(),
    state: 'pending',
    attempts: 0,
    nextAttemptMs: 0,
    lastAttemptMs: null,
    lastStatus: null,
    lastAnswer: null,
    lastError: null,
    settledMs: null,
    url,
    secret: 'whsec_test',
    leaseUntilMs: Number.MAX_SAFE_INTEGER,
  };
  // Only what the deliverer calls: one delivery claimed once, and the outcomes it records.
  const store = {
    claimDueDeliveries: () => {
      if (claimed) return Promise.resolve([]);
      claimed = true;
      return Promise.resolve([delivery]);
    },
    settleDelivery: (_claimed: unknown, attempt: DeliveryAttempt) => {
      settled.push(attempt);
      return Promise.resolve();
    },
  } as unknown as WebhookStore;
  const lines: string[] = [];
  const deliverer = startWebhookDeliverer(store, {
    log: { info: (line) => lines.push(line), warn: (line) => lines.push(line) },
    pollMs: 60_000,
    // The receiver is on this machine, which webhooks reach only when allowed.
    privateNetworks: true,
  });
  after(() => deliverer.stop());
  await until(() => settled.length === 1, { what: 'the failed attempt recorded' });

  assert.equal(settled[0]?.status, 500);
  assert.equal(lines.length, 1);
  assert.match(
    lines[0] ?? '',
    /webhook wh1: delivery ev1\.wh1 to http:\/\/127\.0\.0\.1:\d+ failed \(HTTP 500\)/,
  );
  assert.doesNotMatch(lines.join('\n'), /secret/);
});
