// Single sign-on over the shared SQL (issue 36). The mappings are kept as JSON text (a short list read whole
// with its settings). A started sign-in is taken by deleting it, so a browser that comes back twice (a
// replayed callback) finds nothing the second time, even when two instances race.
import type { JsonValue } from '../../audit/audit-diff.js';
import { recordAudit, SECRET_SET } from './audit-sql.js';
import type {
  DomainRole,
  GroupRole,
  PendingSsoSignIn,
  SsoSignInRecord,
  SsoSettings,
  SsoStore,
} from '../sso-store.js';
import { ROLES, type Role } from '../user-store.js';
import { lockPerson } from './member-rows.js';
import { newId } from '../../ids.js';
import type { UserRecord } from '../user-store.js';
import { bool, num, numOrNull, text, textOrNull, type Queryable, type Row, type Sql } from './sql.js';

const isRole = (value: unknown): value is Role =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** A stored mapping list; entries that are not of the shape (a hand edit) are left out. */
const mappings = <K extends 'group' | 'domain'>(
  column: string,
  key: K,
): Array<Record<K, string> & { role: Role }> => {
  const parsed: unknown = JSON.parse(column);
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const fields = entry as Record<string, unknown>;
    const value = fields[key];
    return typeof value === 'string' && isRole(fields.role)
      ? [{ [key]: value, role: fields.role } as Record<K, string> & { role: Role }]
      : [];
  });
};

const toSettings = (row: Row): SsoSettings => ({
  accountId: text(row, 'account_id'),
  name: text(row, 'name'),
  issuer: text(row, 'issuer'),
  clientId: text(row, 'client_id'),
  clientSecret: text(row, 'client_secret'),
  groupsClaim: text(row, 'groups_claim'),
  groupRoles: mappings(text(row, 'group_roles'), 'group') satisfies GroupRole[],
  domainRoles: mappings(text(row, 'domain_roles'), 'domain') satisfies DomainRole[],
  enabled: bool(row, 'enabled'),
  createdMs: num(row, 'created_ms'),
  updatedMs: num(row, 'updated_ms'),
});

const toUser = (row: Row): UserRecord => ({
  id: text(row, 'id'),
  email: text(row, 'email'),
  name: text(row, 'name'),
  passwordHash: textOrNull(row, 'password_hash'),
  createdMs: num(row, 'created_ms'),
  lastSignInMs: numOrNull(row, 'last_sign_in_ms'),
});

/** The user a sign-in is for (by issuer and subject, else by email, else made now) and whether it is new. */
const userOfSignIn = async (
  tx: Queryable,
  signIn: SsoSignInRecord,
): Promise<{ user: UserRecord; created: boolean }> => {
  const known = await tx.query(
    `SELECT u.* FROM sso_identities i JOIN users u ON u.id = i.user_id
     WHERE i.issuer = $1 AND i.subject = $2`,
    [signIn.issuer, signIn.subject],
  );
  if (known[0] !== undefined) return { user: toUser(known[0]), created: false };
  // Two first sign-ins at once: one makes the user, the other waits for it and finds it.
  const made = await tx.query(
    `INSERT INTO users (id, email, name, created_ms) VALUES ($1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING RETURNING *`,
    [newId(), signIn.email, signIn.name ?? '', signIn.nowMs],
  );
  const found = made[0] ?? (await tx.query('SELECT * FROM users WHERE email = $1', [signIn.email]))[0];
  if (found === undefined) throw new Error(`recordSsoSignIn: no user ${signIn.email} after making one`);
  return { user: toUser(found), created: made[0] !== undefined };
};

/** The settings as the audit log keeps them: the client secret only as a marker ("(changed)" when replaced). */
const ssoState = (settings: SsoSettings, secretReplaced = false): JsonValue => ({
  name: settings.name,
  issuer: settings.issuer,
  clientId: settings.clientId,
  clientSecret: secretReplaced ? '(changed)' : SECRET_SET,
  groupsClaim: settings.groupsClaim,
  groupRoles: settings.groupRoles.map((entry) => ({ ...entry })),
  domainRoles: settings.domainRoles.map((entry) => ({ ...entry })),
  enabled: settings.enabled,
});

