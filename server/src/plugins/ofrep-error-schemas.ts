// The OFREP routes' error answers (PROTOCOL.md §18) for the OpenAPI document: OFREP's shape
// (`{"key"?, "errorCode", "errorDetails"}`), not the catalogue's, with examples made by the same builders
// the routes answer with (http/ofrep-errors.ts), so the two cannot drift.
import { errors } from '../errors.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import { fromCatalogue, ofrepErrors, type OfrepError, type OfrepErrorBody } from '../http/ofrep-errors.js';
import { EXAMPLE } from './shared-schemas.js';

/** The OFREP routes' body limit: the decision route's (§2.1), since the body is a decision's context. */
export const OFREP_BODY_LIMIT = 64 * 1024;

/** What a context value must be (the route schema's rule, quoted by its refusals). */
export const CONTEXT_RULE =
  'must be a string, a finite number or a boolean (objects, arrays and null are refused)';

/** An OFREP error body's schema: `key` on the single-flag route's 400 and 404. */
export const errorBodySchema = (codes: readonly string[], withKey: boolean) => ({
  title: 'OFREP error',
  type: 'object',
  required: withKey ? ['key', 'errorCode', 'errorDetails'] : ['errorCode', 'errorDetails'],
  properties: {
    ...(withKey ? { key: { type: 'string', description: 'The flag key of the path.' } } : {}),
    errorCode: { type: 'string', enum: codes, description: 'An OpenFeature error code.' },
    errorDetails: { type: 'string', description: 'What is wrong and what to change.' },
  },
});

/** The body `error` is answered with. */
export const answer = (error: OfrepError, key?: string): OfrepErrorBody => ({
  ...(key === undefined ? {} : { key }),
  errorCode: error.errorCode,
  errorDetails: error.message,
});

/** An OFREP error answer with its examples. */
export const errorResponse = (
  description: string,
  codes: readonly string[],
  withKey: boolean,
  ...examples: OfrepErrorBody[]
) => ({ ...errorBodySchema(codes, withKey), description, examples });

/** The 400 of an OFREP route (`withKey`: the single-flag route's, naming the key). */
export const badRequest = (withKey: boolean) => {
  const key = withKey ? 'btnColor' : undefined;
  return errorResponse(
    'The body is not a JSON object (PARSE_ERROR), context.targetingKey is missing or empty (TARGETING_KEY_MISSING), or a context value is an object, an array or null, or the context is too large (INVALID_CONTEXT, naming the key).',
    ['PARSE_ERROR', 'TARGETING_KEY_MISSING', 'INVALID_CONTEXT', 'GENERAL'],
    withKey,
    answer(fromCatalogue(errors.invalidJson('Unexpected end of JSON input')), key),
    answer(fromCatalogue(errors.invalidBody('context.targetingKey', 'is required')), key),
    answer(fromCatalogue(errors.invalidBody('context.address', CONTEXT_RULE)), key),
  );
};

/** The 401: no key, or no environment has it. */
export const unauthorized = {
  ...errorResponse(
    "No API key, or no environment has it. Send the environment's key as Authorization: Bearer <apiKey> or in x-api-key.",
    ['GENERAL'],
    false,
    answer(ofrepErrors.missingApiKey()),
    answer(ofrepErrors.invalidApiKey()),
  ),
  headers: { 'WWW-Authenticate': { type: 'string', description: 'Bearer realm="feature"' } },
};

/** The 413 (the route's bodyLimit, OFREP_BODY_LIMIT; the OpenAPI test compares the two). */
export const tooLarge = errorResponse(
  'The body is over 64 KiB.',
  ['GENERAL'],
  false,
  answer(fromCatalogue(errors.payloadTooLarge(OFREP_BODY_LIMIT))),
);

/** The 415. */
export const wrongType = errorResponse(
  'The body is not application/json or text/plain.',
  ['GENERAL'],
  false,
  answer(fromCatalogue(errors.unsupportedMediaType(JSON_OR_TEXT))),
);

/** The 500: a server fault, never an answer to a client's input. */
export const internal = errorResponse(
  'A server fault, logged under the request id that errorDetails names. Never an answer to what a client sent.',
  ['GENERAL'],
  false,
  answer(fromCatalogue(errors.internal(EXAMPLE.requestId))),
);
