// What the route schemas share: the route options that attach a schema, the security schemes, path
// parameters, conditional-request headers, the error answers (PROTOCOL.md §2.4 and RFC 6749 §5.2) and the
// example values every route's examples reuse, so that one example id means one thing across the document.
//
// A route's schema is its one source of truth: fastify checks requests against it (http/schema-validation.ts),
// serializes answers from its response schemas (fast-json-stringify), and the OpenAPI document is built
// from it.
import type { FastifySchema } from 'fastify';
import { ERROR_CODES, type Action, type ErrorBody, type OAuthErrorBody } from 'feature-ts/protocol';
import { errors, type ApiError } from '../errors.js';

/** A route's schema: JSON Schemas of its parts plus the OpenAPI fields @fastify/swagger reads. */
export type RouteSchema = FastifySchema;

/** The route options `withSchema` returns, spread into a route's options. */
export interface SchemaRoute {
  schema: RouteSchema;
}

/** Route options that attach `schema`: requests checked by it, answers serialized by it, and documented. */
export const withSchema = (schema: RouteSchema): SchemaRoute => ({ schema });

/** The document's security schemes (components.securitySchemes). */
export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      "The environment's API key (PROTOCOL.md §2.2), printed once when the environment is created or its key rotated.",
  },
  apiKeyBearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The environment's API key as a bearer token (OFREP, PROTOCOL.md §18: what OpenFeature's OFREP providers send). The key names the environment.",
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A token from POST /oauth/{accountId}/token (`fft_…`, §13.3). Each route needs one action (listed with the route) on its environment.',
  },
  operatorKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator key the server was started with (FEATURE_OPERATOR_KEY or --operator-key, §13.8); without one the operator routes do not exist.',
  },
  consoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'feature_console',
    description:
      'The console session cookie from POST /admin/session; state-changing calls also send its CSRF token in X-CSRF-Token.',
  },
  clientBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'client_id:client_secret of an access (RFC 6749 §2.3.1), instead of client_id and client_secret in the body.',
  },
} as const;

/** A route's `security`, by what it needs. */
export const security = {
  none: [],
  apiKey: [{ apiKey: [] }],
  /** Activation: the key may be left out; when sent it must be right. */
  optionalApiKey: [{ apiKey: [] }, {}],
  /** OFREP: the API key as a bearer token, or in x-api-key. */
  ofrep: [{ apiKeyBearer: [] }, { apiKey: [] }],
  /** OpenAPI 3.1 lets a non-OAuth scheme list roles: here, the action the token must grant. */
  bearer: (action: Action) => [{ bearerToken: [action] }],
  /** The operator key, or the console's session (cookie and CSRF token). */
  operator: [{ operatorKey: [] }, { consoleSession: [] }],
  /** Client credentials in the body, or in HTTP Basic. */
  clientCredentials: [{}, { clientBasic: [] }],
} as const;

/** Values the examples share: ids and secrets in the shapes the server makes (all made up). */
export const EXAMPLE = {
  accountId: 'fn6fzo7vocltsj5nxr4s',
  envId: 'lrzzyvuwjekugso4dgow',
  accessId: 'g6bi5bafxzbjmgde3fyy',
  campaignId: 'c1',
  apiKey: 'fk_H5a1qRDMdobBgYfm7NiTF2gd9d_KG4BBKLFk1rGOeSc',
  clientId: 'ffc_oVc8liAKDioVsiTYI6qbbA',
  clientSecret: 'ffs_ipONjhM6XWy3dvjyyUa1M2KbVr3ssJ3G2fdNgQs3wb0',
  accessToken: 'fft_YZWoTpuq9oO-SuDTV780ZyVlFF6rBVf08NjjG0wDjw4',
  requestId: '0b7e4f52-9c1d-4a3e-8f60-2d5b7a9c1e34',
  time: '2026-11-22T10:00:00.000Z',
  webhookId: 'q3m7xkd2hpw5nrz4tb6c',
  deliveryId: 'k2vb7ndq5wfx3hjz6mcp.q3m7xkd2hpw5nrz4tb6c',
  webhookSecret: 'whsec_3xQvR9mT2bLcW7nYdK5pFh8sJ1uZ4aGe6oNi0yVtXrM',
  userId: 'u5nq3c7vjk2mxz4ahpdw',
} as const;

const PATH_PARAMETERS = {
  envId: { type: 'string', description: 'The environment id.', examples: [EXAMPLE.envId] },
  accountId: { type: 'string', description: 'The account id.', examples: [EXAMPLE.accountId] },
  campaignId: {
    type: 'string',
    description: "The campaign's id, or its slug (an id is looked up first).",
    examples: [EXAMPLE.campaignId],
  },
  accessId: { type: 'string', description: 'The access id.', examples: [EXAMPLE.accessId] },
  webhookId: { type: 'string', description: 'The webhook id.', examples: [EXAMPLE.webhookId] },
  userId: { type: 'string', description: "The user's id.", examples: [EXAMPLE.userId] },
  deliveryId: { type: 'string', description: 'The delivery id.', examples: [EXAMPLE.deliveryId] },
} as const;

