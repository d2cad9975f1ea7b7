// Every error answer goes through here, so each has a PROTOCOL.md §2.4 body: our ApiErrors as they are,
// fastify's own client errors (415, 413, empty body, bad URL) mapped to the catalogue, and anything else a
// 500 `internal` with the request id, logged under that id. A client's input never produces a 500.
// A URL the router cannot decode never reaches a route or a hook: fastify hands it to `frameworkErrors`
// (answerFrameworkError), which answers 400 `invalid_url` with the path's cross-origin headers (§2.1).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from 'feature-ts/protocol';
import { ApiError, errors } from '../errors.js';
import { crossOriginHeadersOf } from './cors.js';
import { JSON_OR_TEXT } from './json-body.js';

/** fastify's default `maxParamLength`: a longer path parameter is a malformed URL (ids are ≤ 64, §1). */
const MAX_PARAM_LENGTH = 100;

/** What is wrong with a URL the router refused, by fastify's error code. */
export const URL_PROBLEMS = {
  FST_ERR_BAD_URL: 'its percent-encoding is broken (each %XX sequence must encode UTF-8 text)',
  FST_ERR_MAX_PARAM_LENGTH: `a path segment is longer than ${MAX_PARAM_LENGTH} characters (ids are 1-64 characters)`,
} as const;

/** The problem of a URL fastify refused with `code`; undefined for any other error. */
const urlProblemOf = (code: string): string | undefined =>
  Object.hasOwn(URL_PROBLEMS, code) ? URL_PROBLEMS[code as keyof typeof URL_PROBLEMS] : undefined;

const acceptedTypes = (request: FastifyRequest): readonly string[] => {
  const config: unknown = request.routeOptions.config;
  const accepts =
    typeof config === 'object' && config !== null && 'accepts' in config ? config.accepts : undefined;
  return Array.isArray(accepts) && accepts.every((a) => typeof a === 'string') ? accepts : JSON_OR_TEXT;
};

/** Maps fastify's own client errors to the catalogue; null for anything else. */
export const fromFastify = (error: FastifyError, request: FastifyRequest): ApiError | null => {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return errors.unsupportedMediaType(acceptedTypes(request));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(request.routeOptions.bodyLimit);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalidJson('the body is empty');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.invalidBody('(body)', 'its length does not match the Content-Length header');
    default:
      break;
  }
  const urlProblem = urlProblemOf(error.code);
  if (urlProblem !== undefined) return errors.invalidUrl(urlProblem);
  // Decoding text the client sent (a percent-encoded path or query) is the only source of a URIError.
  if (error instanceof URIError) return errors.invalidUrl('it does not decode to text');
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    if (status === 404) return errors.notFound(request.method, request.url);
    if (status === 415) return errors.unsupportedMediaType(acceptedTypes(request));
    if (status === 413) return errors.payloadTooLarge(request.routeOptions.bodyLimit);
    return new ApiError(400, 'invalid_body', `The request is malformed: ${error.message}`);
  }
  return null;
};

const send = (reply: FastifyReply, error: ApiError, requestId?: string): FastifyReply => {
  const body: ErrorBody = { message: error.message, code: error.code };
  if (error.details !== undefined) body.details = error.details;
  if (requestId !== undefined) body.requestId = requestId;
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(body);
};

/**
 * fastify's `frameworkErrors` option: the router's refusals of a URL (broken percent-encoding, a path
 * parameter over 100 characters) answer 400 `invalid_url` from the catalogue, with the cross-origin headers
 * of the path, like every other error (§2.1, §2.3); never the framework's own body. Called before any hook.
 */
export const answerFrameworkError = (
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void => {
  const headers = crossOriginHeadersOf(request.url);
  if (headers !== null) void reply.headers(headers);
  const urlProblem = urlProblemOf(error.code);
  if (urlProblem !== undefined) {
    void send(reply, errors.invalidUrl(urlProblem));
    return;
  }
  request.log.error({ err: error, reqId: request.id }, 'internal error');
  void send(reply, errors.internal(request.id), request.id);
};

/** Installs the error and not-found handlers. */
export const registerErrorHandlers = (app: FastifyInstance): void => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return send(reply, error);
    const mapped = fromFastify(error, request);
    if (mapped !== null) return send(reply, mapped);
    request.log.error({ err: error, reqId: request.id }, 'internal error');
    return send(reply, errors.internal(request.id), request.id);
  });
  app.setNotFoundHandler((request, reply) => send(reply, errors.notFound(request.method, request.url)));
};
