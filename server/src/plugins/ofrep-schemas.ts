// The OFREP routes' schemas (PROTOCOL.md §18; open-feature/protocol service/openapi.yaml): requests are
// checked against them, and the OpenAPI document is built from them. Their error answers are in
// ofrep-error-schemas.ts.
import { CONTEXT_LIMITS } from 'feature-ts/protocol';
import { JSON_OR_TEXT } from '../http/json-body.js';
import { ofrepErrors } from '../http/ofrep-errors.js';
import {
  STREAM_INACTIVITY_DELAY_SEC,
  type OfrepBulkAnswer,
  type OfrepEvaluation,
} from '../services/ofrep-answers.js';
import { STORABLE_TEXT_NOTE } from './activation-schemas.js';
import {
  CONTEXT_RULE,
  answer,
  badRequest,
  errorResponse,
  internal,
  tooLarge,
  unauthorized,
  wrongType,
} from './ofrep-error-schemas.js';
import { EXAMPLE, security, type RouteSchema } from './shared-schemas.js';

const contextSchema = {
  type: 'object',
  required: ['targetingKey'],
  // The decision API's limits (§3), the targeting key aside.
  maxProperties: CONTEXT_LIMITS.maxKeys + 1,
  propertyNames: { minLength: 1, maxLength: CONTEXT_LIMITS.maxKeyLength },
  properties: {
    targetingKey: {
      type: 'string',
      minLength: 1,
      maxLength: CONTEXT_LIMITS.maxVisitorIdLength,
      'x-storable': true,
      'x-if-missing': 'send the visitor id as context.targetingKey',
      description: `The visitor id: allocation hashes it and assignments are remembered under it (§8). ${STORABLE_TEXT_NOTE}`,
    },
  },
  additionalProperties: {
    type: ['string', 'number', 'boolean'],
    maxLength: CONTEXT_LIMITS.maxStringValueLength,
    'x-rule': CONTEXT_RULE,
  },
  'x-storable-keys': true,
  description: `targetingKey is the visitor id; every other key is the visitor's context, as in a decision request (§3): strings, finite numbers or booleans, at most ${CONTEXT_LIMITS.maxKeys} keys and ${CONTEXT_LIMITS.maxSerializedBytes} bytes as JSON. Keys and string values: ${STORABLE_TEXT_NOTE}`,
} as const;

const requestBody = {
  title: 'OFREP evaluation request',
  description: 'Unknown fields beside context are ignored.',
  type: 'object',
  required: ['context'],
  properties: {
    context: { ...contextSchema, 'x-if-missing': 'send {"context":{"targetingKey":"<visitor id>"}}' },
  },
  examples: [
    { context: { targetingKey: 'visitor-1', plan: 'premium' } },
    { context: { targetingKey: 'visitor-2', plan: 'free', age: 31, beta: false } },
  ],
} as const;

