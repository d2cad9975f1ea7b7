// Invitation and reset links of people over the shared SQL (store/user-store.ts): made, used once, purged.
// A link is spent by the UPDATE that finds it unused, so two uses of one link cannot both open a session,
// whatever the instance; using one sets the person's password and voids their other links, in one transaction
// that also writes the audit entry, named after the person the link belongs to.
import { currentActor } from '../../audit/actor.js';
import { NotTheirAdminError, type UserStore } from '../user-store.js';
import { recordAudit } from './audit-sql.js';
import { userState } from './audit-states.js';
import { num, numOrNull, text, type Sql } from './sql.js';
import { lockPerson } from './member-rows.js';
import { toUser } from './user-rows.js';

/** The link operations of the store. */
export const userLinkQueries = (
  db: Pick<Sql, 'query' | 'transaction'>,
): Pick<UserStore, 'createResetLink' | 'useUserLink'> => ({
  async createResetLink(accountId, userId, linkDigest, nowMs, expiresMs, madeBy) {
    return db.transaction(async (tx) => {
      // The person locked, then their accounts checked: a join or a single sign-on meanwhile (each takes the
      // same lock) either ends before (and is seen here) or waits for this link, which it then voids.
      await lockPerson(tx, userId);
      if (madeBy !== null) {
        const notTheirs = await tx.query(
          `SELECT 1 FROM account_members m WHERE m.user_id = $1 AND NOT m.pending AND NOT EXISTS (
             SELECT 1 FROM account_members a WHERE a.user_id = $2 AND a.account_id = m.account_id
             AND a.role = 'admin' AND NOT a.pending) LIMIT 1`,
          [userId, madeBy],
        );
        if (notTheirs.length > 0) throw new NotTheirAdminError();
      }
      const rows = await tx.query(
        `INSERT INTO user_links (digest, kind, user_id, account_id, created_ms, expires_ms)
         SELECT $1::bytea, 'reset', id, $5::text, $3::bigint, $4::bigint FROM users WHERE id = $2
         RETURNING digest`,
        [linkDigest, userId, nowMs, expiresMs, accountId],
      );
      if (rows.length === 0) return false;
      // The link itself never enters the log: only that one was made, for whom, and until when.
      await recordAudit(tx, {
        accountId,
        envId: null,
        subjectKind: 'user',
        subjectId: userId,
        action: 'user.reset_link_created',
        before: null,
        after: null,
        details: { expiresAt: new Date(expiresMs).toISOString() },
      });
      return true;
    });
  },
  async useUserLink({ linkDigest, kind, passwordHash, name, sessionDigest, nowMs, sessionExpiresMs }) {
    return db.transaction(async (tx) => {
      const link = (
        await tx.query(
          'SELECT user_id, account_id, expires_ms, used_ms FROM user_links WHERE digest = $1 AND kind = $2 FOR UPDATE',
          [linkDigest, kind],
        )
      )[0];
      if (link === undefined) return { kind: 'refused', why: 'unknown' } as const;
      if (numOrNull(link, 'used_ms') !== null) return { kind: 'refused', why: 'used' } as const;
      if (num(link, 'expires_ms') <= nowMs) return { kind: 'refused', why: 'expired' } as const;
      const userId = text(link, 'user_id');
      const userRow = (await tx.query('SELECT * FROM users WHERE id = $1 FOR UPDATE', [userId]))[0];
      if (userRow === undefined) return { kind: 'refused', why: 'unknown' } as const;
      // The link opens nothing once the person has left the account it was made from (or is only invited to it).
      const member = await tx.query(
        'SELECT 1 FROM account_members WHERE user_id = $1 AND account_id = $2 AND NOT pending',
        [userId, text(link, 'account_id')],
      );
      if (member.length === 0) return { kind: 'refused', why: 'unknown' } as const;
      const before = toUser(userRow);
      await tx.query('UPDATE user_links SET used_ms = $2 WHERE digest = $1', [linkDigest, nowMs]);
      // Once the person has chosen a password, their other unused links are void: none can replace it. Join
      // links stay: they set no password, and only the person, signed in, answers them.
      await tx.query(`DELETE FROM user_links WHERE user_id = $1 AND used_ms IS NULL AND kind <> 'join'`, [
        userId,
      ]);
      const updated = await tx.query(
        `UPDATE users SET password_hash = $2, name = COALESCE($3, name), last_sign_in_ms = $4 WHERE id = $1
         RETURNING *`,
        [userId, passwordHash, name ?? null, nowMs],
      );
      const afterRow = updated[0];
      if (afterRow === undefined) throw new Error('useUserLink: the user row vanished');
      const after = toUser(afterRow);
      // The link names the person: the entry is theirs, at the address the request came from.
      const address = currentActor()?.address ?? null;
      await recordAudit(tx, {
        accountId: text(link, 'account_id'),
        envId: null,
        subjectKind: 'user',
        subjectId: userId,
        action: kind === 'invitation' ? 'user.invitation_accepted' : 'user.password_reset',
        before: userState(before),
        // A reset replaces one password with another: the marker says it changed.
        after:
          kind === 'reset' ? { ...(userState(after) as object), password: '(changed)' } : userState(after),
        actor: { kind: 'user', id: userId, label: after.email, address },
      });
      // A new password ends every session opened with the old one (a reset is what a person does when they
      // fear someone else has it).
      const sessionsEnded = (
        await tx.query('DELETE FROM console_sessions WHERE user_id = $1 RETURNING digest', [userId])
      ).length;
      await tx.query(
        'INSERT INTO console_sessions (digest, user_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)',
        [sessionDigest, userId, nowMs, sessionExpiresMs],
      );
      return { kind: 'opened', before, after, sessionsEnded } as const;
    });
  },
});
