// The console's sessions (plugins/console.ts, console/*): sign-in with the operator key or a one-time link gives an
// HttpOnly SameSite=Strict cookie; without a live session every console call is refused (401), changes need the
// session's CSRF token (403 without it, or from another site), sign-out ends the session on the server, wrong keys
// lock an address out, and the API keys and client secrets shown once appear in no later answer or log line.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../../server/src/logger.js';
import { CONSOLE_CSP } from '../../../server/src/plugins/console.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { consoleCalls } from '../../support/console-calls.js';
import { describeOnEveryStoreWith, startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-console-tests-0123456789';
const HOUR = 3_600_000;

let store: Store;
let server: Running;
let off: Running;
let clock = Date.parse('2026-11-25T10:00:00Z');
const logLines: string[] = [];

const consoleDir = mkdtempSync(join(tmpdir(), 'console-'));
mkdirSync(join(consoleDir, 'assets'));
writeFileSync(
  join(consoleDir, 'index.html'),
  '<!doctype html><title>console</title><console-app></console-app>',
);
writeFileSync(
  join(consoleDir, 'assets', 'index-abc.js'),
  'customElements.define("x-y", class extends HTMLElement {});',
);

before(async () => {
  store = await openFreshPgliteStore();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const statics = { demoDir: consoleDir, sdkDir: consoleDir, consoleDir };
  server = await startApp(store, {
    operatorKeys: [KEY],
    logger: createLogger('debug', stream),
    now: () => clock,
    static: statics,
  });
  off = await startApp(store, { static: statics });
});
after(async () => {
  await off.close();
  await server.close();
  await store.close();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, unknown>;
}

const request = async (
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; on?: Running } = {},
): Promise<Answer> => {
  const res = await fetch(`${(options.on ?? server).url}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    // HTML pages.
  }
  return { status: res.status, headers: res.headers, text, body };
};

interface Session {
  cookie: string;
  csrf: string;
  setCookie: string;
}

const signIn = async (
  credential: Record<string, string> = { operator_key: KEY },
  on?: Running,
): Promise<Session> => {
  const answer = await request('POST', '/admin/session', { body: credential, ...(on ? { on } : {}) });
  assert.equal(answer.status, 200, answer.text);
  const setCookie = answer.headers.get('set-cookie') ?? '';
  const cookie = /^(feature_console=[^;]+)/.exec(setCookie)?.[1];
  assert.ok(cookie !== undefined, setCookie);
  return { cookie, csrf: String(answer.body.csrf_token), setCookie };
};

const as = (session: Session, csrf: string | null = session.csrf, extra: Record<string, string> = {}) => ({
  cookie: session.cookie,
  ...(csrf === null ? {} : { 'x-csrf-token': csrf }),
  ...extra,
});

void describe('console sessions', () => {
  void it('serve the page with a strict CSP, and say how to turn the console on when it is off', async () => {
    const page = await request('GET', '/admin');
    assert.equal(page.status, 200);
    assert.match(page.text, /<console-app>/);
    assert.equal(page.headers.get('content-security-policy'), CONSOLE_CSP);
    assert.match(CONSOLE_CSP, /script-src 'self'/);
    assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const script = await request('GET', '/admin/assets/index-abc.js');
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assert.equal((await request('GET', '/admin/assets/..%2f..%2fetc%2fpasswd')).status, 404);

    const offPage = await request('GET', '/admin', { on: off });
    assert.equal(offPage.status, 200);
    assert.match(offPage.text, /FEATURE_OPERATOR_KEY/);
    assert.equal(
      (await request('POST', '/admin/session', { body: { operator_key: KEY }, on: off })).status,
      404,
    );
  });

  void it('give an HttpOnly, SameSite=Strict cookie scoped to /admin, Secure over HTTPS', async () => {
    const session = await signIn();
    assert.match(session.setCookie, /; Path=\/admin;/);
    assert.match(session.setCookie, /; HttpOnly;/);
    assert.match(session.setCookie, /; SameSite=Strict/);
    assert.match(session.setCookie, /; Max-Age=28800$/);
    assert.doesNotMatch(session.setCookie, /Secure/);
    assert.match(session.csrf, /^csrf_[A-Za-z0-9_-]{40,}$/);
    const read = await request('GET', '/admin/session', { headers: as(session, null) });
    // No CORS anywhere under /admin: another origin's script can neither read an answer nor preflight a change.
    assert.equal(read.headers.get('access-control-allow-origin'), null);
    const listed = await request('GET', '/admin/v1/accounts', {
      headers: as(session, null, { origin: 'https://evil.example' }),
    });
    assert.equal(listed.headers.get('access-control-allow-origin'), null);
    const preflight = await request('OPTIONS', '/admin/v1/accounts', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    assert.deepEqual(read.body, {
      csrf_token: session.csrf,
      expires_at: new Date(clock + 8 * HOUR).toISOString(),
      user: null,
    });

    const secure = await startApp(store, { operatorKeys: [KEY], trustProxy: '127.0.0.1' });
    try {
      const answer = await request('POST', '/admin/session', {
        body: { operator_key: KEY },
        headers: { 'x-forwarded-proto': 'https' },
        on: secure,
      });
      assert.match(answer.headers.get('set-cookie') ?? '', /; Secure; Max-Age=/);
    } finally {
      await secure.close();
    }
  });

  void it('refuse every console call without a session, with a forged cookie or an expired one', async () => {
    const calls = await consoleCalls(server.url);
    // Operator routes (accounts, environments, accesses, campaigns, reports…), the session routes, sign-in links.
    assert.ok(calls.length >= 25, `${calls.length} console calls`);
    const forged = `feature_console=fcs_${'A'.repeat(43)}`;
    const expiring = await signIn();
    clock += 8 * HOUR + 1;
    try {
      for (const [method, path] of calls) {
        const none = await request(method, path, {
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        assert.equal(none.status, 401, `${method} ${path} without a session: ${none.text}`);
        const fake = await request(method, path, { headers: { cookie: forged, 'x-csrf-token': 'csrf_x' } });
        assert.equal(fake.status, 401, `${method} ${path} with a forged cookie`);
        assert.equal(fake.body.code, 'invalid_token');
        const expired = await request(method, path, { headers: as(expiring) });
        assert.equal(expired.status, 401, `${method} ${path} with an expired session`);
      }
    } finally {
      clock -= 8 * HOUR + 1;
    }
    const malformed = await request('GET', '/admin/v1/accounts', {
      headers: { cookie: 'feature_console=<script>' },
    });
    assert.equal(malformed.status, 401);
    assert.equal(malformed.body.code, 'missing_token');
  });

  void it('refuse changes without the CSRF token, with a wrong one, or from another site', async () => {
    const session = await signIn();
    const before = (
      (await request('GET', '/admin/v1/accounts', { headers: as(session, null) })).body.items as unknown[]
    ).length;
    const missing = await request('POST', '/admin/v1/accounts', {
      body: { name: 'Forged' },
      headers: as(session, null),
    });
    assert.equal(missing.status, 403);
    assert.equal(missing.body.code, 'invalid_csrf_token');
    assert.match(String(missing.body.message), /X-CSRF-Token header is missing/);
    const wrong = await request('POST', '/admin/v1/accounts', {
      body: { name: 'Forged' },
      headers: as(session, 'csrf_nope'),
    });
    assert.equal(wrong.status, 403);
    const otherSession = await signIn();
    const swapped = await request('POST', '/admin/v1/accounts', {
      body: { name: 'Forged' },
      headers: as(session, otherSession.csrf),
    });
    assert.equal(swapped.status, 403, "another session's token");
    const crossSite = await request('POST', '/admin/v1/accounts', {
      body: { name: 'Forged' },
      headers: as(session, session.csrf, { 'sec-fetch-site': 'cross-site' }),
    });
    assert.equal(crossSite.status, 403);
    // A form post from another site: no JSON content type, no token.
    const form = await fetch(`${server.url}/admin/v1/accounts`, {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
      },
      body: 'name=Forged',
    });
    assert.equal(form.status, 403);
    const signOutForged = await request('DELETE', '/admin/session', { headers: as(session, null) });
    assert.equal(signOutForged.status, 403, 'sign-out needs the token too');
    const after = (await request('GET', '/admin/v1/accounts', { headers: as(session, null) })).body
      .items as unknown[];
    assert.equal(after.length, before, 'nothing was created by the refused requests');

    const made = await request('POST', '/admin/v1/accounts', {
      body: { name: 'Real' },
      headers: as(session),
    });
    assert.equal(made.status, 201);
    const env = await request('POST', `/admin/v1/accounts/${String(made.body.id)}/environments`, {
      body: { name: 'prod' },
      headers: as(session),
    });
    assert.equal(env.status, 201);
    const patchForged = await request('PATCH', `/admin/v1/environments/${String(env.body.id)}`, {
      body: { panic: true },
      headers: as(session, null),
    });
    assert.equal(patchForged.status, 403);
    const stillCalm = await request('GET', `/admin/v1/accounts/${String(made.body.id)}/environments`, {
      headers: as(session, null),
    });
    assert.equal((stillCalm.body.items as Array<{ panic: boolean }>)[0]?.panic, false);
  });

  void it('end the session on the server at sign-out: the old cookie opens nothing', async () => {
    const session = await signIn();
    assert.equal((await request('GET', '/admin/v1/accounts', { headers: as(session, null) })).status, 200);
    const out = await request('DELETE', '/admin/session', { headers: as(session) });
    assert.equal(out.status, 204);
    assert.match(
      out.headers.get('set-cookie') ?? '',
      /^feature_console=; Path=\/admin; HttpOnly; SameSite=Strict; Max-Age=0$/,
    );
    for (const [method, path] of await consoleCalls(server.url)) {
      const answer = await request(method, path, { headers: as(session) });
      assert.equal(answer.status, 401, `${method} ${path} after sign-out`);
    }
  });

  void it('sign in once with a link, within its 15 minutes', async () => {
    const made = await request('POST', '/admin/v1/console/sign-in-links', {
      headers: { authorization: `Bearer ${KEY}` },
    });
    assert.equal(made.status, 201);
    const token = /^\/admin\/#sign-in=(fcl_[A-Za-z0-9_-]+)$/.exec(String(made.body.path))?.[1] ?? '';
    assert.notEqual(token, '');
    await signIn({ sign_in_link: token });
    const again = await request('POST', '/admin/session', { body: { sign_in_link: token } });
    assert.equal(again.status, 401, 'a link signs in once');
    assert.match(String(again.body.message), /sign-in link was already used or has expired/);
    const late = await request('POST', '/admin/v1/console/sign-in-links', {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const lateToken = String(late.body.path).split('=')[1] ?? '';
    clock += 15 * 60_000 + 1;
    try {
      assert.equal(
        (await request('POST', '/admin/session', { body: { sign_in_link: lateToken } })).status,
        401,
      );
    } finally {
      clock -= 15 * 60_000 + 1;
    }
    for (const body of [
      {},
      { operator_key: KEY, sign_in_link: token },
      { operator_key: 42 },
      { operator_key: '' },
    ]) {
      const bad = await request('POST', '/admin/session', { body });
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.equal(bad.body.code, 'invalid_body');
    }
  });

  void it('lock an address out after repeated wrong keys, and answer wrong keys no sooner than 10 ms', async () => {
    const guarded = await startApp(store, { operatorKeys: [KEY] });
    try {
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const wrong = await request('POST', '/admin/session', {
          body: { operator_key: `wrong-${i}` },
          on: guarded,
        });
        assert.ok(performance.now() - started >= 10);
        assert.equal(wrong.status, 401);
        assert.equal(wrong.body.code, 'invalid_token');
        assert.match(String(wrong.body.message), /not the operator key this server was started with/);
      }
      const locked = await request('POST', '/admin/session', { body: { operator_key: KEY }, on: guarded });
      assert.equal(locked.status, 429, 'even the right key waits');
      assert.ok(Number(locked.headers.get('retry-after')) >= 1);
    } finally {
      await guarded.close();
    }
  });

  void it('show API keys and client secrets once: in no later answer, and never in a log line', async () => {
    const session = await signIn();
    const account = await request('POST', '/admin/v1/accounts', {
      body: { name: 'Secrets' },
      headers: as(session),
    });
    const accountId = String(account.body.id);
    const env = await request('POST', `/admin/v1/accounts/${accountId}/environments`, {
      body: { name: 'prod' },
      headers: as(session),
    });
    const envId = String(env.body.id);
    const firstKey = String(env.body.api_key);
    const rotated = await request('POST', `/admin/v1/environments/${envId}/rotate-key`, {
      headers: as(session),
    });
    const secondKey = String(rotated.body.api_key);
    const access = await request('POST', `/admin/v1/accounts/${accountId}/accesses`, {
      body: { name: 'bot', actions: ['campaign.list'] },
      headers: as(session),
    });
    const secret = String(access.body.client_secret);
    assert.match(firstKey, /^fk_/);
    assert.ok(secret.length >= 20);
    const secrets = [firstKey, secondKey, secret, KEY, session.csrf, session.cookie.split('=')[1] ?? ''];

    const later = [
      '/admin/v1/accounts',
      `/admin/v1/accounts/${accountId}/environments`,
      `/admin/v1/accounts/${accountId}/accesses`,
      `/admin/v1/accesses/${String(access.body.id)}`,
      `/admin/v1/environments/${envId}/campaigns`,
      `/admin/v1/environments/${envId}/reports`,
      '/admin',
    ];
    for (const path of later) {
      const answer = await request('GET', path, { headers: as(session, null) });
      assert.equal(answer.status, 200, path);
      for (const value of [firstKey, secondKey, secret, KEY])
        assert.ok(!answer.text.includes(value), `${path} shows a secret`);
    }
    await request('DELETE', '/admin/session', { headers: as(session) });
    const logs = logLines.join('');
    assert.ok(logLines.length > 20, 'requests were logged at debug');
    for (const value of secrets) assert.ok(!logs.includes(value), `a log line holds ${value.slice(0, 8)}…`);
  });
});

void describe('console routes and their data routes, given bad input', () => {
  void it('answer a 4xx from the catalogue, never a 500: NUL, lone surrogates, huge numbers, deep nesting, bad encoding', async () => {
    const session = await signIn();
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const raw = async (
      method: string,
      path: string,
      body: string | undefined,
      headers: Record<string, string>,
    ) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body }),
      });
      const text = await res.text();
      return { status: res.status, text };
    };
    const cases: Array<[string, string, string | undefined, Record<string, string>]> = [
      ['POST', '/admin/session', JSON.stringify({ operator_key: 'a\u0000b' }), {}],
      ['POST', '/admin/session', '{"operator_key":"\\ud800"}', {}],
      ['POST', '/admin/session', JSON.stringify({ operator_key: 1e308 }), {}],
      ['POST', '/admin/session', JSON.stringify({ sign_in_link: 'x'.repeat(100_000) }), {}],
      ['POST', '/admin/session', deep, {}],
      ['POST', '/admin/session', '{"operator_key":', {}],
      ['POST', '/admin/session', JSON.stringify([KEY]), {}],
      ['GET', '/admin/v1/environments/%E0%A4%A/traffic', undefined, as(session, null)],
      ['GET', '/admin/v1/environments/a%00b/traffic', undefined, as(session, null)],
      ['GET', '/admin/v1/environments/%ED%A0%80/reports/c/days', undefined, as(session, null)],
      ['POST', '/admin/v1/accounts', deep, as(session)],
      ['POST', '/admin/v1/accounts', JSON.stringify({ name: 'a\u0000' }), as(session)],
      ['POST', '/admin/v1/accounts', '{"name":"\\udc00"}', as(session)],
      ['POST', '/admin/v1/accounts', JSON.stringify({ name: 1.7976931348623157e308 }), as(session)],
      [
        'GET',
        '/admin/session',
        undefined,
        { cookie: `feature_console=fcs_%00%ED%A0%80${'x'.repeat(30)}; feature_console=` },
      ],
      ['GET', '/admin/session', undefined, { cookie: `feature_console=${'A'.repeat(10_000)}` }],
    ];
    const account = await request('POST', '/admin/v1/accounts', {
      body: { name: 'Bad input' },
      headers: as(session),
    });
    const env = await request('POST', `/admin/v1/accounts/${String(account.body.id)}/environments`, {
      body: { name: 'prod' },
      headers: as(session),
    });
    const envPath = `/admin/v1/environments/${String(env.body.id)}`;
    for (const query of [
      '?limit=1e308',
      '?limit=-1',
      '?limit=%00',
      '?after_hit=99999999999999999999',
      '?after_activation=1.5',
      '?visitor=%00',
      `?visitor=${'v'.repeat(1000)}`,
      '?limit=1&limit=2',
    ])
      cases.push(['GET', `${envPath}/traffic${query}`, undefined, as(session, null)]);
    for (const [method, path, body, headers] of cases) {
      const answer = await raw(method, path, body, headers);
      const where = `${method} ${path.slice(0, 80)} ${(body ?? '').slice(0, 40)}`;
      assert.ok(
        answer.status >= 400 && answer.status < 500,
        `${where}: ${answer.status} ${answer.text.slice(0, 200)}`,
      );
      const parsed = JSON.parse(answer.text) as { code?: unknown; message?: unknown };
      assert.equal(typeof parsed.code, 'string', where);
      assert.equal(typeof parsed.message, 'string', where);
    }
    // Undecodable bytes in a filter decode to U+FFFD (the query parser's choice): they match no visitor, no 500.
    for (const query of ['?visitor=%ED%A0%80', '?visitor=%E0%A4%A', '?visitor=%FF']) {
      const answer = await raw('GET', `${envPath}/traffic${query}`, undefined, as(session, null));
      assert.ok(answer.status < 500, `${query}: ${answer.status}`);
      const parsed = JSON.parse(answer.text) as { items?: unknown[]; code?: string };
      assert.ok(parsed.code === 'invalid_body' || parsed.items?.length === 0, `${query}: ${answer.text}`);
    }
    // And the routes still answer good requests.
    assert.equal((await request('GET', `${envPath}/traffic`, { headers: as(session, null) })).status, 200);
    assert.equal((await signIn()).csrf.length > 0, true);
  });
});

describeOnEveryStoreWith(
  'console sessions on a store shared by two instances',
  {
    start: async (shared) => ({
      store: shared,
      a: await startApp(shared, { operatorKeys: [KEY] }),
      b: await startApp(shared, { operatorKeys: [KEY] }),
    }),
    stop: async ({ a, b }) => {
      await a.close();
      await b.close();
    },
  },
  (_kind, started) => {
    void it('open on one instance, end on the other, and use a link once across both', async () => {
      const { a, b, store: shared } = started('instances');
      const session = await signIn({ operator_key: KEY }, a);
      const onB = await request('GET', '/admin/session', { headers: as(session, null), on: b });
      assert.equal(onB.status, 200, 'a session opened on A works on B');
      assert.equal(onB.body.csrf_token, session.csrf);
      assert.equal((await request('DELETE', '/admin/session', { headers: as(session), on: b })).status, 204);
      assert.equal(
        (await request('GET', '/admin/v1/accounts', { headers: as(session, null), on: a })).status,
        401,
      );

      const link = await request('POST', '/admin/v1/console/sign-in-links', {
        headers: { authorization: `Bearer ${KEY}` },
        on: a,
      });
      const token = String(link.body.path).split('=')[1] ?? '';
      const [first, second] = await Promise.all([
        request('POST', '/admin/session', { body: { sign_in_link: token }, on: a }),
        request('POST', '/admin/session', { body: { sign_in_link: token }, on: b }),
      ]);
      assert.deepEqual([first.status, second.status].sort(), [200, 401], 'two instances racing: one sign-in');
      // Ended and expired rows go with the hourly purge; the live session stays.
      const live = first.status === 200 ? first : second;
      const cookie = /^(feature_console=[^;]+)/.exec(live.headers.get('set-cookie') ?? '')?.[1] ?? '';
      assert.equal(await shared.purgeConsoleSessions(Date.now()), 0);
      assert.equal(await shared.purgeConsoleSessions(Date.now() + 9 * HOUR), 1);
      assert.equal((await request('GET', '/admin/session', { headers: { cookie }, on: b })).status, 401);
    });
  },
);