/** Single sign-on operations of the store. */
export const ssoQueries = (db: Pick<Sql, 'query' | 'transaction'>): SsoStore => ({
  async getSsoSettings(accountId) {
    const rows = await db.query('SELECT * FROM sso_settings WHERE account_id = $1', [accountId]);
    return rows[0] === undefined ? null : toSettings(rows[0]);
  },
  async putSsoSettings(accountId, input, nowMs) {
    return db.transaction(async (tx) => {
      const previous = await tx.query('SELECT * FROM sso_settings WHERE account_id = $1 FOR UPDATE', [
        accountId,
      ]);
      const before = previous[0] === undefined ? null : toSettings(previous[0]);
      // One statement: a first save needs a secret; a later one without a secret keeps the stored secret.
      const rows = await tx.query(
        `WITH secret AS (
         SELECT COALESCE($5::text, (SELECT client_secret FROM sso_settings WHERE account_id = $1)) AS value
       )
       INSERT INTO sso_settings (account_id, name, issuer, client_id, client_secret, groups_claim,
         group_roles, domain_roles, enabled, created_ms, updated_ms)
       SELECT a.id, $2, $3, $4, secret.value, $6, $7, $8, $9, $10, $10 FROM accounts a, secret
       WHERE a.id = $1 AND secret.value IS NOT NULL
       ON CONFLICT (account_id) DO UPDATE SET name = EXCLUDED.name, issuer = EXCLUDED.issuer,
         client_id = EXCLUDED.client_id, client_secret = EXCLUDED.client_secret,
         groups_claim = EXCLUDED.groups_claim, group_roles = EXCLUDED.group_roles,
         domain_roles = EXCLUDED.domain_roles, enabled = EXCLUDED.enabled, updated_ms = EXCLUDED.updated_ms
       RETURNING *`,
        [
          accountId,
          input.name,
          input.issuer,
          input.clientId,
          input.clientSecret,
          input.groupsClaim,
          JSON.stringify(input.groupRoles),
          JSON.stringify(input.domainRoles),
          input.enabled,
          nowMs,
        ],
      );
      const after = rows[0] === undefined ? null : toSettings(rows[0]);
      if (after === null) return null;
      const [was, now] = [
        before === null ? null : ssoState(before),
        ssoState(after, input.clientSecret !== null && before !== null),
      ];
      // Settings saved as they were change nothing, and log nothing.
      if (JSON.stringify(was) !== JSON.stringify(now))
        await recordAudit(tx, {
          accountId,
          envId: null,
          subjectKind: 'sso',
          subjectId: accountId,
          action: before === null ? 'sso.settings_created' : 'sso.settings_changed',
          before: was,
          after: now,
        });
      return after;
    });
  },
  async deleteSsoSettings(accountId) {
    return db.transaction(async (tx) => {
      const rows = await tx.query('DELETE FROM sso_settings WHERE account_id = $1 RETURNING *', [accountId]);
      const deleted = rows[0];
      if (deleted === undefined) return false;
      await recordAudit(tx, {
        accountId,
        envId: null,
        subjectKind: 'sso',
        subjectId: accountId,
        action: 'sso.settings_deleted',
        before: ssoState(toSettings(deleted)),
        after: null,
      });
      return true;
    });
  },
  async listEnabledSso() {
    const rows = await db.query(
      'SELECT account_id, name FROM sso_settings WHERE enabled ORDER BY lower(name), account_id',
    );
    return rows.map((row) => ({ accountId: text(row, 'account_id'), name: text(row, 'name') }));
  },
  async startSsoSignIn(digest, signIn: PendingSsoSignIn) {
    await db.query(
      `INSERT INTO sso_sign_ins (digest, account_id, state, nonce, code_verifier, expires_ms)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [digest, signIn.accountId, signIn.state, signIn.nonce, signIn.codeVerifier, signIn.expiresMs],
    );
  },
  async takeSsoSignIn(digest, nowMs) {
    const rows = await db.query('DELETE FROM sso_sign_ins WHERE digest = $1 RETURNING *', [digest]);
    const row = rows[0];
    if (row === undefined || num(row, 'expires_ms') <= nowMs) return null;
    return {
      accountId: text(row, 'account_id'),
      state: text(row, 'state'),
      nonce: text(row, 'nonce'),
      codeVerifier: text(row, 'code_verifier'),
      expiresMs: num(row, 'expires_ms'),
    };
  },
  recordSsoSignIn(signIn) {
    return db.transaction(async (tx) => {
      const { user, created } = await userOfSignIn(tx, signIn);
      // Before the accounts are read and one is added: a reset link made meanwhile waits (member-rows.ts).
      await lockPerson(tx, user.id);
      // An invitation the person has not answered is no account of theirs: any account's admin can make one, and
      // it must not lock them out of the accounts they are in (with no password, they could not even decline).
      const elsewhere = await tx.query(
        `SELECT 1 FROM account_members m LEFT JOIN sso_settings s ON s.account_id = m.account_id
         WHERE m.user_id = $1 AND m.account_id <> $2 AND NOT m.pending AND (s.issuer IS NULL OR s.issuer <> $3)
         LIMIT 1`,
        [user.id, signIn.accountId, signIn.issuer],
      );
      if (elsewhere.length > 0) return { refused: 'other_accounts' as const };
      await tx.query(
        `INSERT INTO sso_identities (issuer, subject, user_id, created_ms, last_sign_in_ms)
         VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (issuer, subject) DO UPDATE SET last_sign_in_ms = EXCLUDED.last_sign_in_ms`,
        [signIn.issuer, signIn.subject, user.id, signIn.nowMs],
      );
      const before = await tx.query(
        'SELECT role, pending FROM account_members WHERE account_id = $1 AND user_id = $2 FOR UPDATE',
        [signIn.accountId, user.id],
      );
      // A pending invitation is no membership: the provider's assertion is the person's consent, and makes it one.
      const wasPending = before[0]?.pending === true;
      const roleBefore = before[0] === undefined || wasPending ? null : text(before[0], 'role');
      // The mappings never leave an account without an admin: its last one stays admin (as setMemberRole keeps
      // them), whatever their groups now say.
      const admins = await tx.query(
        `SELECT 1 FROM account_members WHERE account_id = $1 AND role = 'admin' AND user_id <> $2 AND NOT pending
         FOR UPDATE`,
        [signIn.accountId, user.id],
      );
      const role = roleBefore === 'admin' && admins.length === 0 ? 'admin' : signIn.role;
      await tx.query(
        `INSERT INTO account_members (account_id, user_id, role, created_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, user_id) DO UPDATE SET role = EXCLUDED.role, pending = false`,
        [signIn.accountId, user.id, role, signIn.nowMs],
      );
      // The invitation is answered: its join link opens nothing now.
      if (wasPending)
        await tx.query(
          `DELETE FROM user_links WHERE user_id = $1 AND account_id = $2 AND kind = 'join' AND used_ms IS NULL`,
          [user.id, signIn.accountId],
        );
      // A reset link made for the person was checked against the accounts they were in then: void it.
      if (roleBefore === null)
        await tx.query(`DELETE FROM user_links WHERE user_id = $1 AND kind = 'reset' AND used_ms IS NULL`, [
          user.id,
        ]);
      const previousRole = roleBefore !== null && isRole(roleBefore) ? roleBefore : null;
      // What the sign-in changed in the account (a member made, a role the mappings moved) is the person's own
      // doing, at the address they came from; a sign-in that changed nothing logs nothing.
      if (previousRole !== role) {
        const member = (role: Role) => ({
          userId: user.id,
          email: user.email,
          name: user.name,
          role,
          active: true,
        });
        await recordAudit(tx, {
          accountId: signIn.accountId,
          envId: null,
          subjectKind: 'user',
          subjectId: user.id,
          action: previousRole === null ? 'user.joined_by_sso' : 'user.role_changed',
          before: previousRole === null ? null : member(previousRole),
          after: member(role),
          details: { issuer: signIn.issuer, userCreated: created },
          actor: { kind: 'user', id: user.id, label: user.email, address: signIn.address },
        });
      }
      return { user, created, roleBefore: previousRole, role };
    });
  },
  async purgeSsoSignIns(nowMs) {
    const rows = await db.query('DELETE FROM sso_sign_ins WHERE expires_ms <= $1 RETURNING account_id', [
      nowMs,
    ]);
    return rows.length;
  },
});
