// The environment a campaign route's authorization read, kept for the rest of that request. On the embedded
// store each read is a query of about a millisecond and a half through PGlite's thread, and a campaign list
// answered from three of them (the authorization's, the compatibility warnings' account settings, the
// Last-Modified of the answer) ran at 0.68 of a bare route making one. Nothing a campaign route changes is
// in what it reads of the record (the account and its settings, the configuration time of a GET), so one
// read serves the whole request.
import type { FastifyRequest } from 'fastify';
import type { EnvironmentRecord } from '../store/account-store.js';

const environments = new WeakMap<FastifyRequest, EnvironmentRecord>();

/** Keeps `environment`, which the authorization of `request` read and checked, for its handler. */
export const rememberEnvironment = (request: FastifyRequest, environment: EnvironmentRecord): void => {
  environments.set(request, environment);
};

/** The environment the authorization of `request` read (campaign routes only: their hook always keeps one). */
export const environmentOf = (request: FastifyRequest): EnvironmentRecord => {
  const environment = environments.get(request);
  // The hook runs before every campaign route's handler; reaching here without one is a wiring bug.
  if (environment === undefined) throw new Error('environmentOf called on a route whose hook kept none');
  return environment;
};
