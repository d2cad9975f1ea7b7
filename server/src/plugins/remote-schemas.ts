// Schemas of the remote control routes (PROTOCOL.md §13.5, §13.6), for the OpenAPI document: the campaign
// routes of campaign-route-schemas.ts under /v1/accounts/{accountId}/account_environments/{envId}, each with a
// bearer token granting its action, and the authorization answers of §13.6.
import type { Action } from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { campaignRouteSchemas } from './campaign-route-schemas.js';
import {
  EXAMPLE,
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  pathParameters,
  security,
  type RouteSchema,
} from './shared-schemas.js';

/** Where the remote control API serves an environment's campaign routes (§13.5). */
export const REMOTE_BASE = '/v1/accounts/:accountId/account_environments/:envId';

/** The answers of §13.6 a call may get before its route runs: no or a bad token, a missing action. */
const authErrors = (action: Action) => ({
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
});

/** The remote control routes' schemas, by the action each route needs (one route per action). */
export const remoteRouteSchemas: Record<Action, RouteSchema> = campaignRouteSchemas({
  tag: 'remote-control',
  security: (action) => security.bearer(action),
  params: (withCampaign) =>
    withCampaign ? pathParameters('accountId', 'envId', 'campaignId') : pathParameters('accountId', 'envId'),
  authErrors,
  answerHeaders: {},
  unknownEnvironment: 'No environment has this id in this account (said only to a token allowed in it).',
  note: '',
});
