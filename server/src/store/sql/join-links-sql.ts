// Join links over the shared SQL (store/join-link-store.ts): the consent of a person who already had a user,
// invited to another account. The link row is locked, then the membership: a revocation (removeMember) or a
// single sign-on that runs beside an answer either ends before it (the answer finds nothing pending) or after
// it. The audit entry is written in the same transaction, under the request's actor: the person answering.
import type { JoinLinkStore } from '../join-link-store.js';
import { recordAudit } from './audit-sql.js';
import { memberState } from './audit-states.js';
import { lockPerson, memberIn, roleOf } from './member-rows.js';
import { num, numOrNull, text, type Queryable, type Sql } from './sql.js';

const refused = <W extends string>(why: W) => ({ kind: 'refused', why }) as const;

/** The unused join link of `linkDigest`, locked, with its pending membership; or why there is none. */
const openLink = async (tx: Queryable, linkDigest: Uint8Array, nowMs: number, lock: boolean) => {
  const link = (
    await tx.query(
      `SELECT user_id, account_id, expires_ms, used_ms FROM user_links WHERE digest = $1 AND kind = 'join'
       ${lock ? 'FOR UPDATE' : ''}`,
      [linkDigest],
    )
  )[0];
  if (link === undefined) return refused('unknown');
  if (numOrNull(link, 'used_ms') !== null) return refused('used');
  if (num(link, 'expires_ms') <= nowMs) return refused('expired');
  const userId = text(link, 'user_id');
  const accountId = text(link, 'account_id');
  const member = await memberIn(tx, accountId, userId);
  // Revoked, or made a member meanwhile (by single sign-on): nothing is left to answer.
  if (member === null || !member.pending) return refused('unknown');
  return { kind: 'open', userId, accountId, expiresMs: num(link, 'expires_ms'), member } as const;
};

/** The join-link operations of the store. */
export const joinLinkQueries = (db: Pick<Sql, 'query' | 'transaction'>): JoinLinkStore => ({
  async invitationLinkKind(linkDigest, nowMs) {
    const link = (
      await db.query(
        `SELECT kind, user_id, account_id, expires_ms, used_ms FROM user_links
         WHERE digest = $1 AND kind IN ('invitation', 'join')`,
        [linkDigest],
      )
    )[0];
    if (link === undefined) return refused('unknown');
    if (text(link, 'kind') === 'join') {
      const found = await openLink(db, linkDigest, nowMs, false);
      return found.kind === 'refused' ? found : ({ kind: 'found', linkKind: 'join' } as const);
    }
    if (numOrNull(link, 'used_ms') !== null) return refused('used');
    if (num(link, 'expires_ms') <= nowMs) return refused('expired');
    // As useUserLink: nothing to open once the person left the account (or the invitation was revoked).
    const member = await memberIn(db, text(link, 'account_id'), text(link, 'user_id'));
    if (member === null || member.pending) return refused('unknown');
    return { kind: 'found', linkKind: 'invitation' } as const;
  },
  async peekJoinLink(linkDigest, nowMs) {
    const found = await openLink(db, linkDigest, nowMs, false);
    if (found.kind === 'refused') return found;
    const account = (await db.query('SELECT name FROM accounts WHERE id = $1', [found.accountId]))[0];
    if (account === undefined) return refused('unknown');
    const invitation = {
      userId: found.userId,
      accountId: found.accountId,
      accountName: text(account, 'name'),
      role: found.member.role,
      expiresMs: found.expiresMs,
    };
    return { kind: 'found', invitation } as const;
  },
  async answerJoinLink({ linkDigest, userId, answer, nowMs }) {
    return db.transaction(async (tx) => {
      const found = await openLink(tx, linkDigest, nowMs, true);
      if (found.kind === 'refused') return found;
      if (found.userId !== userId) return refused('other_person');
      const { accountId } = found;
      // Joining adds an account: a reset link made meanwhile waits for it (member-rows.ts).
      await lockPerson(tx, userId);
      const locked = await tx.query(
        'SELECT role FROM account_members WHERE account_id = $1 AND user_id = $2 AND pending FOR UPDATE',
        [accountId, userId],
      );
      const row = locked[0];
      if (row === undefined) return refused('unknown');
      const before = { ...found.member, role: roleOf(row) };
      await tx.query('UPDATE user_links SET used_ms = $2 WHERE digest = $1', [linkDigest, nowMs]);
      // Answered: no other link of this account asks again.
      await tx.query(
        `DELETE FROM user_links WHERE user_id = $1 AND account_id = $2 AND kind = 'join' AND used_ms IS NULL`,
        [userId, accountId],
      );
      if (answer === 'decline') {
        await tx.query('DELETE FROM account_members WHERE account_id = $1 AND user_id = $2', [
          accountId,
          userId,
        ]);
        await recordAudit(tx, {
          accountId,
          envId: null,
          subjectKind: 'user',
          subjectId: userId,
          action: 'user.invitation_declined',
          before: memberState(before),
          after: null,
        });
        return { kind: 'declined', before } as const;
      }
      await tx.query('UPDATE account_members SET pending = false WHERE account_id = $1 AND user_id = $2', [
        accountId,
        userId,
      ]);
      // A reset link made for the person was checked against the accounts they were in then: void it.
      await tx.query(`DELETE FROM user_links WHERE user_id = $1 AND kind = 'reset' AND used_ms IS NULL`, [
        userId,
      ]);
      const after = await memberIn(tx, accountId, userId);
      if (after === null) throw new Error('answerJoinLink: the membership row vanished');
      await recordAudit(tx, {
        accountId,
        envId: null,
        subjectKind: 'user',
        subjectId: userId,
        action: 'user.invitation_accepted',
        before: memberState(before),
        after: memberState(after),
      });
      return { kind: 'joined', before, after } as const;
    });
  },
});
