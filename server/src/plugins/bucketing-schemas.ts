// Schemas of the bucketing file and account settings (PROTOCOL.md §6), for the OpenAPI document: the CDN
// routes' answers, and the campaign format the operator import reads. The SDK-facing bodies are camelCase.
import {
  CAMPAIGN_TYPES,
  TARGETING_OPERATORS,
  type AccountSettingsFile,
  type BucketingCampaign,
  type BucketingFile,
} from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { URL_PROBLEMS } from '../http/error-handler.js';
import { STORABLE_TEXT_RULE } from '../validation/storable-text.js';
import {
  conditionalAnswerHeaders,
  conditionalHeaders,
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  notModifiedResponse,
  pathParameters,
  security,
  type RouteSchema,
} from './shared-schemas.js';

/** Account settings (§8.5, §8.6). */
export const accountSettingsSchema = {
  type: 'object',
  required: ['enabledXPC', 'enabled1V1T'],
  properties: {
    enabledXPC: {
      type: 'boolean',
      description:
        'Experience continuity: a visitor keeps the variations it saw anonymously once it logs in.',
    },
    enabled1V1T: {
      type: 'boolean',
      description: 'One visitor, one test: at most one `ab` campaign applies to a visitor.',
    },
  },
} as const;

/** A variation's modifications: flag key → value. */
export const modificationsSchema = {
  type: 'object',
  required: ['type', 'value'],
  properties: {
    type: { type: 'string', description: 'The modification type, e.g. FLAG.' },
    value: {
      type: 'object',
      additionalProperties: true,
      description: 'Flag key → any JSON value; null means "this variation does not set the key".',
    },
  },
} as const;

const targetingSchema = {
  type: 'object',
  required: ['operator', 'key', 'value'],
  properties: {
    operator: { type: 'string', enum: TARGETING_OPERATORS },
    key: {
      type: 'string',
      description: 'A context key; fs_all_users matches everyone, fs_users compares with the visitor id.',
    },
    value: { description: 'Any JSON value; a list matches any (for NOT_*: every) item.' },
  },
} as const;

/** A campaign in the bucketing format (§6). */
export const bucketingCampaignSchema = {
  type: 'object',
  required: ['id', 'name', 'type', 'variationGroups'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', enum: CAMPAIGN_TYPES },
    slug: { type: ['string', 'null'], description: 'May be absent or null.' },
    bucketRanges: {
      type: 'array',
      description: "The campaign's share of traffic: percent ranges [from, to); absent means [[0, 100]].",
      items: {
        type: 'object',
        required: ['r'],
        properties: {
          r: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number', minimum: 0, maximum: 100 } },
        },
      },
    },
    analysis: {
      description:
        'Import only, never in the served file (SDKs do not use it): the report\'s settings, as in the remote control API (PROTOCOL.md §14.6, snake_case: {"primary_goal": {"type": "event", "name": "add_to_cart"}, "method": "sequential", "alpha": 0.05, "expected_visitors": 5000}); fields left out take the defaults.',
    },
    variationGroups: {
      type: 'array',
      description: 'In order: a visitor gets the first group whose targeting matches (§8.3).',
      items: {
        type: 'object',
        required: ['id', 'name', 'variations'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          targeting: {
            type: 'object',
            required: ['targetingGroups'],
            description:
              'Matches when any targeting group matches, a group when all its targetings match (§7).',
            properties: {
              targetingGroups: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['targetings'],
                  properties: { targetings: { type: 'array', items: targetingSchema } },
                },
              },
            },
          },
          variations: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name', 'modifications'],
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                reference: { type: 'boolean' },
                allocation: {
                  type: 'integer',
                  minimum: 0,
                  maximum: 100,
                  description: 'Percent of the group; absent means 0 (§8.2).',
                },
                modifications: modificationsSchema,
              },
            },
          },
        },
      },
    },
  },
} as const;

/** The campaign most examples show: an A/B test of a green button for everyone, 50/50. */
export const checkoutCampaignExample = {
  id: 'c1',
  name: 'Checkout',
  slug: 'checkout',
  type: 'ab',
  variationGroups: [
    {
      id: 'vg1',
      name: 'Everyone',
      targeting: {
        targetingGroups: [{ targetings: [{ key: 'fs_all_users', value: '', operator: 'EQUALS' }] }],
      },
      variations: [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: null } },
        },
        {
          id: 'v2',
          name: 'Green',
          reference: false,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: 'green' } },
        },
      ],
    },
  ],
} satisfies BucketingCampaign;

const bucketingFileExample = {
  panic: false,
  campaigns: [checkoutCampaignExample],
  accountSettings: { enabledXPC: false, enabled1V1T: false },
} satisfies BucketingFile;

const accountSettingsExample = {
  accountSettings: { enabledXPC: false, enabled1V1T: false },
} satisfies AccountSettingsFile;

const unknownEnvironment = errorResponse(
  'No environment has this id.',
  errorAnswer(errors.unknownEnvironment('nope')),
);

/** The 400 of a route with the environment in its path: a URL that is malformed or holds unstorable text. */
export const malformedPathResponse = errorResponse(
  'The URL is malformed (invalid_url: broken percent-encoding, or a path segment over 100 characters), or the environment id holds U+0000 or a lone surrogate (invalid_body).',
  errorAnswer(errors.invalidUrl(URL_PROBLEMS.FST_ERR_BAD_URL)),
  errorAnswer(errors.invalidUrl(URL_PROBLEMS.FST_ERR_MAX_PARAM_LENGTH)),
  errorAnswer(errors.invalidBody('path.envId', STORABLE_TEXT_RULE)),
);

/** `GET /cdn/{envId}/bucketing.json`. */
export const bucketingFileRouteSchema: RouteSchema = {
  summary: 'Get the bucketing file',
  description:
    'Every active campaign of the environment in order, panic and account settings, for SDKs that decide locally (PROTOCOL.md §6). Conditional (§2.5): send the ETag back in If-None-Match (If-Modified-Since is used only without it, and ignored when it lies in the future). No API key. Paused and interrupted campaigns are left out.',
  tags: ['sdk'],
  security: security.none,
  params: pathParameters('envId'),
  headers: conditionalHeaders,
  response: {
    200: {
      title: 'Bucketing file',
      description: 'The bucketing file.',
      type: 'object',
      required: ['panic', 'campaigns'],
      properties: {
        panic: {
          type: 'boolean',
          description: 'true: SDKs serve every flag at its default and send no activation and no hit.',
        },
        campaigns: { type: 'array', items: bucketingCampaignSchema },
        accountSettings: accountSettingsSchema,
      },
      headers: conditionalAnswerHeaders,
      examples: [bucketingFileExample],
    },
    304: notModifiedResponse,
    400: malformedPathResponse,
    404: unknownEnvironment,
    500: internalErrorResponse,
  },
};

/** `GET /cdn/{envId}/accountSettings.json`. */
export const accountSettingsRouteSchema: RouteSchema = {
  summary: 'Get the account settings',
  description:
    "The environment's account settings alone (PROTOCOL.md §6), conditional like the bucketing file. No API key.",
  tags: ['sdk'],
  security: security.none,
  params: pathParameters('envId'),
  headers: conditionalHeaders,
  response: {
    200: {
      title: 'Account settings',
      description: 'The account settings.',
      type: 'object',
      required: ['accountSettings'],
      properties: { accountSettings: accountSettingsSchema },
      headers: conditionalAnswerHeaders,
      examples: [accountSettingsExample],
    },
    304: notModifiedResponse,
    400: malformedPathResponse,
    404: unknownEnvironment,
    500: internalErrorResponse,
  },
};
