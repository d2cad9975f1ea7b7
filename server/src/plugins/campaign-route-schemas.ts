// The campaign routes' schemas (PROTOCOL.md §13.5): one description of each route (list, create, read,
// update, delete, toggle, panic, report), given the family that serves it. app.ts registers the campaign
// routes (campaigns.ts) twice: under the remote control base with a bearer token per action
// (remote-schemas.ts), and under /admin/v1/environments/{envId} with the operator key (operator-schemas.ts).
// What differs between the two (tag, security, path parameters, authorization errors, caching) is the
// family's; bodies, answers and field-named errors are the same. The requests are checked against the
// schemas, answers serialized by them; campaignFromRemote then checks what the campaign body schemas
// (remote/campaign-body-schemas.ts) leave to it, naming the field.
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
} from '../remote/campaign-body-schemas.js';
import { remoteCampaignSchema } from '../remote/campaign-schemas.js';
import { campaignReportSchema } from './report-schemas.js';
import {
  EXAMPLE,
  conditionalAnswerHeaders,
  conditionalHeaders,
  errorAnswer,
  errorResponse,
  noContentResponse,
  notModifiedResponse,
  reportAnswerHeaders,
  reportConditionalHeaders,
  reportNotModifiedResponse,
  type RouteSchema,
} from './shared-schemas.js';

/** A header of an answer, as OpenAPI describes it. */
type HeaderDoc = Readonly<{ type: string; description: string }>;

/** What one family of campaign routes has of its own. */
export interface CampaignRouteFamily {
  /** The OpenAPI tag of every route of the family. */
  tag: string;
  /** The route's `security`: what the caller must present to be allowed `action`. */
  security: (action: Action) => NonNullable<RouteSchema['security']>;
  /** The `params` schema of a route on the environment (`withCampaign`: and on one of its campaigns). */
  params: (withCampaign: boolean) => object;
  /** The answers any route of the family may give before its handler runs (401, 403, 500), by action. */
  authErrors: (action: Action) => Record<number, unknown>;
  /** Headers of every 2xx and 304 answer beyond the route's own (they win over the route's). */
  answerHeaders: Record<string, HeaderDoc>;
  /** What an unknown environment's 404 means for this family. */
  unknownEnvironment: string;
  /** Said after every route's description (empty for none). */
  note: string;
}

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
  analysis: { primary_goal: null, method: 'sequential', alpha: 0.05, expected_visitors: 5000 },
  created_at: EXAMPLE.time,
  updated_at: EXAMPLE.time,
} satisfies RemoteCampaign;

const later = '2026-11-22T10:05:00.000Z';

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

