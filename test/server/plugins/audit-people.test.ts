// The audit entries of people (issue 36), on every store kind: an invitation, its acceptance by the person
// (named by their link, at their address), a role changed by an admin, a reset link and its use, a removal,
// and refused sign-ins (a wrong password, an unknown email, a link never made). Each change writes exactly one
// entry with its diff; a refused change and a role set to what it was write none; no password, hash or link
// token ever enters an entry.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Actor } from '../../../server/src/audit/actor.js';
import { auditDiff } from '../../../server/src/audit/audit-diff.js';
import { operatorKeyFingerprint } from '../../../server/src/auth/operator-auth.js';
import { OperatorKeys } from '../../../server/src/auth/operator-keys.js';
import type { AuditEntry } from '../../../server/src/store/audit-store.js';
import type { Store } from '../../../server/src/store/store.js';
import { addPerson, call, linkToken, sessionOf, type Caller } from '../people-support.js';
import {
  checkoutCampaign,
  describeOnEveryStoreWith,
  seedEnvironment,
  startApp,
  type Running,
  type SeededEnvironment,
} from '../support.js';

const KEY = 'operator-key-for-the-people-audit-tests-0123';
const ADDRESS = '127.0.0.1';
const PASSWORD = 'a long enough password';

interface Fixture {
  store: Store;
  server: Running;
  env: SeededEnvironment;
  operator: Actor;
}

