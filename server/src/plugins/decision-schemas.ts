// The decision route's schema (PROTOCOL.md §3): the route's requests are checked against it, and the OpenAPI
// document is built from it.
import { CAMPAIGN_TYPES, CONTEXT_LIMITS, type Decision, type DecisionRequest } from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { URL_PROBLEMS } from '../http/error-handler.js';
import { STORABLE_TEXT_NOTE } from './activation-schemas.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import { accountSettingsSchema, modificationsSchema } from './bucketing-schemas.js';
import {
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  pathParameters,
  security,
  type RouteSchema,
} from './shared-schemas.js';

const visitorIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: CONTEXT_LIMITS.maxVisitorIdLength,
  'x-storable': true,
} as const;
const anonymousIdSchema = {
  type: ['string', 'null'],
  minLength: 1,
  maxLength: CONTEXT_LIMITS.maxVisitorIdLength,
  'x-storable': true,
} as const;

const contextSchema = {
  // null is read as {} (some SDKs send it).
  type: ['object', 'null'],
  maxProperties: CONTEXT_LIMITS.maxKeys,
  propertyNames: { minLength: 1, maxLength: CONTEXT_LIMITS.maxKeyLength },
  additionalProperties: {
    type: ['string', 'number', 'boolean'],
    maxLength: CONTEXT_LIMITS.maxStringValueLength,
    'x-rule': 'must be a string, a finite number or a boolean',
  },
  'x-storable-keys': true,
  description: `Case-sensitive keys to strings, finite numbers or booleans: at most ${CONTEXT_LIMITS.maxKeys} keys and ${CONTEXT_LIMITS.maxSerializedBytes} bytes as JSON, a string value at most ${CONTEXT_LIMITS.maxStringValueLength} characters. Targeting compares these (§7). Keys and string values: ${STORABLE_TEXT_NOTE}`,
  examples: [{ plan: 'premium', age: 31, fs_client: 'feature-ts' }],
} as const;

const requestExamples = [
  { visitorId: 'visitor-1', context: { plan: 'premium' } },
  {
    visitorId: 'user-42',
    anonymousId: 'anon-7',
    context: { plan: 'premium', age: 31 },
    triggerHit: false,
    visitorConsent: true,
  },
] satisfies DecisionRequest[];

const decisionExample = {
  visitorId: 'visitor-1',
  campaigns: [
    {
      id: 'c1',
      name: 'Checkout',
      slug: 'checkout',
      type: 'ab',
      variationGroupId: 'vg1',
      variationGroupName: 'Everyone',
      variation: {
        id: 'v2',
        name: 'Green',
        reference: false,
        modifications: { type: 'FLAG', value: { btnColor: 'green' } },
      },
    },
  ],
  extras: { accountSettings: { enabledXPC: false, enabled1V1T: false } },
} satisfies Decision;

const panicExample = { visitorId: 'visitor-1', campaigns: [], panic: true } satisfies Decision;

const decisionCampaignSchema = {
  type: 'object',
  required: ['id', 'name', 'slug', 'type', 'variationGroupId', 'variationGroupName', 'variation'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    slug: { type: ['string', 'null'], description: 'null when the campaign has none.' },
    type: { type: 'string', enum: CAMPAIGN_TYPES },
    variationGroupId: { type: 'string' },
    variationGroupName: { type: 'string' },
    variation: {
      type: 'object',
      required: ['id', 'name', 'reference', 'modifications'],
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        reference: { type: 'boolean' },
        modifications: modificationsSchema,
      },
    },
  },
} as const;

// Exactly `true` or `false`; anything else is 400 naming the parameter.
const queryFlag = (fallback: boolean, description: string) =>
  ({ type: 'boolean', default: fallback, description }) as const;

const extrasParameter = {
  type: 'array',
  items: { type: 'string' },
  description:
    'accountSettings adds extras.accountSettings (both spellings, extras and extras[], work); other values are ignored.',
} as const;

