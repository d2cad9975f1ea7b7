// Console sessions after a change of the operator key (issue #29, finding 3): a session opened with K1 still
// read and wrote after a restart with FEATURE_OPERATOR_KEY=K2, while K1 itself was refused, and a sign-in link
// made before the change still opened a fresh 8-hour session. Sessions and links are now bound to the key that
// opened them, and a server accepts only those of its own keys: the reproduction exactly as reported (server
// processes on one data folder), then the same on every store with instances side by side.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess } from '../cli-support.js';
import { describeOnEveryStoreWith, startApp, type Running } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';

const K1 = 'first-operator-key-of-the-key-change-test-0123';
const K2 = 'second-operator-key-of-the-key-change-test-4567';

interface Answer {
  status: number;
  code: unknown;
  body: Record<string, unknown>;
  setCookie: string;
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
  const parsed = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
  return {
    status: res.status,
    code: parsed.code,
    body: parsed,
    setCookie: res.headers.get('set-cookie') ?? '',
  };
};

interface Session {
  cookie: string;
  csrf: string;
}

const signIn = async (url: string, credential: Record<string, string>): Promise<Session> => {
  const answer = await call(url, 'POST', '/admin/session', {}, credential);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const cookie = /^(feature_console=[^;]+)/.exec(answer.setCookie)?.[1] ?? '';
  return { cookie, csrf: String(answer.body.csrf_token) };
};

/** A sign-in link's token, made with the operator key or by a session. */
const newLink = async (url: string, by: { key: string } | Session): Promise<string> => {
  const headers =
    'key' in by ? { authorization: `Bearer ${by.key}` } : { cookie: by.cookie, 'x-csrf-token': by.csrf };
  const made = await call(url, 'POST', '/admin/v1/console/sign-in-links', headers);
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return /#sign-in=(fcl_[A-Za-z0-9_-]+)$/.exec(String(made.body.path))?.[1] ?? assert.fail('no link');
};

/** A read and a write with the session; their statuses. */
const readAndWrite = async (url: string, session: Session, name: string): Promise<[number, number]> => [
  (await call(url, 'GET', '/admin/v1/accounts', { cookie: session.cookie })).status,
  (
    await call(
      url,
      'POST',
      '/admin/v1/accounts',
      { cookie: session.cookie, 'x-csrf-token': session.csrf },
      { name },
    )
  ).status,
];

void describe('console sessions after the operator key changes (server processes, one data folder)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-key-change-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // A copy of a migrated folder: the first server would otherwise create it (initdb); what is tested is the key.
  before(() => copyTemplateDataDir(dir));

  const run = async <T>(key: string, work: (url: string) => Promise<T>): Promise<T> => {
    const server = await startServerProcess({ FEATURE_DATA_DIR: dir, FEATURE_OPERATOR_KEY: key });
    try {
      return await work(server.url);
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  };

  void it('ends a K1 session and refuses K1 links once the server restarts with K2', async () => {
    const made = await run(K1, async (url) => {
      const session = await signIn(url, { operator_key: K1 });
      assert.deepEqual(await readAndWrite(url, session, 'Under K1'), [200, 201]);
      // Links made before the change: one with the key, two by the session (a leaked key's way to renew itself).
      return {
        session,
        links: [await newLink(url, { key: K1 }), await newLink(url, session), await newLink(url, session)],
      };
    });

    // The same key again: a restart signs no one out, and a link still signs in once.
    const [byKey, bySession, spare] = made.links;
    await run(K1, async (url) => {
      assert.deepEqual(await readAndWrite(url, made.session, 'After a restart'), [200, 201]);
      await signIn(url, { sign_in_link: bySession ?? '' });
    });

    await run(K2, async (url) => {
      // The session: 401 on read and on write, and the session route says it is over.
      const read = await call(url, 'GET', '/admin/v1/accounts', { cookie: made.session.cookie });
      assert.deepEqual([read.status, read.code], [401, 'invalid_token']);
      assert.deepEqual(await readAndWrite(url, made.session, 'Under K2 with a K1 session'), [401, 401]);
      assert.equal((await call(url, 'GET', '/admin/session', { cookie: made.session.cookie })).status, 401);
      // The links made under K1, by the key or by the session: refused.
      for (const link of [byKey, spare]) {
        const refused = await call(url, 'POST', '/admin/session', {}, { sign_in_link: link });
        assert.deepEqual([refused.status, refused.code], [401, 'invalid_token'], 'a K1 link under K2');
      }
      // K1 itself is refused; K2 signs in, and its session reads and writes.
      assert.equal(
        (await call(url, 'GET', '/admin/v1/accounts', { authorization: `Bearer ${K1}` })).status,
        401,
      );
      const fresh = await signIn(url, { operator_key: K2 });
      assert.deepEqual(await readAndWrite(url, fresh, 'Under K2'), [200, 201]);
    });
  });
});

