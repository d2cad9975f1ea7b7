// Roles on the server (issue 36): each operator and console route declares, where it is declared, what its
// caller needs (fastify route `config.role`), and the operator scope's guard checks it after authentication,
// so hiding a button in the console is never what stops a person. The operator key (Bearer, or a console
// session it opened) may do everything. A person needs a role in the account the route acts on, found from
// the path: `{accountId}`, the account of `{envId}`'s environment, or of `{accessId}`'s access. A person who
// is not a member is answered exactly what a caller naming an account that does not exist is (404), so a
// person cannot learn which accounts exist; a member with too small a role gets 403 `insufficient_role`.
// A route that declares nothing is the operator key's alone: a new route fails closed until it says.
import type { Action } from 'feature-ts/protocol';
import type { FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import type { AccessStore } from '../store/access-store.js';
import type { AccountStore } from '../store/account-store.js';
import { roleCovers, type Role, type UserStore } from '../store/user-store.js';
import type { OperatorCaller } from './request-caller.js';

/**
 * What a route needs: a role in the route's account; `signed_in` (any person: the route answers by caller,
 * e.g. the account list); `operator_key` (instance-wide routes: accounts, rollups, console sessions).
 */
export type RouteRole = Role | 'signed_in' | 'operator_key';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route's caller needs (auth/route-roles.ts); absent: the operator key only. */
    role?: RouteRole;
  }
}

/** Route options with `role` declared: `{ ...route, config: { role } }`. */
export const needs = <T extends object>(role: RouteRole, route: T): T & { config: { role: RouteRole } } => ({
  ...route,
  config: { role },
});

/** The role each campaign route of the operator scope needs, by its remote control action. */
export const ACTION_ROLES: Readonly<Record<Action, Role>> = {
  'campaign.list': 'viewer',
  'campaign.read': 'viewer',
  'report.read': 'viewer',
  'campaign.create': 'editor',
  'campaign.update': 'editor',
  'campaign.delete': 'editor',
  'campaign.toggle': 'editor',
  'environment.panic': 'editor',
};

/** The stores the check reads the route's account from. */
export type RoleStores = Pick<AccountStore, 'getEnvironment'> &
  Pick<AccessStore, 'getAccess'> &
  Pick<UserStore, 'membershipsOf'>;

/**
 * The account the request's path acts on, or the 404 a caller naming a missing one gets (the same for a
 * person who is not a member); null when the path names none.
 */
const accountOfPath = async (
  request: FastifyRequest,
  stores: RoleStores,
): Promise<{ accountId: string; missing: Error } | null> => {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  if (params.accountId !== undefined)
    return {
      accountId: params.accountId,
      missing: errors.notFound(request.method, `account ${params.accountId.slice(0, 64)}`),
    };
  if (params.envId !== undefined) {
    const missing = errors.unknownEnvironment(params.envId);
    const environment = await stores.getEnvironment(params.envId);
    if (environment === null) throw missing;
    return { accountId: environment.accountId, missing };
  }
  if (params.accessId !== undefined) {
    const missing = errors.notFound(request.method, `access ${params.accessId.slice(0, 64)}`);
    const access = await stores.getAccess(params.accessId);
    if (access === null) throw missing;
    return { accountId: access.accountId, missing };
  }
  return null;
};

/**
 * Checks that `caller` may call the request's route (its `config.role`); throws the 403/404 to answer. For a
 * person, returns their role in the route's account (null: a route of no account).
 */
export const checkRouteRole = async (
  request: FastifyRequest,
  caller: OperatorCaller,
  stores: RoleStores,
): Promise<Role | null> => {
  if (caller.kind === 'operator_key') return null;
  const needed = request.routeOptions.config.role ?? 'operator_key';
  if (needed === 'operator_key') throw errors.insufficientRole('the operator key');
  if (needed === 'signed_in') return null;
  const account = await accountOfPath(request, stores);
  // A route that declares a role but names no account is a declaration bug: fail closed.
  if (account === null) throw errors.insufficientRole('the operator key');
  const membership = (await stores.membershipsOf(caller.user.id)).find(
    (m) => m.accountId === account.accountId,
  );
  if (membership === undefined) throw account.missing;
  if (!roleCovers(membership.role, needed)) throw errors.insufficientRole(`the ${needed} role`);
  return membership.role;
};
