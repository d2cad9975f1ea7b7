// OFREP's error answers (PROTOCOL.md §18; open-feature/protocol service/openapi.yaml): `{"key"?, "errorCode",
// "errorDetails"}` with OpenFeature's error codes, instead of the catalogue's `{"message", "code"}`, because
// OFREP providers read `errorCode` to pick the ErrorCode their application sees. The catalogue's refusals
// (the body parser's, the route schema's, fastify's) are translated here, so that OFREP routes answer in
// OFREP's shape whatever refused the request, and the catalogue's message becomes `errorDetails`.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errors } from '../errors.js';
import { fromFastify } from './error-handler.js';

/** OpenFeature error codes an OFREP answer carries. */
export const OFREP_ERROR_CODES = [
  'PARSE_ERROR',
  'TARGETING_KEY_MISSING',
  'INVALID_CONTEXT',
  'FLAG_NOT_FOUND',
  'GENERAL',
] as const;

/** One OFREP error code. */
export type OfrepErrorCode = (typeof OFREP_ERROR_CODES)[number];

/** The body of an OFREP error answer. */
export interface OfrepErrorBody {
  /** The flag key, on the single-flag route's 400 and 404. */
  key?: string;
  errorCode: OfrepErrorCode;
  errorDetails: string;
}

/** An error answered with an OFREP body. */
export class OfrepError extends Error {
  /** The HTTP status. */
  readonly status: number;
  readonly errorCode: OfrepErrorCode;
  /** Extra response headers (WWW-Authenticate, Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    errorCode: OfrepErrorCode,
    details: string,
    headers: Record<string, string> = {},
  ) {
    super(details);
    this.name = 'OfrepError';
    this.status = status;
    this.errorCode = errorCode;
    this.headers = headers;
  }
}

/** What the client sends with every OFREP call: named in the 401 (RFC 9110 §11.6.1 wants a challenge). */
const CHALLENGE = { 'www-authenticate': 'Bearer realm="feature"' };

/** Builders of the OFREP errors the routes raise themselves. */
export const ofrepErrors = {
  missingApiKey: () =>
    new OfrepError(
      401,
      'GENERAL',
      'No API key: send the environment\'s API key as "Authorization: Bearer <apiKey>" or in x-api-key.',
      CHALLENGE,
    ),
  invalidApiKey: () =>
    new OfrepError(
      401,
      'GENERAL',
      'No environment has this API key: use the key printed when the environment was created or last rotated.',
      CHALLENGE,
    ),
  flagNotFound: (key: string) =>
    new OfrepError(
      404,
      'FLAG_NOT_FOUND',
      `No campaign gives this visitor the flag "${key.slice(0, 100)}": check the key, and the campaigns' targeting and state.`,
    ),
};

// The route schema names the visitor id's field: these are its refusals when it is absent or empty.
const TARGETING_KEY_PATHS = new Set(['context', 'context.targetingKey']);
const ABSENT = /^(is required|must not be empty)/;

/**
 * The OFREP error for a refusal of the catalogue: a body that is not JSON, or not an object, is a
 * PARSE_ERROR; a missing visitor id (`context.targetingKey`, or no context at all) TARGETING_KEY_MISSING; a
 * context the schema refuses (a value that is an object, an array or null, too many keys) INVALID_CONTEXT,
 * naming the key; anything else keeps its status with GENERAL.
 */
export const fromCatalogue = (error: ApiError): OfrepError => {
  if (error.status !== 400) {
    const headers = error.status === 429 ? error.headers : {};
    return new OfrepError(error.status, 'GENERAL', error.message, headers);
  }
  if (error.code === 'invalid_json') return new OfrepError(400, 'PARSE_ERROR', error.message);
  const details = error.details ?? [];
  const missing = details.find((d) => TARGETING_KEY_PATHS.has(d.path) && ABSENT.test(d.message));
  if (missing !== undefined)
    return new OfrepError(400, 'TARGETING_KEY_MISSING', `${missing.path}: ${missing.message}`);
  const path = details[0]?.path ?? '';
  if (path === 'context' || path.startsWith('context.') || path.startsWith('context['))
    return new OfrepError(400, 'INVALID_CONTEXT', error.message);
  if (path.startsWith('path.') || path.startsWith('header.') || error.code === 'invalid_url')
    return new OfrepError(400, 'GENERAL', error.message);
  return new OfrepError(400, 'PARSE_ERROR', error.message);
};

/** Sends `error` as OFREP's body; `key` is added when the route names a flag and the answer is a 400 or 404. */
export const sendOfrepError = (reply: FastifyReply, error: OfrepError, key?: string): FastifyReply => {
  const withKey = key !== undefined && (error.status === 400 || error.status === 404);
  const body: OfrepErrorBody = {
    ...(withKey ? { key } : {}),
    errorCode: error.errorCode,
    errorDetails: error.message,
  };
  return reply
    .code(error.status)
    .headers(error.headers)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(body));
};

/**
 * The error handler of the OFREP routes: OFREP errors as they are, the catalogue's and fastify's refusals
 * translated, anything else a 500 (logged under the request id, which `errorDetails` names). Never a 500 for
 * what a client sent: fastify's client errors arrive here as the catalogue's first.
 */
export const answerOfrepError = (
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply => {
  const params = request.params as { key?: unknown } | undefined;
  const key = typeof params?.key === 'string' ? params.key : undefined;
  if (error instanceof OfrepError) return sendOfrepError(reply, error, key);
  const known = error instanceof ApiError ? error : fromFastify(error, request);
  if (known !== null) return sendOfrepError(reply, fromCatalogue(known), key);
  request.log.error({ err: error, reqId: request.id }, 'internal error');
  return sendOfrepError(reply, new OfrepError(500, 'GENERAL', errors.internal(request.id).message));
};