describeOnEveryStoreWith(
  'console sessions bound to their operator key, instances side by side',
  {
    start: async (store) => ({
      store,
      one: await startApp(store, { operatorKeys: [K1] }),
      two: await startApp(store, { operatorKeys: [K2] }),
      // K1 plus a key of its own, as a server on the embedded store has (its per-run local key).
      withLocal: await startApp(store, { operatorKeys: [K1, 'ffo_a-local-key-of-this-run'] }),
    }),
    stop: async ({ one, two, withLocal }) => {
      for (const app of [one, two, withLocal]) await app.close();
    },
  },
  (_kind, started) => {
    void it('refuse on a K2 instance the sessions and links a K1 instance made, row for row', async () => {
      const { store, one, two } = started('instances');
      const session = await signIn(one.url, { operator_key: K1 });
      const link = await newLink(one.url, session);
      assert.deepEqual(await readAndWrite(two.url, session, 'On two'), [401, 401]);
      // The refusal leaves the session to the instances of its key.
      assert.deepEqual(await readAndWrite(one.url, session, 'Still on one'), [200, 201]);
      // A link is spent by its first use, refused or not.
      assert.equal((await call(two.url, 'POST', '/admin/session', {}, { sign_in_link: link })).status, 401);
      assert.equal((await call(one.url, 'POST', '/admin/session', {}, { sign_in_link: link })).status, 401);

      // A K1 instance replaced by a K2 one on the same store: what the K1 rows say does not open it.
      const replaced: Running = await startApp(store, { operatorKeys: [K2] });
      try {
        const pending = await newLink(one.url, { key: K1 });
        assert.deepEqual(await readAndWrite(replaced.url, session, 'On the replacement'), [401, 401]);
        assert.equal(
          (await call(replaced.url, 'POST', '/admin/session', {}, { sign_in_link: pending })).status,
          401,
        );
      } finally {
        await replaced.close();
      }
    });

    void it('bind each session to the key that opened it: a per-run key’s sessions end with its run', async () => {
      const { one, withLocal } = started('instances');
      const local = 'ffo_a-local-key-of-this-run';
      const byConfiguredKey = await signIn(withLocal.url, { operator_key: K1 });
      const byLocalKey = await signIn(withLocal.url, { operator_key: local });
      const linkOfLocalKey = await newLink(withLocal.url, { key: local });
      // The same server with another per-run key (one that restarted): only what K1 opened still opens it.
      assert.deepEqual(await readAndWrite(one.url, byConfiguredKey, 'K1 session'), [200, 201]);
      assert.deepEqual(await readAndWrite(one.url, byLocalKey, 'local session'), [401, 401]);
      assert.equal(
        (await call(one.url, 'POST', '/admin/session', {}, { sign_in_link: linkOfLocalKey })).status,
        401,
      );
      // A link a session makes carries the session's key, not the instance's first one.
      const fromLocalSession = await newLink(withLocal.url, byLocalKey);
      assert.equal(
        (await call(one.url, 'POST', '/admin/session', {}, { sign_in_link: fromLocalSession })).status,
        401,
      );
    });
  },
);
