// The activation route's schema (PROTOCOL.md §4): the envelope is checked by the route's validator, each
// item on its own against the activation schema (checkActivation), so a bad one is rejected by its index
// and the others are kept.
import {
  HIT_LIMITS,
  MAX_ACTIVATIONS_PER_BATCH,
  MAX_ACTIVATIONS_PROCESSED,
  MAX_REJECTIONS_LISTED,
  type ActivationBatch,
  type ActivationItem,
  type CollectAnswer,
} from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import {
  EXAMPLE,
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  noContentResponse,
  security,
  type RouteSchema,
} from './shared-schemas.js';

const visitorId = { type: 'string', minLength: 1, maxLength: 256, 'x-storable': true } as const;

/** What every stored text of the SDK routes must be (§2.1), said in its fields' descriptions. */
export const STORABLE_TEXT_NOTE = 'Without U+0000 or a lone surrogate (stored as sent, or refused).';

/** `cid` of an activation or hit body: the environment the items belong to. */
export const environmentIdSchema = {
  type: 'string',
  'x-rule': 'must be the environment id (a string)',
  description: 'The environment id.',
} as const;

/** `qt` on activations and hits (§5.1). */
export const queueTimeSchema = {
  type: 'integer',
  minimum: 0,
  maximum: HIT_LIMITS.maxQueueTimeMs,
  'x-rule': `must be an integer from 0 to ${HIT_LIMITS.maxQueueTimeMs} (ms, one day)`,
  default: 0,
  description:
    'Queue time in ms (at most one day): send time minus creation time. The item is dated received time − qt.',
} as const;
const id = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;

const activationProperties = {
  vid: {
    ...visitorId,
    description: `The visitor's current id: the authenticated id after login. ${STORABLE_TEXT_NOTE}`,
  },
  aid: {
    type: ['string', 'null'],
    minLength: 1,
    maxLength: 256,
    'x-storable': true,
    description: `The anonymous id of an authenticated visitor. ${STORABLE_TEXT_NOTE}`,
  },
  caid: {
    ...id,
    'x-rule': 'must be a variation group id (1-64 letters, digits, _ or -)',
    description: 'The variation group id (the platform names it caid; not the campaign id).',
  },
  vaid: {
    ...id,
    'x-rule': 'must be a variation id (1-64 letters, digits, _ or -)',
    description: 'The variation id; it must belong to caid in this environment, now or before.',
  },
  qt: queueTimeSchema,
  hid: {
    type: 'string',
    minLength: 1,
    maxLength: 128,
    'x-storable': true,
    description: `Idempotency id (our SDK: a UUID v4): a second arrival counts as a duplicate (§5.4). ${STORABLE_TEXT_NOTE}`,
  },
} as const;

/** One activation; the route checks each on its own (`x-per-item`), so a bad one is rejected by index. */
export const activationItemSchema = {
  title: 'Activation',
  type: 'object',
  required: ['vid', 'caid', 'vaid'],
  properties: {
    ...activationProperties,
    cid: { type: 'string', description: "May repeat the batch's cid; a different one rejects the item." },
  },
} as const;

const batchExample = {
  cid: EXAMPLE.envId,
  batch: [
    {
      vid: 'user-42',
      aid: 'anon-7',
      caid: 'vg1',
      vaid: 'v2',
      qt: 120,
      hid: '6f1c2a4e-1b7d-4c1e-9a51-3f0a9d2b7c11',
    },
  ],
} satisfies ActivationBatch;

const singleExample = {
  cid: EXAMPLE.envId,
  vid: 'visitor-1',
  aid: null,
  caid: 'vg1',
  vaid: 'v1',
  qt: 0,
} satisfies ActivationItem;

