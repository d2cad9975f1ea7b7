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
