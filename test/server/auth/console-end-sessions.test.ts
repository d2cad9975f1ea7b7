// Ending every console session at once (issue #29, finding 3): no route ended them all, so a session that had
// leaked lived its 8 hours. `DELETE /admin/v1/console/sessions` ends every session on every instance of the
// store, the caller's included (its cookie is cleared), and voids the sign-in links not used yet, on each
// store kind.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeOnEveryStoreWith, startApp } from '../support.js';

const KEY = 'operator-key-for-the-end-sessions-test-0123456789';

interface Answer {
  status: number;
  body: Record<string, unknown>;
  setCookie: string | null;
}

const call = async (
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> => {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
    setCookie: res.headers.get('set-cookie'),
  };
};

interface Session {
  cookie: string;
  csrf: string;
}

const signIn = async (url: string, credential: Record<string, string>): Promise<Session> => {
  const answer = await call(url, 'POST', '/admin/session', {}, credential);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return {
    cookie: /^(feature_console=[^;]+)/.exec(answer.setCookie ?? '')?.[1] ?? '',
    csrf: String(answer.body.csrf_token),
  };
};

const as = (session: Session) => ({ cookie: session.cookie, 'x-csrf-token': session.csrf });

describeOnEveryStoreWith(
  'ending every console session',
  {
    start: async (store) => ({
      a: await startApp(store, { operatorKeys: [KEY] }),
      b: await startApp(store, { operatorKeys: [KEY] }),
    }),
    stop: async ({ a, b }) => {
      await a.close();
      await b.close();
    },
  },
  (_kind, started) => {
    void it('ends every session on every instance, the caller’s too, and voids unused links', async () => {
      const { a, b } = started('instances');
      const first = await signIn(a.url, { operator_key: KEY });
      const second = await signIn(b.url, { operator_key: KEY });
      const third = await signIn(a.url, { operator_key: KEY });
      const made = await call(b.url, 'POST', '/admin/v1/console/sign-in-links', as(second));
      const unused = String(made.body.path).split('=')[1] ?? '';

      // A session's change needs its CSRF token, this one as any other.
      const forged = await call(b.url, 'DELETE', '/admin/v1/console/sessions', { cookie: first.cookie });
      assert.deepEqual([forged.status, forged.body.code], [403, 'invalid_csrf_token']);
      assert.equal((await call(a.url, 'DELETE', '/admin/v1/console/sessions')).status, 401);

      const ended = await call(b.url, 'DELETE', '/admin/v1/console/sessions', as(first));
      assert.equal(ended.status, 200, JSON.stringify(ended.body));
      assert.deepEqual(ended.body, { ended: 3 });
      assert.match(
        ended.setCookie ?? '',
        /^feature_console=; Path=\/admin; HttpOnly; SameSite=Strict; Max-Age=0$/,
      );

      for (const session of [first, second, third])
        for (const url of [a.url, b.url]) {
          const read = await call(url, 'GET', '/admin/v1/accounts', { cookie: session.cookie });
          assert.deepEqual([read.status, read.body.code], [401, 'invalid_token']);
          const write = await call(url, 'POST', '/admin/v1/accounts', as(session), { name: 'After the end' });
          assert.equal(write.status, 401);
          assert.equal((await call(url, 'GET', '/admin/session', { cookie: session.cookie })).status, 401);
        }
      const link = await call(a.url, 'POST', '/admin/session', {}, { sign_in_link: unused });
      assert.equal(link.status, 401, 'a link made before the end opens nothing');

      // The key still works, and ends what was opened since; with no session of its own, no cookie is cleared.
      const later = await signIn(a.url, { operator_key: KEY });
      const byKey = await call(a.url, 'DELETE', '/admin/v1/console/sessions', {
        authorization: `Bearer ${KEY}`,
      });
      assert.deepEqual([byKey.status, byKey.body, byKey.setCookie], [200, { ended: 1 }, null]);
      assert.equal((await call(b.url, 'GET', '/admin/v1/accounts', { cookie: later.cookie })).status, 401);
      const none = await call(b.url, 'DELETE', '/admin/v1/console/sessions', {
        authorization: `Bearer ${KEY}`,
      });
      assert.deepEqual(none.body, { ended: 0 });

      // Signing in again works at once.
      const again = await signIn(b.url, { operator_key: KEY });
      assert.equal((await call(a.url, 'GET', '/admin/v1/accounts', { cookie: again.cookie })).status, 200);
    });
  },
);
