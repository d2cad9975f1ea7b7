// The decision request (PROTOCOL.md §3): both spellings of every field, limits on the visitor id and the
// context, defaults of trigger_hit (false) and visitor_consent (true); unknown fields ignored. The ids and the
// context are stored (assignments, the SEGMENT hit), so their texts must be storable (§2.1): the route's
// schema refuses them with a 400 naming the field whatever the query asks, so that the answer does not depend
// on sendContextEvent.
import { CONTEXT_LIMITS, isJsonObject, type VisitorContext } from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { either } from './fields.js';

/** A validated decision request. */
export interface DecisionInput {
  visitorId: string;
  anonymousId: string | null;
  context: VisitorContext;
  triggerHit: boolean;
  consent: boolean;
}

/**
 * The decision request as the route's schema checked it (decision-schemas.ts: types, lengths, storable text,
 * the context's keys and values, both spellings). What JSON Schema cannot say is checked here: the context's
 * size as JSON. camelCase is read first when both spellings are sent.
 */
export const validateDecisionRequest = (body: unknown): DecisionInput => {
  const request = isJsonObject(body) ? body : {};
  const context: VisitorContext = isJsonObject(request.context) ? (request.context as VisitorContext) : {};
  if (Buffer.byteLength(JSON.stringify(context), 'utf8') > CONTEXT_LIMITS.maxSerializedBytes)
    throw errors.invalidBody('context', `must be at most ${CONTEXT_LIMITS.maxSerializedBytes} bytes as JSON`);
  const anonymousId = either(request, 'anonymousId', 'anonymous_id');
  return {
    visitorId: either(request, 'visitorId', 'visitor_id') as string,
    anonymousId: typeof anonymousId === 'string' ? anonymousId : null,
    context,
    triggerHit: either(request, 'triggerHit', 'trigger_hit') === true,
    consent: either(request, 'visitorConsent', 'visitor_consent') !== false,
  };
};

/** The decision route's query (§3): exposeAllKeys, extras (both spellings), sendContextEvent. */
export interface DecisionQuery {
  exposeAllKeys: boolean;
  accountSettings: boolean;
  sendContextEvent: boolean;
}

// The route's query schema has read `true` and `false` and filled in each flag's default.
const flag = (query: Record<string, unknown>, name: string, fallback: boolean): boolean =>
  typeof query[name] === 'boolean' ? query[name] : fallback;

/** Reads the decision query, as the route's query schema checked it. */
export const readDecisionQuery = (query: unknown): DecisionQuery => {
  const q = isJsonObject(query) ? query : {};
  const extras = [q['extras[]'], q.extras].flat();
  return {
    exposeAllKeys: flag(q, 'exposeAllKeys', false),
    accountSettings: extras.includes('accountSettings'),
    sendContextEvent: flag(q, 'sendContextEvent', true),
  };
};
