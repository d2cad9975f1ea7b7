// Telling "no server could be reached" from other failures (src/core/net/unreachable.ts), on errors as Node
// makes them: a real refused connection through the SDK's Node transport, and the shapes Node's fetch and
// net module produce (a cause chain, an AggregateError of one attempt per address).
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { send } from '../../../src/core/net/node-transport.js';
import { fetchError } from '../../../src/core/net/request-failure.js';
import { unreachable, unreachableHint } from '../../../src/core/net/unreachable.js';

const coded = (code: string): Error => Object.assign(new Error(code), { code });

void test('a refused connection, through the Node transport, is unreachable; the hint is added under its base only', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  const url = `http://127.0.0.1:${port}/events`;
  const error = await send({ url, signal: new AbortController().signal }).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(unreachable(error), String(error));
  const hint = unreachableHint(`http://127.0.0.1:${port}`, 'Set FEATURE_API_URL.');
  assert.match(fetchError(error, url, hint), /ECONNREFUSED.*\. Set FEATURE_API_URL\.$/);
  const elsewhere = unreachableHint('http://127.0.0.1:1', 'Set FEATURE_API_URL.');
  assert.doesNotMatch(fetchError(error, url, elsewhere), /FEATURE_API_URL/);
});

void test('codes in a cause chain or in an AggregateError count; other failures do not', () => {
  for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT'])
    assert.ok(unreachable(new TypeError('fetch failed', { cause: coded(code) })), code);
  const attempts = Object.assign(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]), {
    code: undefined,
  });
  assert.ok(unreachable(new TypeError('fetch failed', { cause: attempts })));
  for (const other of [
    new TypeError('fetch failed', { cause: coded('ECONNRESET') }),
    new TypeError('fetch failed', { cause: coded('UND_ERR_SOCKET') }),
    new Error('the decision API answered 503'),
    'ECONNREFUSED',
    null,
  ])
    assert.equal(unreachable(other), false, String(other));
  // A cause that refers to itself ends the walk.
  const loop: Error & { cause?: unknown } = new Error('loop');
  loop.cause = loop;
  assert.equal(unreachable(loop), false);
});
