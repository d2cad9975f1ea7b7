// Delivery to the server's own network (issue 36 follow-up), with a real store and a receiver on this
// machine: by default a name that resolves to a loopback address (localhost), and a literal one stored while
// it was allowed, are refused before any connection; the refusal is recorded in the delivery log as a failed
// attempt that is retried (DNS may change), with the reason and the setting but nothing of the URL's path or
// query. For a name the delivery log, which the account's admins read, never says what it resolved to (that
// would map the server's internal DNS for them): only the server's log does. With
// FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow (the deliverer's `privateNetworks`) the same receiver is reached,
// localhost through the system's resolver (/etc/hosts); a redirect is its answer, never followed.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import type { WebhookDelivery } from '../../../server/src/store/webhook-store.js';
import {
  startWebhookDeliverer,
  type WebhookDelivererOptions,
} from '../../../server/src/webhooks/webhook-deliverer.js';
import { until } from '../../support/until.js';
import { startDnsServer, type TestDnsServer } from './dns-server.js';
import { seedEnvironment } from '../support.js';
import { openFreshPgliteStore } from '../template-data-dir.js';

void describe('webhook delivery to the server network', () => {
  let store: Store;
  let envId: string;
  let port: number;
  let dns: TestDnsServer;
  const paths: string[] = [];
  const receiver = createServer((request, response) => {
    paths.push(request.url ?? '');
    request.resume();
    request.on('end', () => {
      if (request.url === '/moved')
        response.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end('moved');
      else response.writeHead(200).end('got it');
    });
  });
  before(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    port = (receiver.address() as AddressInfo).port;
    store = await openFreshPgliteStore();
    envId = (await seedEnvironment(store, [])).envId;
    dns = await startDnsServer({
      'db.internal': { a: ['10.0.3.7'], aaaa: ['fd00::3:7'] },
      'metadata.internal': { a: ['169.254.169.254'] },
    });
  });
  after(async () => {
    await dns.close();
    receiver.close();
    await store.close();
  });

  const deliver = (lines: string[], options: Partial<WebhookDelivererOptions> = {}) => {
    const deliverer = startWebhookDeliverer(store, {
      log: { info: (line) => lines.push(line), warn: (line) => lines.push(line) },
      pollMs: 50,
      // No second attempt within a test: each waits for its first.
      retryDelayMs: () => 600_000,
      ...options,
    });
    after(() => deliverer.stop());
    return deliverer;
  };
  const attempted = (webhookId: string): Promise<WebhookDelivery> =>
    until(
      async () => {
        const [latest] = await store.listDeliveries(webhookId, 1);
        return latest !== undefined && latest.attempts > 0 ? latest : null;
      },
      { what: `an attempt to deliver to webhook ${webhookId}` },
    );

  void it('refuses localhost and a literal loopback address by default, logged and retried', async () => {
    const { webhook: byName } = await store.createWebhook(envId, {
      url: `http://localhost:${port}/hook/secret-in-path?token=secret-in-query`,
      events: [],
    });
    // Stored while the server allowed it; refused now that it does not.
    const { webhook: literal } = await store.createWebhook(envId, {
      url: `http://127.0.0.1:${port}/direct`,
      events: [],
    });
    await store.setPanic(envId, true);
    const lines: string[] = [];
    const deliverer = deliver(lines);

    const refused = await attempted(byName.id);
    assert.equal(refused.state, 'pending', 'retried, in case DNS changes');
    assert.ok(refused.nextAttemptMs > (refused.lastAttemptMs ?? 0), 'a next attempt is scheduled');
    assert.equal(refused.lastStatus, null);
    assert.equal(
      refused.lastError,
      'refused: localhost resolves only to addresses which webhooks may not reach unless the server is started with FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow',
    );
    const direct = await attempted(literal.id);
    assert.equal(direct.state, 'pending');
    assert.match(direct.lastError ?? '', /^refused: 127\.0\.0\.1, a loopback address, /);
    await deliverer.stop();

    assert.deepEqual(paths, [], 'the receiver was never reached');
    assert.equal(lines.length, 2);
    assert.match(
      lines.join('\n'),
      /failed \(refused: localhost resolves only to .*; localhost resolved to 127\.0\.0\.1 \(a loopback address\), ::1 \(a loopback address\)\)/,
      "the server's log says what the name resolved to",
    );
    assert.doesNotMatch(lines.join('\n'), /secret/, "the log keeps the URL's path and query out");
  });

  void it("keeps what an internal name resolves to out of the delivery log, in the server's log only", async () => {
    const { webhook: database } = await store.createWebhook(envId, {
      url: 'http://db.internal:5432/hook?token=secret-in-query',
      events: [],
    });
    const { webhook: metadata } = await store.createWebhook(envId, {
      url: 'http://metadata.internal/latest/meta-data/',
      events: [],
    });
    await store.setPanic(envId, false);
    const lines: string[] = [];
    deliver(lines, { dnsServers: [dns.address] });

    for (const [webhook, name] of [
      [database, 'db.internal'],
      [metadata, 'metadata.internal'],
    ] as const) {
      const refused = await attempted(webhook.id);
      assert.equal(refused.state, 'pending');
      assert.equal(
        refused.lastError,
        `refused: ${name} resolves only to addresses which webhooks may not reach unless the server is started with FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow`,
      );
    }
    const logged = await until(() => (lines.length >= 2 ? lines.join('\n') : null), {
      what: 'both refusals in the log',
    });
    assert.match(
      logged,
      /db\.internal resolved to 10\.0\.3\.7 \(a private address\), fd00::3:7 \(a private \(unique local\) address\)/,
    );
    assert.match(logged, /metadata\.internal resolved to 169\.254\.169\.254 \(a link-local address\)/);
    assert.doesNotMatch(logged, /secret/);
    assert.ok(dns.asked.includes('db.internal'), 'the name was asked of the DNS server given');
  });

  void it('delivers to localhost when private networks are allowed, and takes a redirect as the answer', async () => {
    const { webhook: byName } = await store.createWebhook(envId, {
      url: `http://localhost:${port}/hook`,
      events: ['environment.panic_changed'],
    });
    const { webhook: moved } = await store.createWebhook(envId, {
      url: `http://localhost:${port}/moved`,
      events: ['environment.panic_changed'],
    });
    await store.setPanic(envId, true);
    deliver([], { privateNetworks: true });

    const delivered = await attempted(byName.id);
    assert.equal(delivered.state, 'delivered');
    assert.equal(delivered.lastStatus, 200);
    assert.equal(delivered.lastAnswer, 'got it');
    const redirected = await attempted(moved.id);
    assert.equal(redirected.state, 'pending', 'a 3xx is no delivery');
    assert.equal(redirected.lastStatus, 302);
    assert.equal(redirected.lastAnswer, 'moved');
    assert.deepEqual(paths.toSorted(), ['/hook', '/moved'], 'the redirect was not followed');
  });
});
