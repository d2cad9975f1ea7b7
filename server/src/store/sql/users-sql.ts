// Users, memberships and user links over the shared SQL (store/user-store.ts). Each change is one
// transaction that reads the rows it changes first (kept as `before` for the audit log). The last-admin rule
// is checked with the account's membership rows locked (FOR UPDATE), so two admins demoting each other at once
// cannot both pass; a link is spent by the UPDATE that finds it unused, so two uses of one link cannot both
// open a session, whatever the instance.
import { InputError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { JoinLinkStore } from '../join-link-store.js';
import { AlreadyMemberError, LastAdminError, type UserStore } from '../user-store.js';
import { recordAudit } from './audit-sql.js';
import { memberState } from './audit-states.js';
import { userLinkQueries } from './user-links-sql.js';
import { toUser } from './user-rows.js';
import { MEMBER_COLUMNS, memberIn, roleOf, toMember } from './member-rows.js';
import { joinLinkQueries } from './join-links-sql.js';
import { text, type Queryable, type Sql } from './sql.js';

/** Locks the account's memberships and counts its admins other than `userId` (a pending one manages nothing). */
const otherAdmins = async (tx: Queryable, accountId: string, userId: string): Promise<number> => {
  const rows = await tx.query(
    'SELECT user_id, role, pending FROM account_members WHERE account_id = $1 FOR UPDATE',
    [accountId],
  );
  return rows.filter(
    (row) => text(row, 'role') === 'admin' && text(row, 'user_id') !== userId && row.pending !== true,
  ).length;
};

// To sign in, pending memberships count: a person invited elsewhere signs in to answer the invitation.
const inSomeAccount = async (tx: Queryable, userId: string): Promise<boolean> =>
  (await tx.query('SELECT 1 FROM account_members WHERE user_id = $1 LIMIT 1', [userId])).length > 0;

// To stay signed in, they do not: a pending membership grants nothing, and any account's admin can make one.
const inSomeActiveAccount = async (tx: Queryable, userId: string): Promise<boolean> =>
  (await tx.query('SELECT 1 FROM account_members WHERE user_id = $1 AND NOT pending LIMIT 1', [userId]))
    .length > 0;

/** User operations of the store. */
export const userQueries = (db: Pick<Sql, 'query' | 'transaction'>): UserStore & JoinLinkStore => ({
  async inviteUser({ accountId, email, role, linkDigest, nowMs, expiresMs }) {
    const lower = email.toLowerCase();
    return db.transaction(async (tx) => {
      const account = await tx.query('SELECT id FROM accounts WHERE id = $1', [accountId]);
      if (account.length === 0)
        throw new InputError(
          `No account has the id "${accountId.slice(0, 64)}": use an id that \`feature-server account list\` prints.`,
        );
      // ON CONFLICT: two invitations of one new email at once make one user.
      await tx.query(
        `INSERT INTO users (id, email, name, created_ms) VALUES ($1, $2, '', $3) ON CONFLICT (email) DO NOTHING`,
        [newId(), lower, nowMs],
      );
      const userRow = (await tx.query('SELECT * FROM users WHERE email = $1 FOR UPDATE', [lower]))[0];
      if (userRow === undefined) throw new Error('inviteUser: the user row vanished');
      const user = toUser(userRow);
      const before = await memberIn(tx, accountId, user.id);
      if (before !== null && before.active) throw new AlreadyMemberError(lower);
      // A link that sets a password is given only for a person who has no way to sign in yet and belongs to no
      // other account: otherwise an admin of this account could take the person over in accounts they are no
      // admin of (through a password set by the link, or a person who signs in through another account's
      // single sign-on). Anyone else is asked: a pending membership (which grants nothing and shows nothing of
      // them) and a join link they answer signed in as themselves. The member answered has the same shape and
      // values either way (name, sign-in times and activity stay the person's until they join).
      const elsewhere = await tx.query(
        `SELECT 1 FROM account_members WHERE user_id = $1 AND account_id <> $2 AND NOT pending
         UNION ALL SELECT 1 FROM sso_identities WHERE user_id = $1 LIMIT 1`,
        [user.id, accountId],
      );
      const linkKind = user.passwordHash === null && elsewhere.length === 0 ? 'invitation' : 'join';
      await tx.query(
        `INSERT INTO account_members (account_id, user_id, role, created_ms, pending) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id, user_id) DO UPDATE SET role = EXCLUDED.role, pending = EXCLUDED.pending`,
        [accountId, user.id, role, nowMs, linkKind === 'join'],
      );
      // Invited again: only the newest link opens the invitation (an older one may have reached someone else).
      await tx.query(
        `DELETE FROM user_links WHERE user_id = $1 AND account_id = $2 AND kind IN ('invitation', 'join')
         AND used_ms IS NULL`,
        [user.id, accountId],
      );
      await tx.query(
        `INSERT INTO user_links (digest, kind, user_id, account_id, created_ms, expires_ms)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [linkDigest, linkKind, user.id, accountId, nowMs, expiresMs],
      );
      const after = await memberIn(tx, accountId, user.id);
      if (after === null) throw new Error('inviteUser: the membership row vanished');
      await recordAudit(tx, {
        accountId,
        envId: null,
        subjectKind: 'user',
        subjectId: user.id,
        action: 'user.invited',
        before: before === null ? null : memberState(before),
        after: memberState(after),
        // No kind of link here: admins read this log, and the kind would say whether the email had a user.
      });
      return { user, before, after, linkKind };
    });
  },
  async findUserByEmail(email) {
    const rows = await db.query('SELECT * FROM users WHERE email = $1', [email.toLowerCase()]);
    const row = rows[0];
    return row === undefined ? null : toUser(row);
  },
  async getUser(userId) {
    const rows = await db.query('SELECT * FROM users WHERE id = $1', [userId]);
    const row = rows[0];
    return row === undefined ? null : toUser(row);
  },
  async listMembers(accountId) {
    const rows = await db.query(
      `SELECT ${MEMBER_COLUMNS} FROM account_members m JOIN users u ON u.id = m.user_id
       WHERE m.account_id = $1 ORDER BY u.email`,
      [accountId],
    );
    return rows.map(toMember);
  },
  getMember: (accountId, userId) => memberIn(db, accountId, userId),
  async membershipsOf(userId) {
    const rows = await db.query(
      'SELECT account_id, role FROM account_members WHERE user_id = $1 AND NOT pending ORDER BY account_id',
      [userId],
    );
    return rows.map((row) => ({ accountId: text(row, 'account_id'), role: roleOf(row) }));
  },
  async setMemberRole(accountId, userId, role) {
    return db.transaction(async (tx) => {
      const admins = await otherAdmins(tx, accountId, userId);
      const before = await memberIn(tx, accountId, userId);
      if (before === null) return null;
      if (!before.pending && before.role === 'admin' && role !== 'admin' && admins === 0)
        throw new LastAdminError(accountId);
      const after = { ...before, role };
      // A role set to what it was changes nothing, and logs nothing.
      if (before.role === role) return { before, after };
      await tx.query('UPDATE account_members SET role = $3 WHERE account_id = $1 AND user_id = $2', [
        accountId,
        userId,
        role,
      ]);
      await recordAudit(tx, {
        accountId,
        envId: null,
        subjectKind: 'user',
        subjectId: userId,
        action: 'user.role_changed',
        before: memberState(before),
        after: memberState(after),
      });
      return { before, after };
    });
  },
  async removeMember(accountId, userId) {
    return db.transaction(async (tx) => {
      // The user's row first, as openUserSession and useUserLink lock it: a sign-in that runs beside the
      // removal either ends before it (its session is ended here) or sees the user in no account.
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
      const admins = await otherAdmins(tx, accountId, userId);
      const before = await memberIn(tx, accountId, userId);
      if (before === null) return null;
      if (!before.pending && before.role === 'admin' && admins === 0) throw new LastAdminError(accountId);
      await tx.query('DELETE FROM account_members WHERE account_id = $1 AND user_id = $2', [
        accountId,
        userId,
      ]);
      // A revoked invitation's link opens nothing.
      await tx.query(
        `DELETE FROM user_links WHERE user_id = $1 AND account_id = $2 AND kind IN ('invitation', 'join')
         AND used_ms IS NULL`,
        [userId, accountId],
      );
      let sessionsEnded = 0;
      if (!(await inSomeActiveAccount(tx, userId))) {
        // In no account, the person can do nothing here: their sessions end and their links open nothing, but
        // for the join links of invitations still pending (they may sign in again to answer them).
        sessionsEnded = (
          await tx.query('DELETE FROM console_sessions WHERE user_id = $1 RETURNING digest', [userId])
        ).length;
        await tx.query(`DELETE FROM user_links WHERE user_id = $1 AND used_ms IS NULL AND kind <> 'join'`, [
          userId,
        ]);
      }
      await recordAudit(tx, {
        accountId,
        envId: null,
        subjectKind: 'user',
        subjectId: userId,
        action: 'user.removed',
        before: memberState(before),
        after: null,
        details: { sessionsEnded },
      });
      return { before, sessionsEnded };
    });
  },
  ...userLinkQueries(db),
  ...joinLinkQueries(db),
  async openUserSession(userId, sessionDigest, nowMs, expiresMs) {
    return db.transaction(async (tx) => {
      // Locked, then checked by a later statement: a removal from the last account that ran meanwhile is seen.
      const user = await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
      if (user.length === 0 || !(await inSomeAccount(tx, userId))) return false;
      await tx.query('UPDATE users SET last_sign_in_ms = $2 WHERE id = $1', [userId, nowMs]);
      await tx.query(
        'INSERT INTO console_sessions (digest, user_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)',
        [sessionDigest, userId, nowMs, expiresMs],
      );
      return true;
    });
  },
  async purgeUserLinks(beforeMs) {
    const rows = await db.query('DELETE FROM user_links WHERE expires_ms <= $1 RETURNING digest', [beforeMs]);
    return rows.length;
  },
});