describeOnEveryStoreWith<Fixture>(
  'audit entries of people',
  {
    start: async (store) => {
      const server = await startApp(store, { operatorKeys: [KEY] });
      const env = await seedEnvironment(store, [checkoutCampaign()]);
      const key = new OperatorKeys([KEY]).find(KEY);
      assert.ok(key !== null);
      const fingerprint = await operatorKeyFingerprint(key);
      const operator: Actor = {
        kind: 'operator_key',
        id: fingerprint,
        label: `operator key ${fingerprint}`,
        address: ADDRESS,
      };
      return { store, server, env, operator };
    },
    stop: async ({ server }) => server.close(),
  },
  (_kind, started) => {
    const fixture = (): Fixture => started('store');
    const as = (caller: Caller, method: string, path: string, body?: unknown) =>
      call(fixture().server, method, path, caller, body);

    /** Runs `change` and answers what it answered and the entries it wrote. */
    const entriesOf = async <T>(change: () => Promise<T>): Promise<{ result: T; entries: AuditEntry[] }> => {
      const { store } = fixture();
      const last = (await store.listAudit({}, { limit: 1 }))[0]?.seq ?? 0;
      const result = await change();
      return { result, entries: await store.listAuditAscending({}, { afterSeq: last, limit: 100 }) };
    };

    const only = (entries: AuditEntry[]): AuditEntry => {
      assert.equal(entries.length, 1, JSON.stringify(entries.map((e) => e.action)));
      const [entry] = entries;
      assert.ok(entry !== undefined);
      return entry;
    };

    void it('logs an invitation, its acceptance by the person, a role change, a reset and a removal', async () => {
      const { env, operator } = fixture();
      const users = `/admin/v1/accounts/${env.accountId}/users`;
      const admin = await addPerson(fixture().server, KEY, env.accountId, 'boss@example.com', 'admin');
      const adminActor: Actor = {
        kind: 'user',
        id: admin.userId,
        label: 'boss@example.com',
        address: ADDRESS,
      };
      const asAdmin: Caller = { session: admin.session };

      const invited = await entriesOf(() =>
        as({ bearer: KEY }, 'POST', users, { email: 'Ada@Example.com', role: 'viewer' }),
      );
      assert.equal(invited.result.status, 201, invited.result.text);
      const userId = (invited.result.body.user as { id: string }).id;
      const invitation = only(invited.entries);
      assert.deepEqual(
        [invitation.action, invitation.subjectKind, invitation.subjectId, invitation.accountId],
        ['user.invited', 'user', userId, env.accountId],
      );
      assert.deepEqual(invitation.actor, operator);
      assert.deepEqual(auditDiff(invitation.before, invitation.after), [
        {
          path: '',
          before: null,
          after: { userId, email: 'ada@example.com', name: '', role: 'viewer', active: false },
        },
      ]);
      const token = linkToken((invited.result.body.link as { path: string }).path);
      assert.doesNotMatch(JSON.stringify(invited.entries), new RegExp(token));

      const accepted = await entriesOf(() =>
        as(null, 'POST', '/admin/session/invitation', { token, password: PASSWORD, name: 'Ada' }),
      );
      const ada = sessionOf(accepted.result);
      const joined = only(accepted.entries);
      assert.deepEqual(
        [joined.action, joined.subjectId, joined.accountId],
        ['user.invitation_accepted', userId, env.accountId],
      );
      // Named by the link: the person, at the address the request came from.
      assert.deepEqual(joined.actor, {
        kind: 'user',
        id: userId,
        label: 'ada@example.com',
        address: ADDRESS,
      });
      assert.deepEqual(auditDiff(joined.before, joined.after), [
        { path: 'name', before: '', after: 'Ada' },
        { path: 'password', before: null, after: '(set)' },
      ]);
      assert.doesNotMatch(JSON.stringify(joined), new RegExp(PASSWORD));
      assert.doesNotMatch(JSON.stringify(joined), /argon2/);

      const promoted = await entriesOf(() => as(asAdmin, 'PATCH', `${users}/${userId}`, { role: 'editor' }));
      assert.equal(promoted.result.status, 200, promoted.result.text);
      const role = only(promoted.entries);
      assert.equal(role.action, 'user.role_changed');
      assert.deepEqual(role.actor, adminActor);
      assert.deepEqual(auditDiff(role.before, role.after), [
        { path: 'role', before: 'viewer', after: 'editor' },
      ]);
      const same = await entriesOf(() => as(asAdmin, 'PATCH', `${users}/${userId}`, { role: 'editor' }));
      assert.equal(same.result.status, 200);
      assert.deepEqual(same.entries, [], 'a role set to what it was logs nothing');

      const link = await entriesOf(() => as(asAdmin, 'POST', `${users}/${userId}/reset-link`));
      assert.equal(link.result.status, 201, link.result.text);
      const made = only(link.entries);
      assert.deepEqual(
        [made.action, made.subjectId, made.accountId, made.before, made.after],
        ['user.reset_link_created', userId, env.accountId, null, null],
      );
      assert.deepEqual(made.actor, adminActor);
      assert.deepEqual(made.details, { expiresAt: link.result.body.expires_at });
      const resetToken = linkToken(link.result.body.path);
      assert.doesNotMatch(JSON.stringify(made), new RegExp(resetToken));

      const reset = await entriesOf(() =>
        as(null, 'POST', '/admin/session/password-reset', { token: resetToken, password: `${PASSWORD}!` }),
      );
      assert.equal(reset.result.status, 200, reset.result.text);
      const changed = only(reset.entries);
      assert.deepEqual(
        [changed.action, changed.actor.kind, changed.actor.id, changed.accountId],
        ['user.password_reset', 'user', userId, env.accountId],
      );
      assert.deepEqual(auditDiff(changed.before, changed.after), [
        { path: 'password', before: '(set)', after: '(changed)' },
      ]);

      // The last admin cannot be demoted: a refused change logs nothing.
      const refused = await entriesOf(() =>
        as({ bearer: KEY }, 'PATCH', `${users}/${admin.userId}`, { role: 'viewer' }),
      );
      assert.equal(refused.result.status, 409);
      assert.deepEqual(refused.entries, []);

      const removed = await entriesOf(() => as(asAdmin, 'DELETE', `${users}/${userId}`));
      assert.equal(removed.result.status, 204);
      const gone = only(removed.entries);
      assert.equal(gone.action, 'user.removed');
      assert.deepEqual(gone.actor, adminActor);
      assert.equal(gone.after, null);
      assert.deepEqual(gone.details, { sessionsEnded: 1 });
      // Her session ended with her last membership.
      assert.equal((await as({ session: ada }, 'GET', '/admin/session')).status, 401);
    });

    void it('logs refused sign-ins: a wrong password, an unknown email, a link never made', async () => {
      const { env } = fixture();
      await addPerson(fixture().server, KEY, env.accountId, 'grace@example.com', 'viewer');
      const anonymous: Actor = { kind: 'anonymous', id: null, label: 'anonymous', address: ADDRESS };
      for (const email of ['Grace@example.com', 'nobody@example.com']) {
        const wrong = `not ${PASSWORD}`;
        const failed = await entriesOf(() => as(null, 'POST', '/admin/session', { email, password: wrong }));
        assert.equal(failed.result.status, 401);
        const entry = only(failed.entries);
        assert.equal(entry.action, 'console.sign_in_failed');
        assert.deepEqual(entry.actor, anonymous);
        assert.deepEqual(entry.details, { method: 'password', email: email.toLowerCase() });
        assert.doesNotMatch(JSON.stringify(entry), new RegExp(wrong));
      }
      const never = await entriesOf(() =>
        as(null, 'POST', '/admin/session/invitation', { token: `fci_${'A'.repeat(43)}`, password: PASSWORD }),
      );
      assert.equal(never.result.status, 404);
      assert.deepEqual(only(never.entries).details, { method: 'invitation_link', why: 'not_found' });
      // A password that breaks the rule is no sign-in attempt: nothing logged.
      const short = await entriesOf(() =>
        as(null, 'POST', '/admin/session/invitation', { token: `fci_${'A'.repeat(43)}`, password: 'short' }),
      );
      assert.equal(short.result.status, 400);
      assert.deepEqual(short.entries, []);
    });
  },
);
