// A membership row as the store answers it, shared by the user and join-link queries. A pending member shows
// nothing of the person beyond their email (what the inviting admin typed): their name and sign-in times are
// theirs until they join.
import type { MemberRecord, Role } from '../user-store.js';
import { num, numOrNull, text, type Queryable, type Row } from './sql.js';

/** Whether a stored role is one (the column's CHECK keeps other values out). */
export const isRole = (value: string): value is Role =>
  value === 'admin' || value === 'editor' || value === 'viewer';

/** The role of a row's `role` column; viewer would fail closed all the same. */
export const roleOf = (row: Row): Role => {
  const value = text(row, 'role');
  return isRole(value) ? value : 'viewer';
};

/** The columns toMember reads, of `account_members m JOIN users u`. */
export const MEMBER_COLUMNS = `m.account_id, m.user_id, u.email, u.name, m.role, m.created_ms, u.last_sign_in_ms,
  m.pending, (u.password_hash IS NOT NULL OR EXISTS (SELECT 1 FROM sso_identities i WHERE i.user_id = u.id)) AS active`;

/** Maps a row of MEMBER_COLUMNS. */
export const toMember = (row: Row): MemberRecord => {
  const pending = row.pending === true;
  return {
    accountId: text(row, 'account_id'),
    userId: text(row, 'user_id'),
    email: text(row, 'email'),
    name: pending ? '' : text(row, 'name'),
    role: roleOf(row),
    createdMs: num(row, 'created_ms'),
    lastSignInMs: pending ? null : numOrNull(row, 'last_sign_in_ms'),
    active: !pending && row.active === true,
    pending,
  };
};

/** One membership (pending or not), or null. */
export const memberIn = async (
  tx: Queryable,
  accountId: string,
  userId: string,
): Promise<MemberRecord | null> => {
  const rows = await tx.query(
    `SELECT ${MEMBER_COLUMNS} FROM account_members m JOIN users u ON u.id = m.user_id
     WHERE m.account_id = $1 AND m.user_id = $2`,
    [accountId, userId],
  );
  const row = rows[0];
  return row === undefined ? null : toMember(row);
};

/**
 * Locks a person's user row for the rest of the transaction. Whatever adds the person to an account (a join
 * answered, a single sign-on) and a reset link made for them take it first, so one waits for the other: a reset
 * link is checked against the person's accounts of its own moment, and an account joined after it voids it.
 */
export const lockPerson = async (tx: Queryable, userId: string): Promise<void> => {
  await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
};
