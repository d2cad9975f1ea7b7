// Query parameters as the route's query schema read them (http/schema-validation.ts: integers and booleans
// from their text, defaults filled in), for the handlers that page or filter.
import type { FastifyRequest } from 'fastify';

/** A whole number query parameter, as the route's query schema checked it (within bounds), or its default. */
export const pageParameter = (request: FastifyRequest, name: string, fallback: number): number => {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'number' ? value : fallback;
};