const metadataSchema = {
  type: 'object',
  description: 'Where the value comes from; empty in panic.',
  properties: {
    campaignId: { type: 'string' },
    campaignType: { type: 'string', description: 'ab, toggle, deployment or perso.' },
    slug: { type: 'string', description: '"" when the campaign has none.' },
    variationGroupId: { type: 'string' },
    variationId: { type: 'string' },
    isReference: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

const evaluationSchema = {
  type: 'object',
  required: ['key', 'reason', 'metadata'],
  properties: {
    key: { type: 'string' },
    value: {
      type: ['string', 'number', 'boolean', 'object', 'array'],
      additionalProperties: true,
      description:
        "The flag's value. Absent when the visitor's variation does not set the flag (the application uses its default: OFREP's code-default form), and in panic.",
    },
    variant: { type: 'string', description: "The variation's name; absent in panic." },
    reason: {
      type: 'string',
      enum: ['SPLIT', 'TARGETING_MATCH', 'DISABLED'],
      description:
        'SPLIT: an A/B test allocated the variation; TARGETING_MATCH: another campaign type whose targeting matched; DISABLED: panic.',
    },
    metadata: metadataSchema,
  },
} as const;

const greenButton = {
  key: 'btnColor',
  value: 'green',
  variant: 'Green',
  reason: 'SPLIT',
  metadata: {
    campaignId: 'c1',
    campaignType: 'ab',
    slug: 'checkout',
    variationGroupId: 'vg1',
    variationId: 'v2',
    isReference: false,
  },
} satisfies OfrepEvaluation;

const referenceButton = {
  key: 'btnColor',
  variant: 'Original',
  reason: 'SPLIT',
  metadata: { ...greenButton.metadata, variationId: 'v1', isReference: true },
} satisfies OfrepEvaluation;

const premiumBanner = {
  key: 'banner',
  value: true,
  variant: 'On',
  reason: 'TARGETING_MATCH',
  metadata: {
    campaignId: 'c2',
    campaignType: 'toggle',
    slug: '',
    variationGroupId: 'vg2',
    variationId: 'v3',
    isReference: true,
  },
} satisfies OfrepEvaluation;

const disabledButton = { key: 'btnColor', reason: 'DISABLED', metadata: {} } satisfies OfrepEvaluation;

const CHECKS =
  'Checks in order: 401 API key, 415, 413, 400. Nothing is stored but the sticky assignments a decision stores (§8.4): no activation (OFREP never counts an exposure) and no context hit.';

/** `POST /ofrep/v1/evaluate/flags/{key}`. */
export const ofrepFlagRouteSchema: RouteSchema = {
  summary: 'Evaluate one flag (OFREP)',
  description: `OpenFeature Remote Evaluation Protocol (PROTOCOL.md §18): the flag as the decision API decides it for the visitor context.targetingKey (§8, §9, sticky assignments included). ${CHECKS}`,
  tags: ['ofrep'],
  security: security.ofrep,
  params: {
    type: 'object',
    required: ['key'],
    properties: { key: { type: 'string', description: 'The flag key.', examples: ['btnColor'] } },
  },
  consumes: JSON_OR_TEXT,
  body: requestBody,
  response: {
    200: {
      title: 'OFREP evaluation',
      description: 'The flag, its variation and why.',
      ...evaluationSchema,
      examples: [greenButton, referenceButton, premiumBanner, disabledButton],
    },
    400: badRequest(true),
    401: unauthorized,
    404: errorResponse(
      'No campaign gives this visitor the flag (in panic: no campaign sets it).',
      ['FLAG_NOT_FOUND'],
      true,
      answer(ofrepErrors.flagNotFound('btnColour'), 'btnColour'),
    ),
    413: tooLarge,
    415: wrongType,
    500: internal,
  },
};

const bulkExample = {
  flags: [greenButton, premiumBanner],
  metadata: {},
  eventStreams: [
    {
      type: 'sse',
      url: `http://127.0.0.1:8080/v1/${EXAMPLE.envId}/stream?event=message`,
      inactivityDelaySec: STREAM_INACTIVITY_DELAY_SEC,
    },
  ],
} satisfies OfrepBulkAnswer;

/** `POST /ofrep/v1/evaluate/flags`. */
export const ofrepBulkRouteSchema: RouteSchema = {
  summary: 'Evaluate every flag (OFREP)',
  description: `OpenFeature Remote Evaluation Protocol bulk evaluation (PROTOCOL.md §18): every flag the visitor context.targetingKey gets, as the decision API decides them; in panic every flag the campaigns set, DISABLED. eventStreams names the environment's change stream (§17): a change there means evaluate again. The ETag is a digest of the answer; If-None-Match with it answers 304. ${CHECKS}`,
  tags: ['ofrep'],
  security: security.ofrep,
  headers: {
    type: 'object',
    properties: {
      'if-none-match': {
        type: 'string',
        description: 'The ETag of the answer the client holds; the same answer now gives 304.',
        examples: ['"k3nS0hX2mWJ9uYcQe4VtL7aPbR1dF6gZ"'],
      },
    },
  },
  consumes: JSON_OR_TEXT,
  body: requestBody,
  response: {
    200: {
      title: 'OFREP bulk evaluation',
      description: 'Every flag the visitor gets, in the order of the decision (§9.1).',
      type: 'object',
      required: ['flags', 'metadata', 'eventStreams'],
      properties: {
        flags: { type: 'array', items: evaluationSchema },
        metadata: { type: 'object', additionalProperties: false },
        eventStreams: {
          type: 'array',
          items: {
            type: 'object',
            required: ['type', 'url', 'inactivityDelaySec'],
            properties: {
              type: { type: 'string', enum: ['sse'] },
              url: {
                type: 'string',
                description: "The environment's change stream (§17), on this server's origin.",
              },
              inactivityDelaySec: {
                type: 'integer',
                minimum: 0,
                description: 'Seconds of inactivity after which a client closes the stream.',
              },
            },
          },
        },
      },
      headers: { ETag: { type: 'string', description: 'Strong: a digest of this answer.' } },
      examples: [bulkExample, { ...bulkExample, flags: [disabledButton] }],
    },
    304: {
      description: 'Not modified: the answer is the one whose ETag was sent. No body.',
      type: 'null',
      headers: { ETag: { type: 'string', description: 'The same ETag.' } },
    },
    400: badRequest(false),
    401: unauthorized,
    413: tooLarge,
    415: wrongType,
    500: internal,
  },
};
