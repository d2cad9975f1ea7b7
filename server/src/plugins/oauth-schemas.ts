// Schemas of the token routes (PROTOCOL.md §13.3, §13.4), for the OpenAPI document and their answers'
// serialization: the routes parse their body into a Map of parameters in their own content-type parsers and
// check it themselves, after their rate limits, answering RFC 6749 §5.2 bodies (oauth.ts says why).
import { TOKEN_LIFETIME, type TokenAnswer, type TokenCheckAnswer } from 'feature-ts/protocol';
import {
  EXAMPLE,
  internalErrorResponse,
  oauthErrorResponse,
  oauthRateLimitedResponse,
  pathParameters,
  security,
  type RouteSchema,
} from './shared-schemas.js';

const NO_STORE = {
  'Cache-Control': { type: 'string', description: '`no-store`' },
  Pragma: { type: 'string', description: '`no-cache`' },
} as const;

const SCOPE = `campaign.toggle env:${EXAMPLE.envId}`;

const tokenParameters = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['client_credentials'] },
    client_id: { type: 'string', description: 'Required here unless sent in HTTP Basic (never both).' },
    client_secret: { type: 'string', description: 'Required here unless sent in HTTP Basic (never both).' },
    scope: {
      type: 'string',
      description:
        'Space-separated actions, then env:<envId> for each environment or env:*; it may narrow the access (absent or * : all of it), never widen it.',
    },
  },
} as const;

const credentials = {
  grant_type: 'client_credentials',
  client_id: EXAMPLE.clientId,
  client_secret: EXAMPLE.clientSecret,
  scope: SCOPE,
} as const;

const issued = {
  access_token: EXAMPLE.accessToken,
  token_type: 'Bearer',
  scope: SCOPE,
  expires_in: 1800,
} satisfies TokenAnswer;

const neverExpires = {
  access_token: 'fft_V5Sdg75A64XEenbIO_bz1TOvkZelMTZiInQ50SbuEto',
  token_type: 'Bearer',
  scope: 'campaign.list campaign.read report.read env:*',
} satisfies TokenAnswer;

/** `POST /oauth/{accountId}/token`. */
export const tokenRouteSchema: RouteSchema = {
  summary: 'Issue a token',
  description: `A bearer token for the remote control API, from an access's client credentials (client credentials grant, RFC 6749 §4.4; PROTOCOL.md §13.3). Parameters form-encoded or JSON (at most 8 KiB); the credentials in the body or in HTTP Basic. No refresh token. Rate-limited per client IP; failed authentications make further attempts wait (§13.7). Answers are never cached and carry no CORS headers.`,
  tags: ['tokens'],
  security: security.clientCredentials,
  params: pathParameters('accountId'),
  querystring: {
    type: 'object',
    properties: {
      expires_in: {
        type: 'integer',
        minimum: 0,
        maximum: TOKEN_LIFETIME.max,
        default: TOKEN_LIFETIME.default,
        description:
          'Lifetime in seconds; 0: no expiry (still revocable), refused when the server sets FEATURE_MAX_TOKEN_LIFETIME.',
        examples: [1800],
      },
    },
  },
  body: {
    content: {
      'application/x-www-form-urlencoded': { schema: { ...tokenParameters, examples: [credentials] } },
      'application/json': { schema: { ...tokenParameters, examples: [credentials] } },
    },
  },
  response: {
    200: {
      title: 'Token',
      description: 'The token; without expires_in it never expires.',
      type: 'object',
      required: ['access_token', 'token_type', 'scope'],
      properties: {
        access_token: { type: 'string', pattern: '^fft_[A-Za-z0-9_-]{43}$' },
        token_type: { const: 'Bearer' },
        scope: { type: 'string', description: 'What the token grants: actions, then env:<envId> or env:*.' },
        expires_in: { type: 'integer', minimum: 1, description: 'Seconds until it expires.' },
      },
      headers: NO_STORE,
      examples: [issued, neverExpires],
    },
    400: oauthErrorResponse(
      'A parameter is missing, doubled or malformed, the grant type is not client_credentials, or the scope asks for more than the access grants.',
      {
        error: 'invalid_request',
        error_description: 'grant_type is missing: send grant_type=client_credentials.',
      },
      {
        error: 'unsupported_grant_type',
        error_description: 'grant_type "password" is not supported: use client_credentials.',
      },
      { error: 'invalid_scope', error_description: 'campaign.delete is not an action this access grants.' },
      {
        error: 'invalid_request',
        error_description: 'Content-Type must be application/x-www-form-urlencoded or application/json.',
      },
    ),
    401: {
      ...oauthErrorResponse(
        'Unknown client, wrong secret, revoked access or another account: one answer for all.',
        {
          error: 'invalid_client',
          error_description:
            'Client authentication failed: check the client id, the client secret and the account id in the path.',
        },
      ),
      headers: { 'WWW-Authenticate': { type: 'string', description: 'Basic realm="feature"' } },
    },
    413: oauthErrorResponse('The body is over 8 KiB.', {
      error: 'invalid_request',
      error_description: 'The body is over 8192 bytes.',
    }),
    429: oauthRateLimitedResponse,
    500: internalErrorResponse,
  },
};

const activeExample = {
  active: true,
  client_id: EXAMPLE.clientId,
  account: EXAMPLE.accountId,
  scope: SCOPE,
  iat: 1795610952,
  token_type: 'Bearer',
  expires_in: 1800,
  exp: 1795612753,
} satisfies TokenCheckAnswer;

/** `GET /oauth/token`. */
export const tokenCheckRouteSchema: RouteSchema = {
  summary: 'Check a token',
  description:
    'Whether a token is active, and what it grants (RFC 7662 form; PROTOCOL.md §13.4). Expired, revoked, unknown and malformed tokens all answer {"active": false}, with no reason. The token in the query is never logged. Rate-limited per client IP.',
  tags: ['tokens'],
  security: security.none,
  querystring: {
    type: 'object',
    required: ['access_token'],
    properties: {
      access_token: { type: 'string', description: 'The token to check.', examples: [EXAMPLE.accessToken] },
    },
  },
  response: {
    200: {
      title: 'Token check',
      description: 'The token is active (with what it grants), or not.',
      oneOf: [
        {
          title: 'Active',
          type: 'object',
          required: ['active', 'client_id', 'account', 'scope', 'iat', 'token_type'],
          properties: {
            active: { const: true },
            client_id: { type: 'string' },
            account: { type: 'string', description: 'The account id.' },
            scope: { type: 'string' },
            iat: { type: 'integer', description: 'Issued at, epoch seconds.' },
            token_type: { const: 'Bearer' },
            expires_in: { type: 'integer', minimum: 1, description: 'Seconds left; absent: no expiry.' },
            exp: { type: 'integer', description: 'Expiry, epoch seconds; absent: no expiry.' },
          },
        },
        {
          title: 'Inactive',
          type: 'object',
          required: ['active'],
          properties: { active: { const: false } },
          additionalProperties: false,
        },
      ],
      headers: NO_STORE,
      examples: [activeExample, { active: false }],
    },
    400: oauthErrorResponse('access_token is missing or given more than once.', {
      error: 'invalid_request',
      error_description: 'access_token is missing: send the token to check as ?access_token=….',
    }),
    429: oauthRateLimitedResponse,
    500: internalErrorResponse,
  },
};
