// Schemas of the remote control routes (PROTOCOL.md §13.5, §13.6), for the OpenAPI document. The campaign
// bodies are campaign-schemas.ts's; campaignFromRemote and the routes check requests by hand, naming the
// field (shared-schemas.ts says why the schemas only document, toggle and panic bodies included).
import type { Action, RemoteCampaign } from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import {
  campaignCreateBodySchema,
  campaignPageSchema,
  campaignPatchBodySchema,
  campaignToggleBodySchema,
  panicAnswerSchema,
  panicBodySchema,
  remoteCampaignSchema,
} from '../remote/campaign-schemas.js';
import { campaignReportSchema } from './report-schemas.js';
import {
  EXAMPLE,
  conditionalAnswerHeaders,
  conditionalHeaders,
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  noContentResponse,
  notModifiedResponse,
  pathParameters,
  security,
  type RouteSchema,
} from './shared-schemas.js';

const [campaignExample] = remoteCampaignSchema.examples;

const createdExample = {
  id: 'fqgpcm4pcxiz5nx7fhvy',
  name: 'Checkout',
  description: 'Does a green button sell more?',
  type: 'ab',
  slug: 'checkout',
  state: 'paused',
  variation_groups: [
    {
      id: 'rnyl6x64yfyov3nf4zgx',
      name: 'Everyone',
      targeting: {
        targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }],
      },
      variations: [
        {
          id: 'c4avawzv4dmscuaeqcv5',
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: null } },
        },
        {
          id: 'kk54z2l3a2lxlze5d523',
          name: 'Green',
          reference: false,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: 'green' } },
        },
      ],
    },
  ],
  bucket_ranges: [[0, 100]],
  created_at: EXAMPLE.time,
  updated_at: EXAMPLE.time,
} satisfies RemoteCampaign;

const later = '2026-11-22T10:05:00.000Z';

/** What every remote control route shares: tag, token, path, and the answers of §13.6. */
const remoteRoute = (action: Action, withCampaign: boolean) => ({
  tags: ['remote-control'],
  security: security.bearer(action),
  params: withCampaign
    ? pathParameters('accountId', 'envId', 'campaignId')
    : pathParameters('accountId', 'envId'),
  authErrors: {
    401: {
      ...errorResponse(
        'No bearer token, or one that is malformed, unknown, expired or revoked.',
        errorAnswer(errors.missingToken()),
        errorAnswer(errors.invalidToken()),
      ),
      headers: {
        'WWW-Authenticate': {
          type: 'string',
          description: 'Bearer realm="feature" (no token), or with error="invalid_token".',
        },
      },
    },
    403: {
      ...errorResponse(
        `The token does not grant ${action} on this environment, or belongs to another account.`,
        errorAnswer(errors.insufficientScope(`${action} env:${EXAMPLE.envId}`)),
      ),
      headers: {
        'WWW-Authenticate': {
          type: 'string',
          description: 'Bearer realm="feature", error="insufficient_scope", scope="<action> env:<envId>"',
        },
      },
    },
    500: internalErrorResponse,
  },
});

/** The route schema: `remoteRoute`'s parts with the route's own answers after the auth errors. */
const remoteSchema = (
  action: Action,
  withCampaign: boolean,
  schema: RouteSchema & { response: Record<number, unknown> },
): RouteSchema => {
  const { authErrors, ...shared } = remoteRoute(action, withCampaign);
  return { ...shared, ...schema, response: { ...schema.response, ...authErrors } };
};

const unknownEnvironment = errorResponse(
  'No environment has this id in this account (said only to a token allowed in it).',
  errorAnswer(errors.unknownEnvironment('nope')),
);
const unknownCampaign = errorResponse(
  'No environment has this id in this account, or no campaign has this id in it.',
  errorAnswer(errors.unknownEnvironment('nope')),
  errorAnswer(errors.unknownCampaign('nope')),
);
// The app's JSON parser (json-body.ts) and body limit serve these routes too.
const bodyErrors = {
  413: errorResponse('The body is over 1 MiB.', errorAnswer(errors.payloadTooLarge(1024 * 1024))),
  415: errorResponse('The body is not JSON.', errorAnswer(errors.unsupportedMediaType(JSON_OR_TEXT))),
} as const;
const conflict = (description: string, message: string) =>
  errorResponse(description, errorAnswer(errors.conflict(message)));
const idClash = conflict(
  'An id or the slug is already used in the environment (deleted campaigns included).',
  'The campaign id "c1" already belongs to a campaign of this environment: give it another id.',
);
const badField = (path: string, message: string) =>
  errorResponse('A field is wrong, named by its path.', errorAnswer(errors.invalidBody(path, message)));
// `object`: the shared example is deeply readonly (as const), which RemoteCampaign's arrays are not.
const campaignAnswer = (description: string, example: object) => ({
  ...remoteCampaignSchema,
  description,
  examples: [example],
});

/** `GET …/campaigns`. */
const listCampaignsRouteSchema = remoteSchema('campaign.list', false, {
  summary: 'List campaigns',
  description:
    "One page of the environment's campaigns in their stored order (the order decisions use). Conditional (ETag, If-None-Match → 304).",
  querystring: {
    type: 'object',
    properties: {
      _page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
      _max_per_page: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    },
  },
  headers: conditionalHeaders,
  response: {
    200: { ...campaignPageSchema, description: 'The page.', headers: conditionalAnswerHeaders },
    304: notModifiedResponse,
    400: badField('_page', 'must be a whole number from 1 to 1000000'),
    404: unknownEnvironment,
  },
});

