// Schemas of the hit routes (PROTOCOL.md §5, §12): the routes' requests are checked against them, their
// answers serialized by them, and the OpenAPI document built from them. Each hit of a batch is checked on its
// own against the hit schema (hit-schemas.ts), so a bad one is rejected by index and the others are kept.
import {
  HIT_LIMITS,
  MAX_REJECTIONS_LISTED,
  type CollectAnswer,
  type HitBatch,
  type UsageHit,
} from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import { STORABLE_TEXT_NOTE, collectAnswerSchema, environmentIdSchema } from './activation-schemas.js';
import { hitSchema } from './hit-schemas.js';
import {
  EXAMPLE,
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  security,
  type RouteSchema,
} from './shared-schemas.js';

// The longest SDK name and version a usage count keeps (§12).
const USAGE_NAME_LENGTH = 100;
const USAGE_VERSION_LENGTH = 50;

const batchExample = {
  cid: EXAMPLE.envId,
  ds: 'APP',
  t: 'BATCH',
  qt: 0,
  h: [
    {
      t: 'SCREENVIEW',
      vid: 'anon-7',
      cuid: 'user-42',
      qt: 950,
      hid: '2f0c8a5e-3b1d-4c6e-8f7a-9b0c1d2e3f40',
      dl: 'checkout',
    },
    {
      t: 'EVENT',
      vid: 'anon-7',
      cuid: null,
      qt: 10,
      hid: '77aa1b2c-3d4e-4f50-9a6b-7c8d9e0f1a2b',
      ec: 'Action Tracking',
      ea: 'add_to_cart',
      el: 'btn',
      ev: 3,
    },
    {
      t: 'TRANSACTION',
      vid: 'anon-7',
      cuid: 'user-42',
      qt: 5,
      hid: 'c3e1d2f3-4a5b-4c6d-8e7f-8091a2b3c4d5',
      tid: 'T1',
      ta: 'Purchase',
      tr: 20.5,
      tc: 'EUR',
    },
  ],
} satisfies HitBatch;

const singleExample = {
  cid: EXAMPLE.envId,
  t: 'PAGEVIEW',
  vid: 'visitor-1',
  qt: 0,
  dl: 'https://shop.example/checkout',
};

const collectErrors = {
  404: errorResponse('No environment has the id cid.', errorAnswer(errors.unknownEnvironment('nope'))),
  // The routes' bodyLimit (COLLECT_BODY_LIMIT); the OpenAPI test compares the two.
  413: errorResponse('The body is over 3 MiB.', errorAnswer(errors.payloadTooLarge(3 * 1024 * 1024))),
  415: errorResponse(
    'The body is not application/json or text/plain.',
    errorAnswer(errors.unsupportedMediaType(JSON_OR_TEXT)),
  ),
  500: internalErrorResponse,
} as const;

const collected = (description: string, example: CollectAnswer) => ({
  ...collectAnswerSchema,
  description,
  examples: [example],
});

/** `POST /events`. */
export const hitsRouteSchema: RouteSchema = {
  summary: 'Send hits',
  description: `Stores analytics hits: screen and page views, events, transactions, items, contexts (PROTOCOL.md §5). Batch form (what our SDK sends) or one hit at the top level with its cid. The body is JSON text (UTF-8), as application/json or text/plain (sendBeacon), at most 3 MiB. No API key. Every accepted hit is committed before the answer; invalid hits are rejected by index, and so is every hit past the first ${HIT_LIMITS.maxHitsPerBatch} of a request (unread). The answer lists the first ${MAX_REJECTIONS_LISTED} rejections; rejectedCount gives the total. Every text a hit holds, unknown keys included, is stored as sent, or the hit is rejected.`,
  tags: ['sdk'],
  security: security.none,
  consumes: JSON_OR_TEXT,
  body: {
    title: 'Hits',
    type: 'object',
    required: ['cid'],
    properties: {
      cid: environmentIdSchema,
      h: { type: 'array', description: 'The hits of a batch.' },
    },
    anyOf: [
      {
        title: 'Batch',
        type: 'object',
        required: ['cid', 'h'],
        properties: {
          cid: { type: 'string', description: 'The environment id.' },
          ds: { type: 'string', description: '"APP"; not read.' },
          t: { type: 'string', description: '"BATCH"; not read when h is an array.' },
          qt: { type: 'number', description: "The batch's own qt is ignored." },
          h: {
            type: 'array',
            items: hitSchema,
            'x-per-item': true,
            description: `Each hit is checked on its own: a bad one is rejected by index. Hits past the first ${HIT_LIMITS.maxHitsPerBatch} are rejected by index, unread.`,
          },
        },
      },
      {
        title: 'One hit',
        description: 'One hit at the top level, with its cid; checked as a batch of one.',
        'x-per-item': true,
        allOf: [{ type: 'object', required: ['cid'] }, hitSchema],
      },
    ],
    examples: [batchExample, singleExample],
  },
  response: {
    200: collected('Valid hits are stored; invalid ones are listed by index with the field that is wrong.', {
      accepted: 3,
      duplicates: 0,
      rejected: [{ index: 3, message: 'h[3].ev must be an integer ≥ 0' }],
      rejectedCount: 1,
    }),
    400: errorResponse(
      'The body is not UTF-8 JSON, or not a hit batch at all (no h array and no hit type, cid not a string).',
      errorAnswer(errors.invalidBody('h', 'must be an array of hits (or send one hit with its t)')),
    ),
    ...collectErrors,
  },
};

