// What every operator route group shares (PROTOCOL.md §13.8): the operator key or a console session opens
// them (checked once per request, before anything else), their answers are never cached except reports (which
// the console revalidates with If-None-Match, report-etag.ts), and an `{envId}` in their path names an
// environment that must exist. A person's session reaches a route only with the role it declares. app.ts registers the operator route groups in one scope guarded this way.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { operatorCheck, type OperatorCheckOptions } from '../auth/operator-auth.js';
import { checkRouteRole, type RoleStores } from '../auth/route-roles.js';
import { errors } from '../errors.js';
import type { AccountStore, EnvironmentRecord } from '../store/account-store.js';
import { isReportAnswer } from './report-etag.js';

/**
 * Guards `scope`: only the operator key or a console session reaches its routes, a person only with the role
 * the route declares in its account (auth/route-roles.ts); answers are not cached.
 */
export const guardOperatorScope = (
  scope: FastifyInstance,
  operators: OperatorCheckOptions,
  stores: RoleStores,
): void => {
  const authorized = operatorCheck(operators);
  scope.addHook('onRequest', async (request) => {
    await checkRouteRole(request, await authorized(request), stores);
  });
  scope.addHook('onSend', (_request, reply, payload, done) => {
    if (!isReportAnswer(reply)) void reply.header('cache-control', 'no-store');
    done(null, payload);
  });
};

/** The environment of an operator route's `{envId}`; 404 `unknown_environment` when there is none. */
export const operatorEnvironment = async (
  store: AccountStore,
  request: FastifyRequest,
): Promise<EnvironmentRecord> => {
  const { envId } = request.params as { envId: string };
  const found = await store.getEnvironment(envId);
  if (found === null) throw errors.unknownEnvironment(envId);
  return found;
};
