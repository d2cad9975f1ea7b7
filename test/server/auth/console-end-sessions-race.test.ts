// "End all sessions" racing a leaked session (issue #29 review): the end deleted the unused sign-in links, then
// the sessions, in two statements. A session that had passed its check could store a new link after the
// links were deleted; the link outlived the end and opened a fresh session. Now the end runs in one
// transaction that holds the links table, a link a session makes is stored only in the statement that finds
// its session still there, and spending a link opens its session in the same statement: whatever the
// interleaving, nothing a session passes on outlives the end. On each store kind; PostgreSQL, with its
// concurrent connections, also with the end paused half-way.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pg from 'pg';
import { ConsoleSessions } from '../../../server/src/auth/console-sessions.js';
import { OperatorKeys } from '../../../server/src/auth/operator-keys.js';
import { digest } from '../../../server/src/ids.js';
import type { Store } from '../../../server/src/store/store.js';
import { describeOnEveryStoreWith, startApp } from '../support.js';
import { until } from '../../support/until.js';

const KEY = 'operator-key-for-the-end-sessions-race-test-0123';

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
  id: string;
  cookie: string;
  csrf: string;
}

const signIn = async (url: string, credential: Record<string, string>): Promise<Answer> =>
  call(url, 'POST', '/admin/session', {}, credential);

const sessionOf = (answer: Answer): Session => {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const id = /^feature_console=([^;]+)/.exec(answer.setCookie ?? '')?.[1] ?? '';
  return { id, cookie: `feature_console=${id}`, csrf: String(answer.body.csrf_token) };
};

const as = (session: Session) => ({ cookie: session.cookie, 'x-csrf-token': session.csrf });
const byKey = { authorization: `Bearer ${KEY}` };

/** Ends what an earlier test left open. */
const endAll = async (url: string): Promise<void> => {
  assert.equal((await call(url, 'DELETE', '/admin/v1/console/sessions', byKey)).status, 200);
};

/** `POST …/sign-in-links` by a session or the key; the link's token when made. */
const mintLink = async (
  url: string,
  headers: Record<string, string>,
): Promise<Answer & { token: string }> => {
  const made = await call(url, 'POST', '/admin/v1/console/sign-in-links', headers);
  const path = typeof made.body.path === 'string' ? made.body.path : '';
  return { ...made, token: path.split('#sign-in=')[1] ?? '' };
};

/** Whether a link's token opens a session (it is spent either way). */
const linkOpens = async (url: string, token: string): Promise<boolean> =>
  token !== '' && (await signIn(url, { sign_in_link: token })).status === 200;

/**
 * The store as an instance sees it when, each time, another instance's "end all sessions" lands just after a
 * session passed its check and just before the link it asked for is stored.
 */
const endingBeforeEachLink = (store: Store): Store =>
  new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !/^create\w*SignInLink$/.test(property)) return value;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await target.endAllConsoleSessions();
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });

