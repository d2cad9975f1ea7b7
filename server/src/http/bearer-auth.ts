// The authorization of remote control calls (PROTOCOL.md §13.6), run in onRequest so that 401 and 403 come
// before the body is read: no Authorization → 401 without an error code (RFC 6750 §3.1); a malformed,
// unknown, expired or revoked token → 401 invalid_token; another account, an environment outside the scope
// or a missing action → 403 insufficient_scope naming what was needed.
import type { FastifyRequest } from 'fastify';
import type { Action } from 'feature-ts/protocol';
import { setRequestActor } from '../audit/actor.js';
import type { TokenService } from '../auth/token-service.js';
import { errors } from '../errors.js';
import type { AccessRecord } from '../store/access-store.js';
import type { AccountStore } from '../store/account-store.js';
import { rememberEnvironment } from './request-environment.js';

/** The bearer token of a request, null when there is no `Authorization: Bearer` header. */
export const bearerToken = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (match?.[1] !== undefined) return match[1];
  // Another scheme is no bearer authentication at all; a bare "Bearer" is a malformed one.
  if (/^Bearer\b/i.test(header)) throw errors.invalidToken();
  return null;
};

const accesses = new WeakMap<FastifyRequest, AccessRecord>();

/** The access whose token authorized this request. */
export const accessOf = (request: FastifyRequest): AccessRecord => {
  const access = accesses.get(request);
  // The hook runs before every remote control handler; reaching here without one is a wiring bug.
  if (access === undefined) throw new Error('accessOf called on a route without the bearer hook');
  return access;
};

/** Authorizes `action` on the request's account and environment; throws the §13.6 answers. */
export const authorizeCall = async (
  request: FastifyRequest,
  tokens: TokenService,
  store: AccountStore,
  action: Action,
): Promise<void> => {
  const token = bearerToken(request);
  if (token === null) throw errors.missingToken();
  const { accountId, envId } = request.params as { accountId: string; envId: string };
  const outcome = await tokens.authorize(token, accountId, envId, action);
  if (outcome.kind === 'invalid_token') throw errors.invalidToken();
  if (outcome.kind === 'insufficient_scope') throw errors.insufficientScope(outcome.scope);
  // Only a caller allowed in this environment learns whether it exists.
  const environment = await store.getEnvironment(envId);
  if (environment === null || environment.accountId !== accountId) throw errors.unknownEnvironment(envId);
  accesses.set(request, outcome.access);
  const { clientId } = outcome.access;
  setRequestActor(request, { kind: 'access', id: clientId, label: clientId, address: request.ip });
  rememberEnvironment(request, environment);
};
