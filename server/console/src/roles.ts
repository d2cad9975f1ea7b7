// What the signed-in caller may do in the chosen account, read from `GET /admin/session`'s `user` (null: the
// operator key, which may do everything). The console hides what a role cannot do so nobody is offered a
// button that can only fail; the server enforces the roles whatever the console shows (docs/teams.md).
import type { SessionAnswer } from './api.js';

/** A person's role in an account. */
export type Role = 'admin' | 'editor' | 'viewer';

/** Who signed in: the person (null for the operator key). */
export type SessionUser = NonNullable<SessionAnswer['user']>;

const RANK: Readonly<Record<Role, number>> = { viewer: 0, editor: 1, admin: 2 };

/** The roles, smallest first, as the server names them. */
export const ROLES: readonly Role[] = ['viewer', 'editor', 'admin'];

/**
 * Whether `user` (null: the operator key) holds at least `need` in account `accountId` (null: no account, where
 * only the operator key may act).
 */
export const mayAct = (user: SessionUser | null, accountId: string | null, need: Role): boolean => {
  if (user === null) return true;
  const role = user.accounts.find((a) => a.account_id === accountId)?.role;
  return role !== undefined && RANK[role] >= RANK[need];
};
