// One webhook POST (webhook-post.ts): bounded in time from resolving the name to the answer's start, whether
// the target never answers or trickles its body; only the start of a long answer is read; the body and headers
// arrive as sent; a refused target is never connected to.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { postWebhook, RefusedTargetError } from '../../../server/src/webhooks/webhook-post.js';

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
  before(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  after(() => {
    for (const response of open) response.destroy();
    receiver.close();
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
});
