// A cross-site page locking the operator's Bearer key out (issue #29 review): wrong keys at the console's
// sign-in and as Bearer keys share one lockout per address, and `POST /admin/session` took a text/plain body
// and ignored `Sec-Fetch-Site`, so a plain `fetch()` from any web page (text/plain needs no CORS preflight)
// could post five wrong keys and leave the CLI on that address with 429 for minutes. Now the sign-in refuses a
// request the browser marks cross-site (403) and a body that is not application/json (415) before the key is
// looked at, so neither counts; the console page's own sign-in (same-origin, application/json) still works
// and its wrong keys still count.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConsoleApi } from '../../../server/console/src/api.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-the-cross-site-sign-in-tests-0123';

let store: Store;
const running: Running[] = [];

before(async () => {
  store = await openFreshPgliteStore();
});
after(async () => {
  for (const app of running) await app.close();
  await store.close();
});

/** A new app, so a fresh count of wrong keys. */
const fresh = async (): Promise<Running> => {
  const app = await startApp(store, { operatorKeys: [KEY] });
  running.push(app);
  return app;
};

interface Answer {
  status: number;
  code: unknown;
  message: string;
  setCookie: string | null;
}

/** `POST /admin/session` with `body` as sent and `headers` as given (no Content-Type unless given). */
const post = async (app: Running, headers: Record<string, string>, body: string): Promise<Answer> => {
  const res = await fetch(`${app.url}/admin/session`, { method: 'POST', headers, body });
  const parsed = (await res.json()) as Record<string, unknown>;
  return {
    status: res.status,
    code: parsed.code,
    message: String(parsed.message),
    setCookie: res.headers.get('set-cookie'),
  };
};

const asJson = (key: string) => JSON.stringify({ operator_key: key });
const bearerStatus = async (app: Running): Promise<number> =>
  (await fetch(`${app.url}/admin/v1/accounts`, { headers: { authorization: `Bearer ${KEY}` } })).status;

void describe('the console sign-in, from another site', () => {
  void it('refuses what any page can post without a preflight, uncounted: the Bearer key is not locked out', async () => {
    const app = await fresh();
    for (let i = 0; i < 5; i++) {
      // fetch(url, { method: 'POST', body: '{"operator_key":…}' }) from any page: text/plain, no preflight.
      const plain = await post(app, { 'content-type': 'text/plain;charset=UTF-8' }, asJson(`wrong-${i}`));
      assert.deepEqual([plain.status, plain.code], [415, 'unsupported_media_type']);
      assert.match(plain.message, /Content-Type: application\/json/);
      // A form post, and a body with no Content-Type at all.
      const form = await post(
        app,
        { 'content-type': 'application/x-www-form-urlencoded' },
        `operator_key=wrong-${i}`,
      );
      assert.deepEqual([form.status, form.code], [415, 'unsupported_media_type']);
      assert.equal((await post(app, {}, asJson(`wrong-${i}`))).status, 415);
      // What a browser marks cross-site, even as application/json (a page whose preflight somehow passed).
      const crossSite = await post(
        app,
        { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
        asJson(`wrong-${i}`),
      );
      assert.deepEqual([crossSite.status, crossSite.code], [403, 'invalid_csrf_token']);
      assert.match(crossSite.message, /another site/);
    }
    assert.equal(await bearerStatus(app), 200, 'twenty refused sign-ins counted as no wrong key');

    // Refused with the right key too: another site's page opens no session either.
    const rightCrossSite = await post(
      app,
      { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      asJson(KEY),
    );
    assert.deepEqual([rightCrossSite.status, rightCrossSite.setCookie], [403, null]);
    const rightPlain = await post(app, { 'content-type': 'text/plain' }, asJson(KEY));
    assert.deepEqual([rightPlain.status, rightPlain.setCookie], [415, null]);
  });

  void it('still counts five same-origin application/json wrong keys, and locks the Bearer key out', async () => {
    const app = await fresh();
    for (let i = 0; i < 5; i++) {
      const wrong = await post(
        app,
        { 'content-type': 'application/json; charset=utf-8', 'sec-fetch-site': 'same-origin' },
        asJson(`wrong-${i}`),
      );
      assert.deepEqual([wrong.status, wrong.code], [401, 'invalid_token']);
    }
    assert.equal(await bearerStatus(app), 429);

    // A client that sends no Sec-Fetch-Site (curl, a script) is counted the same way.
    const other = await fresh();
    for (let i = 0; i < 5; i++)
      assert.equal((await post(other, { 'content-type': 'application/json' }, asJson(`w${i}`))).status, 401);
    assert.equal(await bearerStatus(other), 429);
  });

  void it('lets the console page sign in: it sends application/json, from its own origin', async () => {
    const app = await fresh();
    const sent: Array<{ contentType: string | null }> = [];
    const realFetch = globalThis.fetch;
    // The console's fetch of a relative path, as its browser sends it: same-origin, on this server.
    globalThis.fetch = (input: string | URL | Request, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      sent.push({ contentType: headers.get('content-type') });
      headers.set('sec-fetch-site', 'same-origin');
      const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      return realFetch(`${app.url}${path}`, { ...init, headers });
    };
    try {
      const api = new ConsoleApi();
      const session = await api.signIn({ operator_key: KEY });
      assert.match(session.csrf_token, /^csrf_/);
      assert.deepEqual(sent, [{ contentType: 'application/json' }]);
      await assert.rejects(api.signIn({ operator_key: 'not-the-key-0123456789abcdef' }), {
        status: 401,
        code: 'invalid_token',
      });
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