/** The campaign routes' schemas for `family`, by the action each route needs (one route per action). */
export const campaignRouteSchemas = (family: CampaignRouteFamily): Record<Action, RouteSchema> => {
  /** The route's schema: the family's parts around the route's own, its answers before the family's errors. */
  const route = (
    action: Action,
    withCampaign: boolean,
    schema: RouteSchema & { description: string; response: Record<number, unknown> },
  ): RouteSchema => ({
    tags: [family.tag],
    security: family.security(action),
    params: family.params(withCampaign),
    ...schema,
    description: family.note === '' ? schema.description : `${schema.description} ${family.note}`,
    response: { ...schema.response, ...family.authErrors(action) },
  });
  /** `answer` with its own headers and the family's, if any (none: no `headers`, as OpenAPI prefers). */
  const withHeaders = <T extends object>(answer: T, own: Record<string, HeaderDoc> = {}) => {
    const all = { ...own, ...family.answerHeaders };
    return Object.keys(all).length === 0 ? answer : { ...answer, headers: all };
  };
  const unknownEnvironment = errorResponse(
    family.unknownEnvironment,
    errorAnswer(errors.unknownEnvironment('nope')),
  );
  const unknownCampaign = errorResponse(
    `${family.unknownEnvironment} Or no campaign has this id in the environment.`,
    errorAnswer(errors.unknownEnvironment('nope')),
    errorAnswer(errors.unknownCampaign('nope')),
  );
  const notModified = withHeaders(notModifiedResponse, conditionalAnswerHeaders);

  return {
    'campaign.list': route('campaign.list', false, {
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
        200: withHeaders({ ...campaignPageSchema, description: 'The page.' }, conditionalAnswerHeaders),
        304: notModified,
        400: badField('_page', 'must be a whole number from 1 to 1000000'),
        404: unknownEnvironment,
      },
    }),
    'campaign.create': route('campaign.create', false, {
      summary: 'Create a campaign',
      description:
        'Creates a campaign, last in the stored order; ids left out are generated. It takes effect in the next decision and bucketing file at once (and on every instance within a second, on PostgreSQL).',
      consumes: ['application/json'],
      body: campaignCreateBodySchema,
      response: {
        201: withHeaders(campaignAnswer('The campaign as stored, with its ids.', createdExample), {
          Location: { type: 'string', description: "The campaign's URL (path)." },
        }),
        400: badField('variation_groups[0].variations[1].allocation', 'must be an integer from 0 to 100'),
        ...bodyErrors,
        404: unknownEnvironment,
        409: idClash,
      },
    }),
    'campaign.read': route('campaign.read', true, {
      summary: 'Get a campaign',
      description: 'One campaign. Conditional (ETag, If-None-Match → 304).',
      headers: conditionalHeaders,
      response: {
        200: withHeaders(campaignAnswer('The campaign.', campaignExample), conditionalAnswerHeaders),
        304: notModified,
        404: unknownCampaign,
      },
    }),
    'campaign.update': route('campaign.update', true, {
      summary: 'Update a campaign',
      description:
        'Replaces the fields given (a list given replaces the whole list); `position` moves the campaign in the stored order. The state changes only through the toggle route.',
      consumes: ['application/json'],
      body: campaignPatchBodySchema,
      response: {
        200: withHeaders(
          campaignAnswer('The campaign as stored now.', {
            ...campaignExample,
            name: 'Checkout (winter)',
            bucket_ranges: [[0, 50]],
            updated_at: later,
          }),
        ),
        400: badField('state', 'is "active": change it with PATCH …/campaigns/c1/toggle'),
        ...bodyErrors,
        404: unknownCampaign,
        409: idClash,
      },
    }),
    'campaign.delete': route('campaign.delete', true, {
      summary: 'Delete a campaign',
      description:
        'Removes the campaign from decisions and the bucketing file. Its ids stay taken and its report stays readable (activations that waited in a cache still count).',
      response: {
        204: withHeaders(noContentResponse('Deleted.')),
        404: unknownCampaign,
      },
    }),
    'campaign.toggle': route('campaign.toggle', true, {
      summary: 'Change the state of a campaign',
      description:
        'active, paused or interrupted. Paused and interrupted campaigns leave decisions and the bucketing file at once; interrupted is final.',
      consumes: ['application/json'],
      body: campaignToggleBodySchema,
      response: {
        200: withHeaders(
          campaignAnswer('The campaign in its new state.', {
            ...campaignExample,
            state: 'paused',
            updated_at: later,
          }),
        ),
        400: badField('state', 'must be one of active, paused, interrupted'),
        ...bodyErrors,
        404: unknownCampaign,
        409: conflict(
          'The campaign is interrupted, which is final.',
          'Campaign "c1" is interrupted, which is final: create a new campaign to run it again.',
        ),
      },
    }),
    'environment.panic': route('environment.panic', false, {
      summary: 'Switch panic on or off',
      description:
        'Panic on: every SDK of the environment serves default values and sends no activation and no hit, from the next decision or bucketing file on.',
      consumes: ['application/json'],
      body: panicBodySchema,
      response: {
        200: withHeaders({ ...panicAnswerSchema, description: 'The panic state now.' }),
        400: badField('panic', 'must be "on" or "off"'),
        ...bodyErrors,
        404: unknownEnvironment,
      },
    }),
    'report.read': route('report.read', true, {
      summary: "Get a campaign's report",
      description:
        'Visits, visitors and goals per variation with uplift, p-value and 95 % interval (PROTOCOL.md §14). Deleted campaigns keep their report. Conditional (ETag, If-None-Match → 304): a refresh that finds nothing new costs no computation, and the copy held keeps its generated_at.',
      headers: reportConditionalHeaders,
      response: {
        // The report's own headers win over the family's (its Cache-Control is not the family's no-store).
        200: {
          ...campaignReportSchema,
          description: 'The report, computed now from the stored rows.',
          headers: { ...family.answerHeaders, ...reportAnswerHeaders },
        },
        304: { ...reportNotModifiedResponse, headers: { ...family.answerHeaders, ...reportAnswerHeaders } },
        404: unknownCampaign,
      },
    }),
  };
};