/** The 200 answer of the activation and hit routes: what was kept, and each rejected item by index. */
export const collectAnswerSchema = {
  title: 'Collect answer',
  type: 'object',
  required: ['accepted', 'duplicates', 'rejected', 'rejectedCount'],
  properties: {
    accepted: { type: 'integer', minimum: 0, description: 'Items stored now (committed before the answer).' },
    duplicates: { type: 'integer', minimum: 0, description: 'Items whose hid was already stored.' },
    rejectedCount: {
      type: 'integer',
      minimum: 0,
      description: 'How many items were rejected in all, listed in rejected or not.',
    },
    rejected: {
      type: 'array',
      maxItems: MAX_REJECTIONS_LISTED,
      description: `The first ${MAX_REJECTIONS_LISTED} invalid items in index order, not stored and not worth retrying; the message names the field.`,
      items: {
        type: 'object',
        required: ['index', 'message'],
        properties: { index: { type: 'integer', minimum: 0 }, message: { type: 'string' } },
      },
    },
  },
} as const;

const partialExample = {
  accepted: 1,
  duplicates: 0,
  rejected: [
    {
      index: 1,
      message: 'batch[1].vaid "v9" is not a variation of variation group "vg1" in this environment',
    },
  ],
  rejectedCount: 1,
} satisfies CollectAnswer;

/** `POST /v2/activate`. */
export const activationRouteSchema: RouteSchema = {
  summary: 'Report exposures (activations)',
  description: `Records that visitors were exposed to a variation: one visit each in the report (PROTOCOL.md §4, §14.1). Batch form (what our SDK sends, ${MAX_ACTIVATIONS_PER_BATCH} items at most) or one activation at the top level. The first ${MAX_ACTIVATIONS_PROCESSED} items of a request are processed, and any further item is rejected by index (never a 400 for the size). The body is JSON text (UTF-8), as application/json or text/plain (sendBeacon), at most 3 MiB. x-api-key may be left out; when sent it must be the key of cid. Checks in order: 415, 413, 400, 404 cid, 403 key, then each item.`,
  tags: ['sdk'],
  security: security.optionalApiKey,
  consumes: JSON_OR_TEXT,
  body: {
    title: 'Activations',
    type: 'object',
    required: ['cid'],
    properties: {
      cid: environmentIdSchema,
      batch: { type: 'array', description: 'The activations of a batch.' },
    },
    anyOf: [
      {
        title: 'Batch',
        type: 'object',
        required: ['cid', 'batch'],
        properties: {
          cid: { type: 'string', description: 'The environment id.' },
          batch: {
            type: 'array',
            items: activationItemSchema,
            'x-per-item': true,
            description: `Each item is checked on its own: a bad one is rejected by index. Items past the first ${MAX_ACTIVATIONS_PROCESSED} are rejected by index, unread.`,
          },
        },
      },
      {
        title: 'One activation',
        description: 'One activation at the top level, with its cid; checked as a batch of one.',
        'x-per-item': true,
        type: 'object',
        required: ['cid', 'vid', 'caid', 'vaid'],
        properties: { cid: { type: 'string', description: 'The environment id.' }, ...activationProperties },
      },
    ],
    examples: [batchExample, singleExample],
  },
  response: {
    200: {
      ...collectAnswerSchema,
      description: 'Some items were invalid: the valid ones are stored, the others listed by index.',
      examples: [partialExample],
    },
    204: noContentResponse('Every item was stored, or was a duplicate.'),
    400: errorResponse(
      'The body is not UTF-8 JSON, not an activation at all, or its cid is not a string.',
      errorAnswer(
        errors.invalidBody(
          'batch',
          'must be an array of activations (or send one activation with caid and vaid)',
        ),
      ),
    ),
    403: errorResponse(
      "x-api-key is sent and is not the environment's key.",
      errorAnswer(errors.invalidApiKey()),
    ),
    404: errorResponse('No environment has the id cid.', errorAnswer(errors.unknownEnvironment('nope'))),
    // The route's bodyLimit (COLLECT_BODY_LIMIT); the OpenAPI test compares the two.
    413: errorResponse('The body is over 3 MiB.', errorAnswer(errors.payloadTooLarge(3 * 1024 * 1024))),
    415: errorResponse(
      'The body is not application/json or text/plain.',
      errorAnswer(errors.unsupportedMediaType(JSON_OR_TEXT)),
    ),
    500: internalErrorResponse,
  },
};
