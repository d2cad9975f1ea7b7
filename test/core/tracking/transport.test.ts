// The fetch wrapper and its answer classification (PROTOCOL.md §5.3), Retry-After (RFC 9110 §10.2.3) and
// the backoff schedule, against the protocol double on 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backoffDelay } from '../../../src/core/net/retry.js';
import { backoffDelay as batchesBackoff } from '../../../src/core/tracking/batches.js';
import { classifyAnswer, parseRetryAfter, postText } from '../../../src/core/tracking/transport.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';

void describe('parseRetryAfter', () => {
  void it('reads delay-seconds', () => assert.equal(parseRetryAfter('120', 0), 120_000));
  void it('reads zero', () => assert.equal(parseRetryAfter('0', 0), 0));
  void it('reads an HTTP-date as the time left', () => {
    const now = Date.UTC(2015, 9, 21, 7, 27, 30);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now), 30_000);
  });
  void it('reads a past HTTP-date as no wait', () => {
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.UTC(2016, 0, 1)), 0);
  });
  void it('waits at most 4 hours, whatever the server asks (items are dropped then)', () => {
    assert.equal(parseRetryAfter(String(30 * 86_400), 0), 4 * 3_600_000);
    assert.equal(parseRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', Date.UTC(2026, 0, 1)), 4 * 3_600_000);
  });
  void it('ignores absent and unreadable values', () => {
    assert.equal(parseRetryAfter(null, 0), null);
    assert.equal(parseRetryAfter('soon', 0), null);
    assert.equal(parseRetryAfter('-5', 0), null);
  });
});

void describe('classifyAnswer', () => {
  void it('acknowledges 2xx, with or without a body', () => {
    assert.deepEqual(classifyAnswer(204, '', null, 0), { kind: 'ok', status: 204, body: null });
    assert.deepEqual(classifyAnswer(200, '{"accepted":1,"duplicates":0,"rejected":[]}', null, 0), {
      kind: 'ok',
      status: 200,
      body: { accepted: 1, duplicates: 0, rejected: [] },
    });
  });
  void it('keeps the items on a 2xx whose body is not a JSON object: not an acknowledgement (§5.2, §5.4)', () => {
    for (const text of ['<html>portal</html>', '{"accepted":3,"dupl', 'null', '[1]', '"ok"']) {
      assert.deepEqual(classifyAnswer(200, text, null, 0), {
        kind: 'retry',
        retryAfterMs: null,
        reason: `HTTP 200 ${text} (not an acknowledgement)`,
      });
    }
  });
  for (const status of [400, 404, 413, 415])
    void it(`drops on ${status}, keeping the server's message`, () => {
      const result = classifyAnswer(
        status,
        '{"message":"h[0].ev must be an integer","code":"invalid_body"}',
        null,
        0,
      );
      assert.equal(result.kind, 'drop');
      assert.ok(result.reason.includes('h[0].ev must be an integer'));
    });
  for (const status of [429, 500, 502, 503])
    void it(`keeps the items on ${status}`, () =>
      assert.equal(classifyAnswer(status, '', null, 0).kind, 'retry'));
  void it('passes Retry-After on', () => {
    assert.deepEqual(classifyAnswer(429, '', '7', 0), {
      kind: 'retry',
      retryAfterMs: 7_000,
      reason: 'HTTP 429 ',
    });
  });
});

void describe('backoffDelay', () => {
  void it('starts at 1 s, doubles, caps at 5 min, with ±20 % jitter', () => {
    assert.equal(backoffDelay(0, 0.5), 1_000);
    assert.equal(backoffDelay(1, 0.5), 2_000);
    assert.equal(backoffDelay(3, 0.5), 8_000);
    assert.equal(backoffDelay(0, 0), 800);
    assert.ok(backoffDelay(0, 0.999_999) < 1_200 && backoffDelay(0, 0.999_999) > 1_199);
    assert.equal(backoffDelay(9, 0.5), 300_000, '2^9 s = 512 s is over 5 min');
    assert.equal(backoffDelay(40, 0), 240_000);
    assert.equal(backoffDelay(40, 0.999_999) <= 360_000, true);
  });
  void it('takes another base and cap (the bucketing file polling caps at its interval)', () => {
    assert.equal(backoffDelay(2, 0.5, 10), 40);
    assert.equal(backoffDelay(6, 0.5, 1000, 5000), 5000);
  });
  void it('is the one the tracking manager imports from batches.ts', () =>
    assert.equal(batchesBackoff, backoffDelay));
});

void describe('postText', () => {
  let double: ProtocolDouble;
  before(async () => {
    double = await startProtocolDouble();
  });
  after(() => double.close());

  void it('posts the body with its content type and headers', async () => {
    const result = await postText(`${double.url}/v2/activate`, '{"cid":"env1","batch":[]}', {
      contentType: 'application/json',
      headers: { 'x-api-key': 'key1' },
      timeoutMs: 2_000,
    });
    assert.deepEqual(result, { kind: 'ok', status: 204, body: null });
    const [sent] = double.requestsTo('activate');
    assert.equal(sent?.headers['content-type'], 'application/json');
    assert.equal(sent.headers['x-api-key'], 'key1');
    assert.deepEqual(sent.body, { cid: 'env1', batch: [] });
  });

  void it('reads Retry-After from a 429', async () => {
    double.script.queued.events = [
      { status: 429, headers: { 'retry-after': '3' }, body: { message: 'slow down' } },
    ];
    const result = await postText(`${double.url}/events`, '{}', {
      contentType: 'text/plain',
      timeoutMs: 2_000,
    });
    assert.equal(result.kind, 'retry');
    assert.ok(result.retryAfterMs === 3_000 && result.reason.includes('slow down'));
  });

  void it('turns a timeout into a retry', async () => {
    double.script.queued.events = [{ status: 200, body: {}, delayMs: 400 }];
    const result = await postText(`${double.url}/events`, '{}', { contentType: 'text/plain', timeoutMs: 30 });
    assert.deepEqual(result, {
      kind: 'retry',
      retryAfterMs: null,
      reason: `POST ${double.url}/events: no answer within 30 ms`,
    });
  });

  void it('turns a refused connection into a retry', async () => {
    const closed = await startProtocolDouble();
    await closed.close();
    const result = await postText(`${closed.url}/events`, '{}', {
      contentType: 'text/plain',
      timeoutMs: 2_000,
    });
    assert.equal(result.kind, 'retry');
    assert.ok(result.reason.startsWith(`POST ${closed.url}/events: network error: `), result.reason);
  });

  void it('names the URL in a refused answer, without its query or user info', async () => {
    double.script.queued.events = [{ status: 400, body: { message: 'bad batch', code: 'invalid_body' } }];
    const address = new URL(`${double.url}/events?token=secret`);
    address.username = 'user';
    address.password = 'pass';
    // fetch refuses a URL with credentials: the failure is a network error, still named without them.
    const refused = await postText(address.href, '{}', { contentType: 'text/plain', timeoutMs: 2_000 });
    assert.equal(refused.kind, 'retry');
    assert.ok(refused.reason.startsWith(`POST ${double.url}/events: network error: `), refused.reason);
    assert.ok(!/secret|user|pass/.test(refused.reason), refused.reason);
    const dropped = await postText(`${double.url}/events?token=secret`, '{}', {
      contentType: 'text/plain',
      timeoutMs: 2_000,
    });
    assert.equal(dropped.kind, 'drop');
    assert.ok(dropped.reason.startsWith(`POST ${double.url}/events: HTTP 400 `), dropped.reason);
    assert.ok(!dropped.reason.includes('secret'), dropped.reason);
  });
});
