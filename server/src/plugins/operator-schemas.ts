// Schemas of the operator routes (PROTOCOL.md §13.8): their requests are checked against them, their answers
// serialized by them, and the OpenAPI document built from them. What they answer is in
// operator-answer-schemas.ts; every answer is no-store. The campaign routes under
// /admin/v1/environments/{envId} are the remote control API's (campaign-route-schemas.ts) with the key.
import { ACTIONS, type Action } from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import { bucketingFileSchema } from '../validation/bucketing-file-schema.js';
import { checkoutCampaignExample } from './bucketing-schemas.js';
import { campaignRouteSchemas } from './campaign-route-schemas.js';
import {
  accessExample,
  accessSchema,
  accessWithSecretSchema,
  accountExample,
  accountSchema,
  environmentExample,
  environmentSchema,
  environmentWithKeySchema,
} from './operator-answer-schemas.js';
import { NAME, NO_STORE, answer, list, operatorAuthErrors, operatorRoute } from './operator-route-schemas.js';
import { campaignReportSchema } from './report-schemas.js';
import {
  EXAMPLE,
  errorAnswer,
  errorResponse,
  pathParameters,
  reportAnswerHeaders,
  reportConditionalHeaders,
  reportNotModifiedResponse,
  security,
  type RouteSchema,
} from './shared-schemas.js';

/** Where the operator routes serve an environment's campaign routes (the remote control API's own). */
export const OPERATOR_CAMPAIGNS_BASE = '/admin/v1/environments/:envId';

const badField = (path: string, message: string) =>
  errorResponse('A field is wrong, named by its path.', errorAnswer(errors.invalidBody(path, message)));
const notFound = (what: string, method = 'GET') =>
  errorResponse(`No ${what} has this id.`, errorAnswer(errors.notFound(method, `${what} nope`)));
const unknownEnvironment = errorResponse(
  'No environment has this id.',
  errorAnswer(errors.unknownEnvironment('nope')),
);
const bodyErrors = {
  413: errorResponse('The body is over 1 MiB.', errorAnswer(errors.payloadTooLarge(1024 * 1024))),
  415: errorResponse('The body is not JSON.', errorAnswer(errors.unsupportedMediaType(JSON_OR_TEXT))),
} as const;

const settingsBody = {
  enabledXPC: { type: 'boolean', description: 'Experience continuity (§8.5).' },
  enabled1V1T: { type: 'boolean', description: 'One visitor, one test (§8.6).' },
} as const;

