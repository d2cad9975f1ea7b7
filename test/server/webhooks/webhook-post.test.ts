// One webhook POST (webhook-post.ts): bounded in time from resolving the name to the answer's start, whether
// the target never answers or trickles its body; only the start of a long answer is read; the body and headers
// arrive as sent; a refused target is never connected to, and a refused name's addresses are not in the
// refusal's message (the delivery log's words) but apart, for the server's log. Names are asked of DNS with a
// bounded, cancelled resolver (a test DNS server here), except localhost, loopback by definition.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { postWebhook, RefusedTargetError } from '../../../server/src/webhooks/webhook-post.js';
import { startDnsServer, type TestDnsServer } from './dns-server.js';

void describe('a webhook POST', () => {
  const seen: Array<{ path: string; body: string; signature: string | undefined }> = [];
  const open = new Set<ServerResponse>();
  const answers: Record<string, (response: ServerResponse) => void> = {
    '/silent': (response) => open.add(response),
    '/trickle': (response) => {
      open.add(response);
      response.writeHead(200);
      response.write('a');
    },
    '/long': (response) => response.writeHead(503, { 'retry-after': '120' }).end('é'.repeat(50_000)),
  };
  const receiver = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const signature = request.headers['feature-signature'];
      seen.push({ path, body, signature: typeof signature === 'string' ? signature : undefined });
      answers[path]?.(response);
    });
  });
  let origin = '';
  let port = 0;
  let dns: TestDnsServer;
  before(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    port = (receiver.address() as AddressInfo).port;
    origin = `http://127.0.0.1:${port}`;
    dns = await startDnsServer(
      {
        'receiver.test': { a: ['127.0.0.1'] },
        'db.internal': { a: ['10.0.3.7'] },
        'six.internal': { aaaa: ['fd00::3:7', '64:ff9b:1::a00:1'] },
      },
      new Set(['slow.test']),
    );
  });
  after(async () => {
    for (const response of open) response.destroy();
    receiver.close();
    await dns.close();
  });
  const options = {
    headers: { 'content-type': 'application/json', 'feature-signature': 't=1,v1=ab' },
    body: '{"id":"e1"}',
    timeoutMs: 300,
    answerChars: 1024,
    privateNetworks: true,
  };

  void it('gives up on a target that never answers, and on one that trickles its body', async () => {
    for (const path of ['/silent', '/trickle'])
      await assert.rejects(
        postWebhook(`${origin}${path}`, options),
        /^Error: no answer within 300 ms$/,
        path,
      );
  });

  void it('reads only the start of a long answer, with its status and Retry-After, and sends the body as given', async () => {
    const answer = await postWebhook(`${origin}/long`, options);
    assert.deepEqual(answer, { status: 503, answer: 'é'.repeat(1024), retryAfter: '120' });
    assert.deepEqual(seen.at(-1), { path: '/long', body: '{"id":"e1"}', signature: 't=1,v1=ab' });
  });

  void it('never connects to a refused target', async () => {
    const before = seen.length;
    await assert.rejects(
      postWebhook(`${origin}/long`, { ...options, privateNetworks: false }),
      (error: unknown) =>
        error instanceof RefusedTargetError &&
        /^refused: 127\.0\.0\.1, a loopback address/.test(error.message),
    );
    assert.equal(seen.length, before);
  });

  void it('refuses a name that resolves only to refused addresses without naming them in the message', async () => {
    const before = seen.length;
    const refusal = (name: string): Promise<RefusedTargetError> =>
      postWebhook(`http://${name}:${port}/long`, {
        ...options,
        privateNetworks: false,
        dnsServers: [dns.address],
      }).then(
        () => assert.fail(`${name} was reached`),
        (error: unknown) => {
          assert.ok(error instanceof RefusedTargetError, String(error));
          return error;
        },
      );
    const database = await refusal('db.internal');
    assert.equal(
      database.message,
      'refused: db.internal resolves only to addresses which webhooks may not reach unless the server is started with FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow',
    );
    assert.equal(database.resolved, 'db.internal resolved to 10.0.3.7 (a private address)');
    const six = await refusal('six.internal');
    assert.doesNotMatch(six.message, /fd00|64:ff9b|10\.0/);
    assert.equal(
      six.resolved,
      'six.internal resolved to fd00::3:7 (a private (unique local) address), 64:ff9b:1::a00:1 (a local-use NAT64 address)',
    );
    const local = await refusal('api.localhost');
    assert.doesNotMatch(local.message, /127\.0\.0\.1|::1/);
    assert.match(local.resolved, /^api\.localhost resolved to 127\.0\.0\.1 \(a loopback address\), ::1/);
    assert.equal(seen.length, before, 'nothing was reached');
    assert.ok(!dns.asked.includes('api.localhost'), 'localhost names are loopback without asking DNS');
  });

  void it('resolves names with the DNS servers given, and says when a name has no address', async () => {
    const answer = await postWebhook(`http://receiver.test:${port}/long`, {
      ...options,
      dnsServers: [dns.address],
    });
    assert.equal(answer.status, 503);
    assert.equal(seen.at(-1)?.path, '/long');
    await assert.rejects(
      postWebhook(`http://missing.test:${port}/long`, { ...options, dnsServers: [dns.address] }),
      /^Error: missing\.test resolves to no address$/,
    );
  });

  void it('gives up on a name whose DNS server never answers, within the time given', async () => {
    const started = Date.now();
    await assert.rejects(
      postWebhook(`http://slow.test:${port}/long`, { ...options, dnsServers: [dns.address] }),
      /^Error: no answer within 300 ms$/,
    );
    assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
    assert.ok(dns.asked.includes('slow.test'), 'the DNS server was asked');
  });
});
