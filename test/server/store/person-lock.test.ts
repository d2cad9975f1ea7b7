// A reset link and a change of the person's accounts never cross (issue 36's second review): each takes the
// person's row lock first (member-rows.ts lockPerson), so a reset link made while a single sign-on adds the person
// to another account waits for it, then sees that account and is refused; and a single sign-on waits for a reset
// link being made. PostgreSQL only: another connection holds the lock half-way, as the other transaction would.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import pg from 'pg';
import { NotTheirAdminError } from '../../../server/src/store/user-store.js';
import type { Store } from '../../../server/src/store/store.js';
import { until } from '../../support/until.js';
import { describeOnEveryStoreWith, seedEnvironment } from '../support.js';

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const token = (): Uint8Array => randomBytes(32);
const POSTGRES_ONLY = 'PostgreSQL only: PGlite runs one statement at a time';

describeOnEveryStoreWith(
  "a person's accounts and their reset links",
  {
    start: async (store: Store) => ({ store, ...(await seedEnvironment(store, [])) }),
    stop: () => Promise.resolve(),
  },
  (kind, started) => {
    /** Two connections to the run's schema: one holds the person's lock, one watches who waits on it. */
    const connections = async () => {
      const { url, schema } = kind.postgres ?? assert.fail('PostgreSQL');
      const holder = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
      const watcher = new pg.Client({ connectionString: url });
      await holder.connect();
      await watcher.connect();
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
      /** Resolves once a statement of another connection waits on the holder. */
      const someoneWaits = (what: string) =>
        until(
          async () =>
            (
              await watcher.query(
                'SELECT pid FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))',
                [holderPid],
              )
            ).rows.length === 1,
          { what, timeoutMs: 10_000 },
        );
      const close = async () => {
        await holder.end();
        await watcher.end();
      };
      return { holder, someoneWaits, close };
    };

    /** `who` signs in to `accountId` through single sign-on, as an editor; their user id. */
    const signsIn = async (store: Store, accountId: string, who: string, nowMs = NOW): Promise<string> => {
      const signedIn = await store.recordSsoSignIn({
        accountId,
        issuer: 'https://id.example.com/realms/acme',
        subject: who,
        email: `${who}@example.com`,
        name: who,
        role: 'editor',
        nowMs,
        address: '203.0.113.9',
      });
      assert.ok(!('refused' in signedIn));
      return signedIn.user.id;
    };

    void it(
      'a reset link made while the person joins another account waits, then is refused',
      {
        skip: kind.postgres === undefined ? POSTGRES_ONLY : false,
      },
      async () => {
        const { store, accountId } = started('store');
        // Ivy is this account's admin; Kim an editor of it through single sign-on.
        const ivyLink = token();
        await store.inviteUser({
          accountId,
          email: 'ivy@example.com',
          role: 'admin',
          linkDigest: ivyLink,
          nowMs: NOW,
          expiresMs: NOW + HOUR,
        });
        const ivy = await store.useUserLink({
          linkDigest: ivyLink,
          kind: 'invitation',
          passwordHash: 'ivy-hash',
          name: 'Ivy',
          sessionDigest: token(),
          nowMs: NOW,
          sessionExpiresMs: NOW + HOUR,
        });
        assert.ok(ivy.kind === 'opened');
        const kim = await signsIn(store, accountId, 'kim');
        const other = await store.createAccount('Other');
        const { holder, someoneWaits, close } = await connections();
        try {
          // Half-way through a single sign-on to the other account: the person locked, the membership added.
          await holder.query('BEGIN');
          await holder.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [kim]);
          await holder.query(
            `INSERT INTO account_members (account_id, user_id, role, created_ms) VALUES ($1, $2, 'viewer', $3)`,
            [other.id, kim, NOW],
          );
          await holder.query(
            `DELETE FROM user_links WHERE user_id = $1 AND kind = 'reset' AND used_ms IS NULL`,
            [kim],
          );
          const late = token();
          const making = store.createResetLink(accountId, kim, late, NOW, NOW + HOUR, ivy.after.id);
          // Settled either way, so that an early answer is read below rather than left unhandled.
          const made = making.then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
          await someoneWaits('the reset link to wait for the person');
          await holder.query('COMMIT');
          const answer = await made;
          assert.ok('error' in answer && answer.error instanceof NotTheirAdminError, JSON.stringify(answer));
          const use = await store.useUserLink({
            linkDigest: late,
            kind: 'reset',
            passwordHash: 'taken',
            name: undefined,
            sessionDigest: token(),
            nowMs: NOW,
            sessionExpiresMs: NOW + HOUR,
          });
          assert.deepEqual(use, { kind: 'refused', why: 'unknown' });
        } finally {
          await holder.query('ROLLBACK').catch(() => undefined);
          await close();
        }
      },
    );

    void it(
      'a single sign-on waits for a reset link being made for the person',
      {
        skip: kind.postgres === undefined ? POSTGRES_ONLY : false,
      },
      async () => {
        const { store } = started('store');
        const home = await store.createAccount('Home of Lou');
        const lou = await signsIn(store, home.id, 'lou');
        const { holder, someoneWaits, close } = await connections();
        try {
          // Half-way through making a reset link: the person locked.
          await holder.query('BEGIN');
          await holder.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [lou]);
          const signingIn = signsIn(store, home.id, 'lou', NOW + 1);
          const signedIn = signingIn.then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
          await someoneWaits('the single sign-on to wait for the person');
          await holder.query('COMMIT');
          assert.deepEqual(await signedIn, { value: lou });
        } finally {
          await holder.query('ROLLBACK').catch(() => undefined);
          await close();
        }
      },
    );
  },
);
