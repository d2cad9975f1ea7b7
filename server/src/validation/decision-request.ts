// The decision request (PROTOCOL.md §3): both spellings of every field, limits on the visitor id and the
// context, defaults of trigger_hit (false) and visitor_consent (true); unknown fields ignored. The ids and the
// context are stored (assignments, the SEGMENT hit), so their texts must be storable (§2.1): refused with a
// 400 naming the field whatever the query asks, so that the answer does not depend on sendContextEvent.
import { CONTEXT_LIMITS, isJsonObject, type VisitorContext } from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { badOptionalBoolean, badString, either, spelling } from './fields.js';
import { STORABLE_TEXT_RULE, isStorableText, shownKey } from './storable-text.js';

/** A validated decision request. */
export interface DecisionInput {
  visitorId: string;
  anonymousId: string | null;
  context: VisitorContext;
  triggerHit: boolean;
  consent: boolean;
}

const validContext = (value: unknown): VisitorContext => {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value))
    throw errors.invalidBody('context', 'must be an object of string, number or boolean values');
  const keys = Object.keys(value);
  if (keys.length > CONTEXT_LIMITS.maxKeys) {
    throw errors.invalidBody('context', `must have at most ${CONTEXT_LIMITS.maxKeys} keys`);
  }
  for (const key of keys) {
    const path = `context.${shownKey(key)}`;
    if (key.length === 0 || key.length > CONTEXT_LIMITS.maxKeyLength) {
      throw errors.invalidBody(path, `keys must be 1-${CONTEXT_LIMITS.maxKeyLength} characters`);
    }
    if (!isStorableText(key)) throw errors.invalidBody(path, `${STORABLE_TEXT_RULE} (in its key)`);
    const item = value[key];
    if (typeof item === 'string') {
      if (item.length > CONTEXT_LIMITS.maxStringValueLength)
        throw errors.invalidBody(
          path,
          `is ${item.length} characters long; a context string value has at most ${CONTEXT_LIMITS.maxStringValueLength}`,
        );
      if (!isStorableText(item)) throw errors.invalidBody(path, STORABLE_TEXT_RULE);
    } else if (typeof item !== 'boolean' && !(typeof item === 'number' && Number.isFinite(item))) {
      throw errors.invalidBody(path, 'must be a string, a finite number or a boolean');
    }
  }
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > CONTEXT_LIMITS.maxSerializedBytes) {
    throw errors.invalidBody('context', `must be at most ${CONTEXT_LIMITS.maxSerializedBytes} bytes as JSON`);
  }
  return value as VisitorContext;
};

/** Validates a parsed decision body; throws a 400 ApiError naming the first bad field. */
export const validateDecisionRequest = (body: unknown): DecisionInput => {
  if (!isJsonObject(body))
    throw errors.invalidBody('(body)', 'must be a JSON object with visitorId and context');
  const visitorId = either(body, 'visitorId', 'visitor_id');
  const idProblem = badString(visitorId, CONTEXT_LIMITS.maxVisitorIdLength);
  if (idProblem !== null) throw errors.invalidBody(spelling(body, 'visitorId', 'visitor_id'), idProblem);
  const anonymousId = either(body, 'anonymousId', 'anonymous_id');
  if (anonymousId !== undefined && anonymousId !== null) {
    const problem = badString(anonymousId, CONTEXT_LIMITS.maxVisitorIdLength);
    if (problem !== null)
      throw errors.invalidBody(
        spelling(body, 'anonymousId', 'anonymous_id'),
        typeof anonymousId === 'string' ? problem : `${problem} or null`,
      );
  }
  const triggerHit = either(body, 'triggerHit', 'trigger_hit');
  const consent = either(body, 'visitorConsent', 'visitor_consent');
  for (const [value, camel, snake] of [
    [triggerHit, 'triggerHit', 'trigger_hit'],
    [consent, 'visitorConsent', 'visitor_consent'],
  ] as const) {
    const problem = badOptionalBoolean(value);
    if (problem !== null) throw errors.invalidBody(spelling(body, camel, snake), problem);
  }
  return {
    visitorId: visitorId as string,
    anonymousId: typeof anonymousId === 'string' ? anonymousId : null,
    context: validContext(body.context),
    triggerHit: triggerHit === true,
    consent: consent !== false,
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