/** The `params` schema of a route whose path holds `names`. */
export const pathParameters = (...names: Array<keyof typeof PATH_PARAMETERS>) => ({
  type: 'object',
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, PATH_PARAMETERS[name]])),
});

/** Request headers of a conditional GET (§2.5). */
export const conditionalHeaders = {
  type: 'object',
  properties: {
    'if-none-match': {
      type: 'string',
      description:
        'ETags of copies the client holds; a match answers 304. Takes precedence over If-Modified-Since.',
      examples: ['"fW5OCNnosXEIlV2j4qQbTGxaMf7QYRz9"'],
    },
    'if-modified-since': {
      type: 'string',
      description:
        'Used only without If-None-Match; ignored when it is not a valid date or lies in the future.',
      examples: ['Sun, 22 Nov 2026 10:00:00 GMT'],
    },
  },
} as const;

/** Response headers of a conditional GET's 200 and 304 (§2.5). */
export const conditionalAnswerHeaders = {
  ETag: { type: 'string', description: 'Strong; changes with every change of the answer.' },
  'Last-Modified': {
    type: 'string',
    description: "The environment's configuration time (whole seconds), never later than Date.",
  },
  'Cache-Control': { type: 'string', description: '`no-cache`: revalidate before each use.' },
} as const;

/** A 304 answer: no body. */
export const notModifiedResponse = {
  description: 'Not modified: the copy the client holds is current. No body.',
  type: 'null',
  headers: conditionalAnswerHeaders,
} as const;

/** Request headers of a report route's conditional GET (issue 31, report-etag.ts). */
export const reportConditionalHeaders = {
  type: 'object',
  properties: {
    'if-none-match': {
      type: 'string',
      description:
        'ETags of copies the client holds (a list, weak or strong form, or `*`); a match answers 304 with no body.',
      examples: ['W/"hM3qW0n1yXkq2f0VxZ7cJ9s8d4L6aPbE"'],
    },
  },
} as const;

/** Response headers of a report route's 200 and 304. */
export const reportAnswerHeaders = {
  ETag: {
    type: 'string',
    description:
      "Weak; changes when a row the figures count is stored, when the campaign's stored definition (names, allocations, analysis settings) changes, and for a daily series at midnight UTC. Not when only generated_at would.",
  },
  'Cache-Control': { type: 'string', description: '`private, no-cache`: revalidate before each use.' },
} as const;

/** A report route's 304: no body; the copy the client holds (its generated_at included) is current. */
export const reportNotModifiedResponse = {
  description:
    'Not modified: nothing the answer is computed from has changed since the copy the client holds. No body; the copy keeps its generated_at.',
  type: 'null',
  headers: reportAnswerHeaders,
} as const;

/** A 2xx answer without a body. */
export const noContentResponse = (description: string) => ({ description, type: 'null' }) as const;

/** An error answer (§2.4): what is wrong and what to change, a stable code, field details when known. */
export const errorBodySchema = {
  title: 'Error',
  type: 'object',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string' },
    code: { type: 'string', enum: ERROR_CODES },
    details: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
    requestId: { type: 'string', description: 'Only on 500: the id under which the server logged it.' },
  },
  examples: [
    {
      message: 'variation_groups[0].variations[1].allocation: must be an integer from 0 to 100',
      code: 'invalid_body',
      details: [
        {
          path: 'variation_groups[0].variations[1].allocation',
          message: 'must be an integer from 0 to 100',
        },
      ],
    },
  ],
} as const;

/** The body an ApiError is answered with (error-handler.ts). */
export const errorAnswer = (error: ApiError): ErrorBody => ({
  message: error.message,
  code: error.code,
  ...(error.details === undefined ? {} : { details: error.details }),
});

/** A §2.4 error answer with its examples. */
export const errorResponse = (description: string, ...examples: ErrorBody[]) => ({
  ...errorBodySchema,
  description,
  examples,
});

/** The 500 every route may answer on a server fault, never on anything a client sent (§2.4). */
export const internalErrorResponse = errorResponse(
  'A server fault, logged under the request id. Never an answer to what a client sent.',
  { ...errorAnswer(errors.internal(EXAMPLE.requestId)), requestId: EXAMPLE.requestId },
);

const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'unsupported_grant_type',
  'invalid_scope',
  'slow_down',
] as const satisfies ReadonlyArray<OAuthErrorBody['error']>;

/** A token route's error answer (RFC 6749 §5.2) with its examples. */
export const oauthErrorResponse = (description: string, ...examples: OAuthErrorBody[]) => ({
  title: 'OAuth error',
  description,
  type: 'object',
  required: ['error', 'error_description'],
  properties: {
    error: { type: 'string', enum: OAUTH_ERRORS },
    error_description: { type: 'string', description: 'What is wrong and what to change.' },
  },
  examples,
});

/** The 429 of the token routes (§13.7), with the wait in Retry-After. */
export const oauthRateLimitedResponse = {
  ...oauthErrorResponse(
    'Too many requests from this address, or failed authentications: wait Retry-After seconds.',
    {
      error: 'slow_down',
      error_description: 'Too many requests from this address: retry in 2 s.',
    },
  ),
  headers: { 'Retry-After': { type: 'string', description: 'Seconds to wait before the next attempt.' } },
};