/** `POST /v2/{envId}/campaigns`. */
export const decisionRouteSchema: RouteSchema = {
  summary: 'Decide for a visitor',
  description:
    "Which variation of each campaign applies to one visitor (PROTOCOL.md §3), in the environment's campaign order. New assignments are remembered (sticky, §8.4); the context is stored as a SEGMENT hit unless sendContextEvent=false or consent is false. The body is JSON text, as application/json or text/plain, at most 64 KiB. Checks in order: 404 environment, 401/403 API key, 415, 413, 400.",
  tags: ['sdk'],
  security: security.apiKey,
  params: pathParameters('envId'),
  querystring: {
    type: 'object',
    properties: {
      exposeAllKeys: queryFlag(
        false,
        'true: keys another variation of the assigned group sets, but the assigned one does not, are added with null (§9.2).',
      ),
      extras: extrasParameter,
      'extras[]': extrasParameter,
      sendContextEvent: queryFlag(
        true,
        'false: the context is not stored as a SEGMENT hit (it is when consent is not false and the context is not empty).',
      ),
    },
  },
  consumes: JSON_OR_TEXT,
  body: {
    title: 'Decision request',
    description:
      'Every field is accepted in camelCase or snake_case (camelCase is read first); unknown fields are ignored.',
    type: 'object',
    anyOf: [{ required: ['visitorId'] }, { required: ['visitor_id'] }],
    properties: {
      visitorId: {
        ...visitorIdSchema,
        description: `The current id: the authenticated id once logged in. ${STORABLE_TEXT_NOTE}`,
      },
      visitor_id: visitorIdSchema,
      anonymousId: {
        ...anonymousIdSchema,
        description: `The anonymous id of an authenticated visitor (experience continuity, §8.5). ${STORABLE_TEXT_NOTE}`,
      },
      anonymous_id: anonymousIdSchema,
      context: contextSchema,
      triggerHit: {
        type: 'boolean',
        default: false,
        description: 'true: the server stores one activation per returned campaign itself (without hid).',
      },
      trigger_hit: { type: 'boolean', default: false },
      visitorConsent: {
        type: 'boolean',
        default: true,
        description: 'false: no context hit and no activation are stored (assignments still are).',
      },
      visitor_consent: { type: 'boolean', default: true },
    },
    examples: requestExamples,
  },
  response: {
    200: {
      title: 'Decision',
      description:
        'The decision: one entry per campaign the visitor gets, in campaign order; `campaigns: []` when nothing matches. In panic: no campaigns and `panic: true`.',
      type: 'object',
      required: ['visitorId', 'campaigns'],
      properties: {
        visitorId: { type: 'string' },
        campaigns: { type: 'array', items: decisionCampaignSchema },
        panic: { type: 'boolean', description: 'Present (true) only in panic: SDKs serve every default.' },
        extras: {
          type: 'object',
          description: 'With extras=accountSettings.',
          properties: { accountSettings: accountSettingsSchema },
        },
      },
      examples: [decisionExample, panicExample],
    },
    400: errorResponse(
      'The body is not UTF-8 JSON, or a field or query flag is wrong (named by its path), or the URL is malformed (invalid_url: broken percent-encoding, or a path segment over 100 characters).',
      errorAnswer(errors.invalidBody('context.a', 'must be a string, a finite number or a boolean')),
      errorAnswer(errors.invalidBody('visitorId', 'must not hold U+0000 or a lone surrogate')),
      errorAnswer(errors.invalidJson('Unexpected end of JSON input')),
      errorAnswer(errors.invalidUrl(URL_PROBLEMS.FST_ERR_BAD_URL)),
    ),
    401: {
      ...errorResponse('x-api-key is missing.', errorAnswer(errors.missingApiKey())),
      headers: {
        'WWW-Authenticate': { type: 'string', description: 'ApiKey realm="feature", header="x-api-key"' },
      },
    },
    403: errorResponse("x-api-key is not the environment's key.", errorAnswer(errors.invalidApiKey())),
    404: errorResponse('No environment has this id.', errorAnswer(errors.unknownEnvironment('nope'))),
    // The route's bodyLimit (DECISION_BODY_LIMIT); the OpenAPI test compares the two.
    413: errorResponse('The body is over 64 KiB.', errorAnswer(errors.payloadTooLarge(64 * 1024))),
    415: errorResponse(
      'The body is not application/json or text/plain.',
      errorAnswer(errors.unsupportedMediaType(JSON_OR_TEXT)),
    ),
    500: internalErrorResponse,
  },
};
