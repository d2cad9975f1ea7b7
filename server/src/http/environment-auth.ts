// The environment and API key checks of routes with the environment in the path (PROTOCOL.md §2.1, §2.2):
// they run in onRequest, before the body is read, so 404 and 401/403 come before 415, 413 and 400.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EnvironmentCache } from '../configuration/environment-cache.js';
import type { EnvironmentState } from '../configuration/environment-state.js';
import { errors } from '../errors.js';
import { secretMatches } from '../ids.js';
import { isJsonObject } from 'feature-ts/protocol';

const states = new WeakMap<FastifyRequest, EnvironmentState>();

/** The environment a request was authorized for (set by the hooks below). */
export const environmentOf = (request: FastifyRequest): EnvironmentState => {
  const state = states.get(request);
  // The hooks run before every handler that calls this; reaching here without one is a wiring bug.
  if (state === undefined) throw new Error('environmentOf called on a route without an environment hook');
  return state;
};

const envIdOf = (request: FastifyRequest): string => {
  const params = request.params;
  return isJsonObject(params) && typeof params.envId === 'string' ? params.envId : '';
};

/** The x-api-key header (the first one when repeated), or undefined. */
export const apiKeyOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers['x-api-key'];
  return Array.isArray(header) ? header[0] : header;
};

/** onRequest hook: the path's environment must exist (404). */
export const requireEnvironment =
  (environments: EnvironmentCache) =>
  async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const envId = envIdOf(request);
    const state = await environments.get(envId);
    if (state === null) throw errors.unknownEnvironment(envId);
    states.set(request, state);
  };

/** onRequest hook: the path's environment must exist (404) and x-api-key must be its key (401, 403). */
export const requireEnvironmentAndKey = (environments: EnvironmentCache) => {
  const environmentHook = requireEnvironment(environments);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await environmentHook(request, reply);
    const key = apiKeyOf(request);
    if (key === undefined || key === '') throw errors.missingApiKey();
    if (!secretMatches(key, environmentOf(request).environment.apiKeyDigest)) throw errors.invalidApiKey();
  };
};

/** What a route that names the environment by its API key alone refuses with. */
export interface KeyRefusals {
  missing: () => Error;
  unknown: () => Error;
}

/**
 * The API key of a request to a route that names the environment by its key alone (OFREP, §18): x-api-key,
 * else `Authorization: Bearer <apiKey>` (what OFREP providers send); undefined when neither. x-api-key comes
 * first because it can only mean this server's key, while an Authorization header may be meant for a proxy
 * in front of it.
 */
export const apiKeyOrBearerOf = (request: FastifyRequest): string | undefined => {
  const key = apiKeyOf(request);
  if (key !== undefined && key !== '') return key;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1];
};

/**
 * onRequest hook: the API key names the environment (keys are unique across environments); none sent, or
 * one no environment has, is refused with `refusals`. Runs before the body is read, so a wrong key is
 * answered before anything about the body.
 */
export const requireEnvironmentOfKey =
  (environments: EnvironmentCache, refusals: KeyRefusals) =>
  async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const key = apiKeyOrBearerOf(request);
    if (key === undefined) throw refusals.missing();
    const state = await environments.byApiKey(key);
    if (state === null) throw refusals.unknown();
    states.set(request, state);
  };