/** The operator routes' options (their schemas, documentation only), by route. */
export const operatorRoutes = {
  listAccounts: operatorRoute({
    summary: 'List accounts',
    description: 'Every account of this server, oldest first.',
    response: { 200: list('Every account.', accountSchema, accountExample) },
  }),
  newAccount: operatorRoute({
    summary: 'Create an account',
    description: 'An account holds environments and accesses (§13.1).',
    consumes: ['application/json'],
    body: { type: 'object', required: ['name'], properties: { name: NAME }, examples: [{ name: 'Shop' }] },
    response: {
      201: answer('The account.', accountSchema, accountExample),
      400: badField('name', 'must be a string of 1 to 100 characters'),
      ...bodyErrors,
    },
  }),
  listEnvironments: operatorRoute({
    summary: "List an account's environments",
    description: 'Never with their API keys.',
    params: pathParameters('accountId'),
    response: {
      200: list('The environments.', environmentSchema, environmentExample),
      404: notFound('account'),
    },
  }),
  newEnvironment: operatorRoute({
    summary: 'Create an environment',
    description: 'Its API key is in this answer only: keep it (rotate-key makes a new one).',
    params: pathParameters('accountId'),
    consumes: ['application/json'],
    body: {
      type: 'object',
      required: ['name'],
      properties: { name: NAME, ...settingsBody },
      examples: [{ name: 'production', enabledXPC: true }],
    },
    response: {
      201: answer('The environment, with its API key.', environmentWithKeySchema, {
        ...environmentExample,
        api_key: EXAMPLE.apiKey,
      }),
      400: badField('enabledXPC', 'must be true or false'),
      404: notFound('account', 'POST'),
      ...bodyErrors,
    },
  }),
  rotateKey: operatorRoute({
    summary: "Rotate an environment's API key",
    description: 'The old key stops working at once; the new one is in this answer only.',
    params: pathParameters('envId'),
    response: {
      200: answer(
        'The new API key.',
        {
          type: 'object',
          required: ['id', 'api_key'],
          properties: { id: { type: 'string' }, api_key: { type: 'string' } },
        },
        { id: EXAMPLE.envId, api_key: 'fk_W1cP0x8dZ3qTnL6vKs9aR2yEhB5uJ7gM4oF0iXtYbN8' },
      ),
      404: unknownEnvironment,
    },
  }),
  updateEnvironment: operatorRoute({
    summary: "Change an environment's settings or panic",
    description: 'Fields left out are kept; decisions and the bucketing file follow at once.',
    params: pathParameters('envId'),
    consumes: ['application/json'],
    body: {
      type: 'object',
      properties: { ...settingsBody, panic: { type: 'boolean', description: 'Panic (§6).' } },
      examples: [{ enabled1V1T: true, panic: false }],
    },
    response: {
      200: answer('The environment now.', environmentSchema, {
        ...environmentExample,
        settings: { enabledXPC: true, enabled1V1T: true },
      }),
      400: badField('panic', 'must be true or false'),
      404: unknownEnvironment,
      ...bodyErrors,
    },
  }),
  importCampaigns: operatorRoute({
    summary: "Replace an environment's campaigns",
    description:
      'Imports a bucketing-format file (PROTOCOL.md §6; only its campaigns are read), replacing every campaign in its order. What `feature-server import` sends.',
    params: pathParameters('envId'),
    consumes: ['application/json'],
    body: { ...bucketingFileSchema, examples: [{ campaigns: [checkoutCampaignExample] }] },
    response: {
      200: answer(
        'How many campaigns the environment has now.',
        {
          type: 'object',
          required: ['envId', 'campaigns'],
          properties: { envId: { type: 'string' }, campaigns: { type: 'integer', minimum: 0 } },
        },
        { envId: EXAMPLE.envId, campaigns: 1 },
      ),
      400: errorResponse(
        'The file is not in the bucketing format (the message names the field).',
        errorAnswer(errors.invalidBody('campaigns[0].name', 'must be a string')),
      ),
      404: unknownEnvironment,
      409: errorResponse(
        'An id is already used by a deleted campaign of the environment.',
        errorAnswer(
          errors.conflict(
            'The campaign id "c1" already belongs to a campaign of this environment: give it another id.',
          ),
        ),
      ),
      ...bodyErrors,
    },
  }),
  reports: operatorRoute({
    summary: "Get an environment's reports",
    description:
      'The report of every campaign (deleted ones included), or of one by id or slug. Conditional (ETag, If-None-Match → 304): the ETag covers which campaigns are listed and what each report is computed from.',
    params: pathParameters('envId'),
    headers: reportConditionalHeaders,
    querystring: {
      type: 'object',
      properties: {
        campaign: { type: 'string', description: 'A campaign id or slug.', examples: ['checkout'] },
      },
    },
    response: {
      200: {
        ...answer(
          'The reports.',
          {
            type: 'object',
            required: ['reports'],
            properties: { reports: { type: 'array', items: campaignReportSchema } },
          },
          { reports: campaignReportSchema.examples },
        ),
        headers: reportAnswerHeaders,
      },
      304: reportNotModifiedResponse,
      404: errorResponse(
        'No environment, or no campaign with this id or slug.',
        errorAnswer(errors.unknownEnvironment('nope')),
        errorAnswer(errors.notFound('GET', 'campaign nope')),
      ),
    },
  }),
  listAccesses: operatorRoute({
    summary: "List an account's accesses",
    description: 'Never with their secrets.',
    params: pathParameters('accountId'),
    response: { 200: list('The accesses.', accessSchema, accessExample), 404: notFound('account') },
  }),
  newAccess: operatorRoute({
    summary: 'Create an access',
    description:
      'Client credentials for the token service (§13.1): the client secret is in this answer only (the server keeps its digest).',
    params: pathParameters('accountId'),
    consumes: ['application/json'],
    body: {
      type: 'object',
      required: ['name', 'actions'],
      properties: {
        name: NAME,
        actions: { type: 'array', minItems: 1, items: { type: 'string', enum: ACTIONS } },
        environments: {
          type: 'array',
          items: { type: 'string' },
          description: 'Environment ids of the account; absent or empty: all of them, later ones included.',
        },
      },
      examples: [
        { name: 'CI toggler', actions: ['campaign.toggle', 'report.read'], environments: [EXAMPLE.envId] },
      ],
    },
    response: {
      201: answer('The access, with its client secret.', accessWithSecretSchema, {
        ...accessExample,
        client_secret: EXAMPLE.clientSecret,
      }),
      400: badField('actions', `must be a non-empty list of ${ACTIONS.join(', ')}`),
      404: notFound('account', 'POST'),
      ...bodyErrors,
    },
  }),
  readAccess: operatorRoute({
    summary: 'Get an access',
    description: 'Never with its secret.',
    params: pathParameters('accessId'),
    response: { 200: answer('The access.', accessSchema, accessExample), 404: notFound('access') },
  }),
  revokeAccess: operatorRoute({
    summary: 'Revoke an access',
    description:
      'Its tokens stop working at their next call, and it gets no new token. Revoking twice is harmless.',
    params: pathParameters('accessId'),
    response: {
      200: answer('The access, revoked.', accessSchema, {
        ...accessExample,
        revoked_at: '2026-11-22T10:05:00.000Z',
      }),
      404: notFound('access', 'POST'),
    },
  }),
} as const;

/** The campaign routes' schemas under /admin/v1/environments/{envId}, by the action each serves. */
export const operatorCampaignRoutes: Record<Action, RouteSchema> = campaignRouteSchemas({
  tag: 'operator',
  security: () => security.operator,
  params: (withCampaign) => (withCampaign ? pathParameters('envId', 'campaignId') : pathParameters('envId')),
  authErrors: () => operatorAuthErrors,
  answerHeaders: NO_STORE,
  unknownEnvironment: 'No environment has this id.',
  note: "The remote control API's route, with the operator key instead of a token: what `feature-server campaign …` calls while a server holds the embedded store.",
});