/** `POST …/campaigns`. */
const createCampaignRouteSchema = remoteSchema('campaign.create', false, {
  summary: 'Create a campaign',
  description:
    'Creates a campaign, last in the stored order; ids left out are generated. It takes effect in the next decision and bucketing file at once (and on every instance within a second, on PostgreSQL).',
  consumes: ['application/json'],
  body: campaignCreateBodySchema,
  response: {
    201: {
      ...campaignAnswer('The campaign as stored, with its ids.', createdExample),
      headers: { Location: { type: 'string', description: "The campaign's URL (path)." } },
    },
    400: badField('variation_groups[0].variations[1].allocation', 'must be an integer from 0 to 100'),
    ...bodyErrors,
    404: unknownEnvironment,
    409: idClash,
  },
});

/** `GET …/campaigns/{campaignId}`. */
const readCampaignRouteSchema = remoteSchema('campaign.read', true, {
  summary: 'Get a campaign',
  description: 'One campaign. Conditional (ETag, If-None-Match → 304).',
  headers: conditionalHeaders,
  response: {
    200: {
      ...campaignAnswer('The campaign.', campaignExample),
      headers: conditionalAnswerHeaders,
    },
    304: notModifiedResponse,
    404: unknownCampaign,
  },
});

/** `PATCH …/campaigns/{campaignId}`. */
const updateCampaignRouteSchema = remoteSchema('campaign.update', true, {
  summary: 'Update a campaign',
  description:
    'Replaces the fields given (a list given replaces the whole list); `position` moves the campaign in the stored order. The state changes only through the toggle route.',
  consumes: ['application/json'],
  body: campaignPatchBodySchema,
  response: {
    200: campaignAnswer('The campaign as stored now.', {
      ...campaignExample,
      name: 'Checkout (winter)',
      bucket_ranges: [[0, 50]],
      updated_at: later,
    }),
    400: badField('state', 'is "active": change it with PATCH …/campaigns/c1/toggle'),
    ...bodyErrors,
    404: unknownCampaign,
    409: idClash,
  },
});

/** `DELETE …/campaigns/{campaignId}`. */
const deleteCampaignRouteSchema = remoteSchema('campaign.delete', true, {
  summary: 'Delete a campaign',
  description:
    'Removes the campaign from decisions and the bucketing file. Its ids stay taken and its report stays readable (activations that waited in a cache still count).',
  response: {
    204: noContentResponse('Deleted.'),
    404: unknownCampaign,
  },
});

/** `PATCH …/campaigns/{campaignId}/toggle`. */
const toggleCampaignRouteSchema = remoteSchema('campaign.toggle', true, {
  summary: 'Change the state of a campaign',
  description:
    'active, paused or interrupted. Paused and interrupted campaigns leave decisions and the bucketing file at once; interrupted is final.',
  consumes: ['application/json'],
  body: campaignToggleBodySchema,
  response: {
    200: campaignAnswer('The campaign in its new state.', {
      ...campaignExample,
      state: 'paused',
      updated_at: later,
    }),
    400: badField('state', 'must be one of active, paused, interrupted'),
    ...bodyErrors,
    404: unknownCampaign,
    409: conflict(
      'The campaign is interrupted, which is final.',
      'Campaign "c1" is interrupted, which is final: create a new campaign to run it again.',
    ),
  },
});

/** `PATCH …/panic`. */
const panicRouteSchema = remoteSchema('environment.panic', false, {
  summary: 'Switch panic on or off',
  description:
    'Panic on: every SDK of the environment serves default values and sends no activation and no hit, from the next decision or bucketing file on.',
  consumes: ['application/json'],
  body: panicBodySchema,
  response: {
    200: { ...panicAnswerSchema, description: 'The panic state now.' },
    400: badField('panic', 'must be "on" or "off"'),
    ...bodyErrors,
    404: unknownEnvironment,
  },
});

/** `GET …/campaigns/{campaignId}/report`. */
const campaignReportRouteSchema = remoteSchema('report.read', true, {
  summary: "Get a campaign's report",
  description:
    'Visits, visitors and goals per variation with uplift, p-value and 95 % interval (PROTOCOL.md §14). Deleted campaigns keep their report. Never cached.',
  response: {
    200: {
      ...campaignReportSchema,
      description: 'The report, computed now from the stored rows.',
      headers: { 'Cache-Control': { type: 'string', description: '`no-store`' } },
    },
    404: unknownCampaign,
  },
});

/** The remote control routes' schemas, by the action each route needs (one route per action). */
export const remoteRouteSchemas: Record<Action, RouteSchema> = {
  'campaign.list': listCampaignsRouteSchema,
  'campaign.create': createCampaignRouteSchema,
  'campaign.read': readCampaignRouteSchema,
  'campaign.update': updateCampaignRouteSchema,
  'campaign.delete': deleteCampaignRouteSchema,
  'campaign.toggle': toggleCampaignRouteSchema,
  'environment.panic': panicRouteSchema,
  'report.read': campaignReportRouteSchema,
};