describeOnEveryStoreWith(
  'ending every console session while a session makes links',
  {
    start: async (store) => ({
      store,
      app: await startApp(store, { operatorKeys: [KEY] }),
      racing: await startApp(endingBeforeEachLink(store), { operatorKeys: [KEY] }),
    }),
    stop: async ({ app, racing }) => {
      await app.close();
      await racing.close();
    },
  },
  (kind, started) => {
    void it('a session ended after its check stores no link, and no link it made opens a session', async () => {
      const { app, racing } = started('apps');
      const leaked = sessionOf(await signIn(app.url, { operator_key: KEY }));
      const made = await mintLink(racing.url, as(leaked));
      assert.equal(made.status, 401, `the link route answered ${made.status} ${JSON.stringify(made.body)}`);
      assert.equal(made.body.code, 'invalid_token');
      assert.equal(await linkOpens(app.url, made.token), false, 'a link made after the end opens nothing');
      assert.equal((await call(app.url, 'GET', '/admin/session', { cookie: leaked.cookie })).status, 401);
    });

    void it('leaves no usable link: made with the key or by sessions, on any instance', async () => {
      const { store, app } = started('store');
      await endAll(app.url);
      const first = sessionOf(await signIn(app.url, { operator_key: KEY }));
      const second = sessionOf(await signIn(app.url, { operator_key: KEY }));
      const tokens = [
        (await mintLink(app.url, byKey)).token,
        (await mintLink(app.url, as(first))).token,
        (await mintLink(app.url, as(second))).token,
        (await mintLink(app.url, as(second))).token,
      ];
      assert.ok(tokens.every((token) => token !== ''));
      const ended = await call(app.url, 'DELETE', '/admin/v1/console/sessions', byKey);
      assert.deepEqual([ended.status, ended.body], [200, { ended: 2 }]);
      for (const token of tokens) assert.equal(await linkOpens(app.url, token), false);

      // The same through the sessions' own calls: an ended session makes no link, a link of before opens nothing.
      const sessions = new ConsoleSessions(store, { operatorKeys: [KEY] });
      const keyDigest = await (new OperatorKeys([KEY]).find(KEY) ?? assert.fail('the key')).digest();
      const open = await sessions.open(keyDigest);
      const before = await sessions.createLinkOfSession(open.id);
      assert.ok(before !== null, 'a live session makes links');
      assert.equal(await sessions.endAll(), 1);
      assert.equal(await sessions.createLinkOfSession(open.id), null, 'an ended session makes none');
      assert.equal(await sessions.openWithLink(before.token), null);
      // And a live one still does, whose link opens a session once.
      const live = await sessions.open(keyDigest);
      const link = await sessions.createLinkOfSession(live.id);
      assert.ok(link !== null);
      const opened = await sessions.openWithLink(link.token);
      assert.ok(opened !== null && (await sessions.find(opened.id)) !== null);
      assert.equal(await sessions.openWithLink(link.token), null, 'once');
    });

    void it(
      'with the end paused half-way, a link made or used meanwhile dies with it',
      { skip: kind.postgres === undefined ? 'PostgreSQL only: PGlite runs one statement at a time' : false },
      async () => {
        const { app } = started('app');
        const { url, schema } = kind.postgres ?? assert.fail('PostgreSQL');
        const holder = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
        const watcher = new pg.Client({ connectionString: url });
        await holder.connect();
        await watcher.connect();
        try {
          await endAll(app.url);
          const leaked = sessionOf(await signIn(app.url, { operator_key: KEY }));
          const held = sessionOf(await signIn(app.url, { operator_key: KEY }));
          const earlier = await mintLink(app.url, as(leaked));
          assert.equal(earlier.status, 201);

          // Another connection holds one session row, so the end stops at it, its transaction open.
          const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]
            ?.pid;
          await holder.query('BEGIN');
          await holder.query('SELECT 1 FROM console_sessions WHERE digest = $1 FOR UPDATE', [
            digest(held.id),
          ]);
          const ending = call(app.url, 'DELETE', '/admin/v1/console/sessions', byKey);
          const blockedBy = async (pid: number | undefined): Promise<number[]> =>
            (
              await watcher.query<{ pid: number }>(
                'SELECT pid FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))',
                [pid],
              )
            ).rows.map((row) => row.pid);
          const endPid = await until(
            async () => {
              const pids = await blockedBy(holderPid);
              return pids.length === 1 ? pids[0] : null;
            },
            { what: 'the end to wait on the held row', timeoutMs: 10_000 },
          );

          // Meanwhile the leaked session (it passes its check: the end has not committed) asks for a link, and
          // the link it made before is used. Each either waits for the end or is already answered.
          const settled = new Set<string>();
          const minting = mintLink(app.url, as(leaked)).finally(() => settled.add('mint'));
          const using = signIn(app.url, { sign_in_link: earlier.token }).finally(() => settled.add('use'));
          await until(async () => (await blockedBy(endPid)).length + settled.size === 2, {
            what: 'the link calls to wait for the end or be answered',
            timeoutMs: 10_000,
          });
          await holder.query('COMMIT');

          assert.deepEqual((await ending).body, { ended: 2 });
          const minted = await minting;
          assert.equal(await linkOpens(app.url, minted.token), false, `made: ${minted.status}`);
          const used = await using;
          assert.equal(used.status, 401, 'the link of before was voided by the end');
          for (const session of [leaked, held])
            assert.equal(
              (await call(app.url, 'GET', '/admin/session', { cookie: session.cookie })).status,
              401,
            );
        } finally {
          await holder.query('ROLLBACK').catch(() => undefined);
          await holder.end();
          await watcher.end();
        }
      },
    );
  },
);
