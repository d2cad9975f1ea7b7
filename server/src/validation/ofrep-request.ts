// An OFREP evaluation request (PROTOCOL.md §18): `{"context":{"targetingKey":"visitor-1", …}}`. The route's
// schema (plugins/ofrep-schemas.ts) has checked the types, lengths and storable text; what JSON Schema cannot
// say is checked here: the context's size as JSON, the decision API's limit (§3).
import { CONTEXT_LIMITS, isJsonObject, type VisitorContext } from 'feature-ts/protocol';
import { errors } from '../errors.js';
import type { VisitorToDecide } from '../services/visitor-decision.js';

/** The context key OpenFeature names the visitor id with. */
export const TARGETING_KEY = 'targetingKey';

/**
 * The visitor of an OFREP request, as the route's schema checked it: `targetingKey` is the visitor id and
 * every other key is context. OFREP has no anonymous id, so experience continuity (§8.5) does not apply.
 */
export const readOfrepVisitor = (body: unknown): VisitorToDecide => {
  const request = isJsonObject(body) ? body : {};
  const sent = isJsonObject(request.context) ? request.context : {};
  if (Buffer.byteLength(JSON.stringify(sent), 'utf8') > CONTEXT_LIMITS.maxSerializedBytes)
    throw errors.invalidBody('context', `must be at most ${CONTEXT_LIMITS.maxSerializedBytes} bytes as JSON`);
  const { [TARGETING_KEY]: visitorId, ...context } = sent;
  return {
    visitorId: typeof visitorId === 'string' ? visitorId : '',
    anonymousId: null,
    context: context as VisitorContext,
  };
};