const usageExample = {
  t: 'USAGE',
  cid: EXAMPLE.envId,
  vid: 'a3c9f1e2-5b7d-4f60-8e12-9d4c6b8a0f31',
  cv: {
    version: '1',
    'stack.name': 'feature-ts',
    'stack.version': '0.1.0',
    'sdk.config.mode': 'DECISION_API',
    'sdk.config.timeout': '2000',
  },
} satisfies UsageHit;

/** `POST /events/analytics`. */
export const usageRouteSchema: RouteSchema = {
  summary: 'Count SDK usage',
  description:
    'Daily counts of SDK usage per environment, SDK name and version (PROTOCOL.md §12); only stack.name and stack.version are kept, no visitor data. JSON text, as application/json or text/plain. No API key.',
  tags: ['sdk'],
  security: security.none,
  consumes: JSON_OR_TEXT,
  body: {
    title: 'Usage hit',
    type: 'object',
    required: ['t', 'cid', 'cv'],
    properties: {
      t: { const: 'USAGE', 'x-rule': 'must be "USAGE" (a developer usage hit)' },
      cid: environmentIdSchema,
      vid: { type: 'string', description: "The SDK instance's id; not stored." },
      cv: {
        type: 'object',
        properties: {
          'stack.name': { type: 'string', minLength: 1, maxLength: USAGE_NAME_LENGTH },
          'stack.version': { type: 'string', minLength: 1, maxLength: USAGE_VERSION_LENGTH },
        },
        additionalProperties: { type: 'string' },
        'x-storable-keys': true,
        description: `Every value a string; keys and values: ${STORABLE_TEXT_NOTE} stack.name (1-100 characters) and stack.version (1-50) are stored as sent ("unknown" when absent).`,
      },
    },
    examples: [usageExample],
  },
  response: {
    200: collected('Counted.', { accepted: 1, duplicates: 0, rejected: [], rejectedCount: 0 }),
    400: errorResponse(
      't is not "USAGE", cid is not a string, a cv key or value is not a storable string, or stack.name or stack.version is empty or too long.',
      errorAnswer(errors.invalidBody('cv.version', 'must be a string')),
    ),
    ...collectErrors,
  },
};

/** `POST /events/troubleshooting`. */
export const troubleshootingRouteSchema: RouteSchema = {
  summary: 'Accept troubleshooting hits',
  description:
    "Accepts the platform SDKs' troubleshooting hits so that they are not retried, and keeps none (PROTOCOL.md §5.1). Any JSON body; no cid check.",
  tags: ['sdk'],
  security: security.none,
  consumes: JSON_OR_TEXT,
  body: {
    title: 'Troubleshooting hit',
    description: 'Any JSON value.',
    examples: [
      {
        t: 'TROUBLESHOOTING',
        cid: EXAMPLE.envId,
        vid: 'visitor-1',
        cv: { version: '1', logLevel: 'INFO', label: 'VISITOR_FETCH_CAMPAIGNS' },
      },
    ],
  },
  response: {
    200: collected('Accepted and discarded.', { accepted: 0, duplicates: 0, rejected: [], rejectedCount: 0 }),
    400: errorResponse(
      'The body is not JSON.',
      errorAnswer(errors.invalidJson('Unexpected end of JSON input')),
    ),
    413: collectErrors[413],
    415: collectErrors[415],
    500: internalErrorResponse,
  },
};
