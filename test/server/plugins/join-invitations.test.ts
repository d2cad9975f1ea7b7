// Consent to join (issue 36, security review), through the routes on every store kind: an invitation answers
// the same shape for a new email and for a person who already has a user (no admin learns which); the pending
// member shows nothing of the person and is refused on the account's routes like a non-member (404); the
// person, signed in as themselves, reads and answers their join link (another person 403, no session 401, the
// operator key 403), and each answer writes one audit entry under their name.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import { addPerson, call, linkToken, type Caller, type Session } from '../people-support.js';
import {
  checkoutCampaign,
  describeOnEveryStoreWith,
  seedEnvironment,
  startApp,
  type Running,
  type SeededEnvironment,
} from '../support.js';

const KEY = 'operator-key-for-the-join-invitation-tests';
const PASSWORD = 'a long enough password';

interface Fixture {
  store: Store;
  server: Running;
  env: SeededEnvironment;
  /** An admin of the account (a person's session). */
  admin: Session;
}

/** The keys of an answer and of its objects, to compare shapes. */
const shape = (body: Record<string, unknown>): string[] =>
  Object.entries(body).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? Object.keys(value).map((inner) => `${key}.${inner}`)
      : [key],
  );

describeOnEveryStoreWith<Fixture>(
  'join invitations',
  {
    start: async (store) => {
      const server = await startApp(store, { operatorKeys: [KEY] });
      const env = await seedEnvironment(store, [checkoutCampaign()]);
      const { session } = await addPerson(server, KEY, env.accountId, 'boss@example.com', 'admin');
      return { store, server, env, admin: session };
    },
    stop: async ({ server }) => server.close(),
  },
  (_kind, started) => {
    const fixture = (): Fixture => started('store');
    const as = (caller: Caller, method: string, path: string, body?: unknown) =>
      call(fixture().server, method, path, caller, body);
    const users = () => `/admin/v1/accounts/${fixture().env.accountId}/users`;
    /** A person with a password, member of an account of their own; their session. */
    const existing = async (email: string): Promise<Session> => {
      const home = await fixture().store.createAccount(`Home of ${email}`);
      return (await addPerson(fixture().server, KEY, home.id, email, 'admin', PASSWORD)).session;
    };
    const auditOf = async (userId: string) =>
      (
        await fixture().store.listAudit(
          { accountId: fixture().env.accountId, subjectId: userId },
          { limit: 50 },
        )
      )
        .map((e) => ({ action: e.action, actor: e.actor.label }))
        .reverse();

    void it('answers the same shape for a new email and an existing person; the pending one shows nothing', async () => {
      const { admin } = fixture();
      await existing('known@example.com');
      const fresh = await as({ session: admin }, 'POST', users(), {
        email: 'fresh@example.com',
        role: 'editor',
      });
      const known = await as({ session: admin }, 'POST', users(), {
        email: 'Known@example.com',
        role: 'editor',
      });
      assert.deepEqual([fresh.status, known.status], [201, 201]);
      assert.deepEqual(shape(known.body).sort(), shape(fresh.body).sort());
      const strip = (body: Record<string, unknown>) => {
        const {
          id: _id,
          email: _email,
          created_at: _created,
          ...rest
        } = body.user as Record<string, unknown>;
        return rest;
      };
      assert.deepEqual(strip(known.body), strip(fresh.body));
      assert.deepEqual(strip(known.body), { name: '', role: 'editor', active: false, last_sign_in_at: null });
      assert.equal((known.body.user as { email: string }).email, 'known@example.com');
      // One link for both: the same fragment, prefix and length, so that it says nothing of the person.
      const paths = [fresh.body, known.body].map((body) => (body.link as { path: string }).path);
      for (const path of paths) assert.match(path, /^\/admin\/#invite=fci_[A-Za-z0-9_-]{43}$/);
      assert.equal(paths[0]?.length, paths[1]?.length);
      // Nor does the audit entry an admin reads.
      const invitedEntries = await fixture().store.listAudit(
        { accountId: fixture().env.accountId, action: 'user.invited' },
        { limit: 50 },
      );
      const details = invitedEntries
        .filter((e) => [fresh, known].some((a) => (a.body.user as { id: string }).id === e.subjectId))
        .map((e) => e.details);
      assert.equal(details.length, 2);
      assert.deepEqual(details[0], details[1]);
      // Whoever opens the link learns which screen it leads to (no session needed: a new person has none).
      const screens = [];
      for (const path of paths)
        screens.push(
          (await as(null, 'POST', '/admin/session/invitation/peek', { token: linkToken(path) })).body.screen,
        );
      assert.deepEqual(screens, ['choose_password', 'join']);
      const unknown = await as(null, 'POST', '/admin/session/invitation/peek', {
        token: `fci_${'A'.repeat(43)}`,
      });
      assert.equal(unknown.status, 404);
      // The list shows the pending member as it shows the new one: email, role, not active.
      const listed = await as({ session: admin }, 'GET', users());
      const row = (listed.body.items as Array<Record<string, unknown>>).find(
        (u) => u.email === 'known@example.com',
      );
      assert.deepEqual([row?.name, row?.active, row?.last_sign_in_at], ['', false, null]);
      // A reset link is refused alike for both: they have not answered.
      for (const body of [fresh.body, known.body]) {
        const id = (body.user as { id: string }).id;
        assert.equal((await as({ session: admin }, 'POST', `${users()}/${id}/reset-link`)).status, 409);
      }
    });

    void it("refuses a person's reset link to an admin of only one of their accounts (403), once they joined", async () => {
      const { admin } = fixture();
      const kim = await existing('kim@example.com');
      const invited = await as({ session: admin }, 'POST', users(), {
        email: 'kim@example.com',
        role: 'viewer',
      });
      const kimId = (invited.body.user as { id: string }).id;
      const token = linkToken((invited.body.link as { path: string }).path);
      const joined = await as({ session: kim }, 'POST', '/admin/v1/console/join', { token, answer: 'join' });
      assert.equal(joined.status, 200, joined.text);
      const refused = await as({ session: admin }, 'POST', `${users()}/${kimId}/reset-link`);
      assert.deepEqual([refused.status, refused.body.code], [403, 'insufficient_role']);
      assert.match(String(refused.body.message), /admin role in every account of this person/);
      assert.equal((await as({ bearer: KEY }, 'POST', `${users()}/${kimId}/reset-link`)).status, 201);
    });

    void it("refuses a pending member on the account's routes as a non-member", async () => {
      const { admin, env } = fixture();
      const person = await existing('pending@example.com');
      const invited = await as({ session: admin }, 'POST', users(), {
        email: 'pending@example.com',
        role: 'admin',
      });
      assert.equal(invited.status, 201);
      const caller = { session: person };
      for (const [method, path] of [
        ['GET', `/admin/v1/accounts/${env.accountId}/environments`],
        ['GET', `/admin/v1/environments/${env.envId}/campaigns`],
        ['GET', users()],
        ['GET', `/admin/v1/accounts/${env.accountId}/audit`],
      ] as const) {
        const answer = await as(caller, method, path);
        assert.equal(answer.status, 404, `${method} ${path}: ${answer.text}`);
      }
      const accounts = await as(caller, 'GET', '/admin/v1/accounts');
      assert.ok(!(accounts.body.items as Array<{ id: string }>).some((a) => a.id === env.accountId));
      const session = await as(caller, 'GET', '/admin/session');
      const mine = (session.body.user as { accounts: Array<{ account_id: string }> }).accounts;
      assert.ok(!mine.some((a) => a.account_id === env.accountId));
    });

    void it('lets the invited person peek, join or decline; another person 403, no session 401', async () => {
      const { admin, env } = fixture();
      const ann = await existing('ann@example.com');
      const other = await existing('other@example.com');
      const invited = await as({ session: admin }, 'POST', users(), {
        email: 'ann@example.com',
        role: 'viewer',
      });
      const token = linkToken((invited.body.link as { path: string }).path);
      const annId = (invited.body.user as { id: string }).id;
      const peek = '/admin/v1/console/join/peek';
      const join = '/admin/v1/console/join';

      assert.equal((await as(null, 'POST', peek, { token })).status, 401);
      assert.equal((await as({ bearer: KEY }, 'POST', peek, { token })).status, 403);
      const theirs = await as({ session: other }, 'POST', peek, { token });
      assert.equal(theirs.status, 403);
      assert.match(String(theirs.body.message), /another person: sign out/);
      assert.equal((await as({ session: other }, 'POST', join, { token, answer: 'join' })).status, 403);
      assert.equal((await as(null, 'POST', join, { token, answer: 'join' })).status, 401);
      assert.equal((await as({ session: ann }, 'POST', peek, { token: 'fci_nope' })).status, 404);

      const seen = await as({ session: ann }, 'POST', peek, { token });
      assert.equal(seen.status, 200, seen.text);
      assert.deepEqual([seen.body.account_id, seen.body.role], [env.accountId, 'viewer']);
      assert.equal(typeof seen.body.account_name, 'string');
      assert.deepEqual(await auditOf(annId), [{ action: 'user.invited', actor: 'boss@example.com' }]);

      const joined = await as({ session: ann }, 'POST', join, { token, answer: 'join' });
      assert.deepEqual([joined.status, joined.body.answer], [200, 'join']);
      assert.equal(
        (await as({ session: ann }, 'GET', `/admin/v1/accounts/${env.accountId}/environments`)).status,
        200,
      );
      assert.equal((await as({ session: ann }, 'POST', join, { token, answer: 'decline' })).status, 410);
      assert.equal((await as({ session: ann }, 'POST', peek, { token })).status, 410);
      assert.deepEqual((await auditOf(annId)).slice(1), [
        { action: 'user.invitation_accepted', actor: 'ann@example.com' },
      ]);

      // Declined: the pending membership is gone, and the link with it.
      const bea = await existing('bea@example.com');
      const asked = await as({ session: admin }, 'POST', users(), {
        email: 'bea@example.com',
        role: 'editor',
      });
      const beaToken = linkToken((asked.body.link as { path: string }).path);
      const beaId = (asked.body.user as { id: string }).id;
      const declined = await as({ session: bea }, 'POST', join, { token: beaToken, answer: 'decline' });
      assert.equal(declined.status, 200, declined.text);
      const members = (await as({ session: admin }, 'GET', users())).body.items as Array<{ id: string }>;
      assert.ok(!members.some((m) => m.id === beaId));
      assert.deepEqual((await auditOf(beaId)).slice(1), [
        { action: 'user.invitation_declined', actor: 'bea@example.com' },
      ]);

      // Revoked by an admin: the link opens nothing.
      const cy = await existing('cy@example.com');
      const revokedInvite = await as({ session: admin }, 'POST', users(), {
        email: 'cy@example.com',
        role: 'editor',
      });
      const cyId = (revokedInvite.body.user as { id: string }).id;
      assert.equal((await as({ session: admin }, 'DELETE', `${users()}/${cyId}`)).status, 204);
      const revokedToken = linkToken((revokedInvite.body.link as { path: string }).path);
      assert.equal(
        (await as({ session: cy }, 'POST', join, { token: revokedToken, answer: 'join' })).status,
        404,
      );
      assert.deepEqual(
        (await auditOf(cyId)).map((e) => e.action),
        ['user.invited', 'user.removed'],
      );
    });
  },
);
