// Guessing the operator key (issue #29, finding 2): `GET /admin/v1/accounts` with wrong Bearer keys was
// answered 401 twenty-five times from one address, while the console's sign-in locked that address out after
// five; and a locked-out address still got 200 with the right key on /admin/v1. Now both count wrong keys
// together per address with the token routes' thresholds (§13.7: 5 failures, then waits of 1 s doubling),
// answer 429 with Retry-After while the address waits (even the right key), answer each wrong key no sooner
// than the failure floor, and take the address from X-Forwarded-For only behind a TRUST_PROXY proxy.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-the-lockout-tests-0123456789';
const START = Date.parse('2026-11-25T10:00:00Z');

let store: Store;
let clock = START;
const running: Running[] = [];

before(async () => {
  store = await openFreshPgliteStore();
});
after(async () => {
  for (const app of running) await app.close();
  await store.close();
});

/** A new app (so a fresh count of wrong keys) on the shared store and clock. */
const fresh = async (trustProxy?: string): Promise<Running> => {
  const app = await startApp(store, {
    operatorKeys: [KEY],
    now: () => clock,
    ...(trustProxy === undefined ? {} : { trustProxy }),
  });
  running.push(app);
  return app;
};

interface Answer {
  status: number;
  code: unknown;
  retryAfter: string | null;
  ms: number;
  cookie: string;
  csrf: string;
}

const call = async (
  app: Running,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> => {
  const started = performance.now();
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  const parsed = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
  return {
    status: res.status,
    code: parsed.code,
    retryAfter: res.headers.get('retry-after'),
    ms,
    cookie: /^(feature_console=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '',
    csrf: typeof parsed.csrf_token === 'string' ? parsed.csrf_token : '',
  };
};

const bearer = (key: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${key}`,
  ...extra,
});
const accounts = (app: Running, key: string, extra?: Record<string, string>) =>
  call(app, 'GET', '/admin/v1/accounts', bearer(key, extra));
const signIn = (app: Running, key: string) => call(app, 'POST', '/admin/session', {}, { operator_key: key });

void describe('wrong operator keys', () => {
  void it('25 wrong Bearer keys from one address: 401 five times, then 429 with Retry-After, the right key too', async () => {
    const app = await fresh();
    const answers: Answer[] = [];
    for (let i = 0; i < 25; i++) answers.push(await accounts(app, `wrong-key-${i}`));
    assert.deepEqual(
      answers.map((a) => a.status),
      [...Array<number>(5).fill(401), ...Array<number>(20).fill(429)],
    );
    for (const wrong of answers.slice(0, 5)) {
      assert.equal(wrong.code, 'invalid_token');
      // The floor of every failed credential check (failure-floor.ts): a lower bound, whatever the load.
      assert.ok(wrong.ms >= 10, `a wrong key answered after ${wrong.ms} ms`);
    }
    for (const waiting of answers.slice(5)) {
      assert.equal(waiting.code, 'too_many_requests');
      assert.equal(waiting.retryAfter, '1', 'the first wait is 1 s');
    }
    const right = await accounts(app, KEY);
    assert.equal(right.status, 429, 'a locked-out address is refused with the right key too');
    assert.equal(right.retryAfter, '1');

    // Once the wait has passed, the right key opens the routes again; a wrong one waits twice as long.
    clock += 1001;
    assert.equal((await accounts(app, 'wrong-again')).status, 401);
    const doubled = await accounts(app, KEY);
    assert.deepEqual([doubled.status, doubled.retryAfter], [429, '2']);
    clock += 2001;
    assert.equal((await accounts(app, KEY)).status, 200);
    clock = START;

    // The right key from a fresh state works at once.
    assert.equal((await accounts(await fresh(), KEY)).status, 200);
  });

  void it('count together at the console sign-in and as Bearer keys, either way round', async () => {
    // The reported case: five wrong keys at the sign-in, then the right key as a Bearer key.
    const signInFirst = await fresh();
    for (let i = 0; i < 5; i++) assert.equal((await signIn(signInFirst, `wrong-${i}`)).status, 401);
    const bearerAfter = await accounts(signInFirst, KEY);
    assert.deepEqual([bearerAfter.status, bearerAfter.code], [429, 'too_many_requests']);
    assert.equal(bearerAfter.retryAfter, '1');
    assert.equal(
      (await call(signInFirst, 'POST', '/admin/v1/console/sign-in-links', bearer(KEY))).status,
      429,
      'the sign-in link route checks the key the same way',
    );

    const bearerFirst = await fresh();
    for (let i = 0; i < 3; i++) assert.equal((await accounts(bearerFirst, `wrong-${i}`)).status, 401);
    for (let i = 3; i < 5; i++) assert.equal((await signIn(bearerFirst, `wrong-${i}`)).status, 401);
    const signInAfter = await signIn(bearerFirst, KEY);
    assert.deepEqual([signInAfter.status, signInAfter.retryAfter], [429, '1']);
    assert.equal((await accounts(bearerFirst, KEY)).status, 429);

    // Success starts the count afresh: four wrong keys, the right one, four more: never locked.
    const mixed = await fresh();
    for (const key of ['a', 'b', 'c', 'd', KEY, 'e', 'f', 'g', 'h', KEY])
      assert.equal((await accounts(mixed, key)).status, key === KEY ? 200 : 401, key);
  });

  void it('keep an open console session working from a locked-out address: a cookie is not a guess', async () => {
    const app = await fresh();
    const session = await signIn(app, KEY);
    assert.equal(session.status, 200);
    for (let i = 0; i < 5; i++) await accounts(app, `wrong-${i}`);
    assert.equal((await accounts(app, KEY)).status, 429);
    assert.equal((await call(app, 'GET', '/admin/v1/accounts', { cookie: session.cookie })).status, 200);
    const made = await call(
      app,
      'POST',
      '/admin/v1/accounts',
      { cookie: session.cookie, 'x-csrf-token': session.csrf },
      { name: 'Made while locked out' },
    );
    assert.equal(made.status, 201);
  });

  void it('take the address from X-Forwarded-For behind a TRUST_PROXY proxy only', async () => {
    const proxied = await fresh('127.0.0.1');
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let i = 0; i < 5; i++)
      assert.equal((await accounts(proxied, `wrong-${i}`, from('203.0.113.5'))).status, 401);
    assert.equal((await accounts(proxied, KEY, from('203.0.113.5'))).status, 429);
    assert.equal((await accounts(proxied, KEY, from('203.0.113.6'))).status, 200, 'another client');

    // Without TRUST_PROXY the header is anyone's to write: it neither spreads guesses nor escapes a lockout.
    const direct = await fresh();
    for (let i = 0; i < 5; i++)
      assert.equal((await accounts(direct, `wrong-${i}`, from(`198.51.100.${i}`))).status, 401);
    assert.equal((await accounts(direct, KEY, from('198.51.100.200'))).status, 429);
  });
});
