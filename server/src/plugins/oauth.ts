// The token routes (PROTOCOL.md §13.3, §13.4): `POST /oauth/{accountId}/token` issues a bearer token for
// client credentials (JSON, form-encoded, or HTTP Basic), `GET /oauth/token?access_token=…` checks one. They
// answer RFC 6749 §5.2 error bodies, never cache (no-store), send no CORS headers, and are rate-limited per
// client IP (rate-limits.ts). They live in their own encapsulated scope so that their body parsers and error
// bodies do not leak into the other routes.
import type { FastifyReply, FastifyRequest, FastifyPluginCallback } from 'fastify';
import { TOKEN_LIFETIME, type OAuthErrorBody, type TokenAnswer } from 'feature-ts/protocol';
import type { TokenRateLimits } from '../auth/rate-limits.js';
import type { TokenService } from '../auth/token-service.js';
import { ApiError, errors } from '../errors.js';
import { parseJsonBody } from '../http/json-body.js';
import { tokenCheckRouteSchema, tokenRouteSchema } from './oauth-schemas.js';
import { withSchema } from './shared-schemas.js';
import { CREDENTIAL_FAILURE_FLOOR_MS, noSoonerThan } from '../http/failure-floor.js';
import { recordRefusedSignIn } from '../audit/refused-sign-in.js';
import type { AuditStore } from '../store/audit-store.js';

/** What the token routes are built with. */
export interface OAuthOptions {
  tokens: TokenService;
  limits: TokenRateLimits;
  /** Longest lifetime in seconds an operator allows (FEATURE_MAX_TOKEN_LIFETIME); null: no limit, 0 allowed. */
  maxLifetimeSeconds: number | null;
  /** Where refused token requests (a wrong client secret, an unknown client) are logged. */
  audit: Pick<AuditStore, 'recordAuditEvent'>;
}

type OAuthErrorCode = OAuthErrorBody['error'];

/** An RFC 6749 §5.2 answer. */
class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: OAuthErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'OAuthError';
  }
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const BODY_LIMIT = 8 * 1024;

const invalidRequest = (message: string) => new OAuthError(400, 'invalid_request', message);
const invalidClient = () =>
  new OAuthError(
    401,
    'invalid_client',
    'Client authentication failed: check the client id, the client secret and the account id in the path.',
    { 'www-authenticate': 'Basic realm="feature"' },
  );
const tooMany = (seconds: number) =>
  new OAuthError(429, 'slow_down', `Too many requests from this address: retry in ${seconds} s.`, {
    'retry-after': String(seconds),
  });

/** A body's parameters, each with every value given (a repeated form parameter has several). */
type Parameters = Map<string, string[]>;

const formParameters = (text: string): Parameters => {
  const parameters: Parameters = new Map();
  for (const [name, value] of new URLSearchParams(text))
    parameters.set(name, [...(parameters.get(name) ?? []), value]);
  return parameters;
};

const jsonParameters = (text: string): Parameters => {
  const value = parseJsonBody(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidRequest('The JSON body must be an object of string parameters.');
  const parameters: Parameters = new Map();
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw invalidRequest(`${name.slice(0, 40)} must be a string.`);
    parameters.set(name, [item]);
  }
  return parameters;
};

/** The one value of `name`, undefined when absent; doubled → invalid_request (RFC 6749 §3.2). */
const single = (parameters: Parameters, name: string): string | undefined => {
  const values = parameters.get(name);
  if (values === undefined) return undefined;
  if (values.length > 1) throw invalidRequest(`${name} is given more than once: send it once.`);
  return values[0];
};

/** Client credentials from `Authorization: Basic` (RFC 6749 §2.3.1: each part form-encoded), or null. */
const basicCredentials = (request: FastifyRequest): { clientId: string; clientSecret: string } | null => {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (match?.[1] === undefined)
    throw invalidRequest('The Authorization header must be "Basic <base64 of id:secret>".');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    throw invalidRequest('The Basic credentials must be "client_id:client_secret", base64-encoded.');
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replaceAll('+', ' '));
    } catch {
      throw invalidRequest('The Basic credentials are not valid form-encoded text.');
    }
  };
  return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
};

/** `expires_in` of the query (§13.3): absent → 3600; 0 → no expiry; 1-31 536 000 s; anything else refused. */
const expiresIn = (request: FastifyRequest, maxLifetime: number | null): number => {
  const raw = (request.query as Record<string, unknown>).expires_in;
  if (raw === undefined) return Math.min(TOKEN_LIFETIME.default, maxLifetime ?? TOKEN_LIFETIME.default);
  if (typeof raw !== 'string') throw invalidRequest('expires_in is given more than once: send it once.');
  if (!/^\d{1,9}$/.test(raw))
    throw invalidRequest(`expires_in must be a whole number of seconds from 0 to ${TOKEN_LIFETIME.max}.`);
  const seconds = Number(raw);
  if (seconds > TOKEN_LIFETIME.max)
    throw invalidRequest(`expires_in must be a whole number of seconds from 0 to ${TOKEN_LIFETIME.max}.`);
  if (maxLifetime !== null && (seconds === 0 || seconds > maxLifetime))
    throw invalidRequest(
      `This server issues tokens for at most ${maxLifetime} s (FEATURE_MAX_TOKEN_LIFETIME): ask for 1 to ${maxLifetime}.`,
    );
  return seconds;
};

const sendOAuthError = (reply: FastifyReply, error: OAuthError): FastifyReply =>
  reply
    .code(error.status)
    .headers({ ...NO_STORE, ...error.headers })
    .type('application/json; charset=utf-8')
    .send({ error: error.code, error_description: error.message } satisfies OAuthErrorBody);

/** Maps the scope's parse and size errors to RFC 6749 bodies; internal failures keep the §2.4 body. */
const toOAuthError = (error: unknown): OAuthError | null => {
  if (error instanceof OAuthError) return error;
  if (error instanceof ApiError) {
    if (error.status === 413) return new OAuthError(413, 'invalid_request', error.message);
    if (error.status === 415) return invalidRequest(`Content-Type must be ${FORM} or ${JSON_TYPE}.`);
    if (error.status < 500) return invalidRequest(error.message);
    return null;
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 415) return invalidRequest(`Content-Type must be ${FORM} or ${JSON_TYPE}.`);
    if (status === 413)
      return new OAuthError(413, 'invalid_request', `The body is over ${BODY_LIMIT} bytes.`);
    return invalidRequest(error instanceof Error ? error.message : 'The request is malformed.');
  }
  return null;
};

/** Registers the token routes in their own scope. */
export const oauthRoutes: FastifyPluginCallback<OAuthOptions> = (app, options, registered) => {
  const tokenRoute = { ...withSchema(tokenRouteSchema), bodyLimit: BODY_LIMIT };
  void app.register((scope, _options, registered) => {
    // The token routes check their own input, in their own order: the rate limits first (a flood of bad
    // requests is throttled too), then each parameter as RFC 6749 says, answered with its error bodies
    // (§5.2: invalid_request, unsupported_grant_type, invalid_client). Form parameters arrive as a Map, since
    // a repeated one must be refused (§3.2), which JSON Schema cannot see. Their schemas document them.
    scope.setValidatorCompiler(() => () => true);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
      done(null, formParameters(String(body)));
    });
    scope.addContentTypeParser(
      JSON_TYPE,
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_request, body, done) => {
        try {
          done(null, jsonParameters(String(body)));
        } catch (error) {
          done(error as Error, undefined);
        }
      },
    );
    scope.setErrorHandler((error, request, reply) => {
      const mapped = toOAuthError(error);
      if (mapped !== null) return sendOAuthError(reply, mapped);
      request.log.error({ err: error, reqId: request.id }, 'internal error');
      const internal = errors.internal(request.id);
      return reply
        .code(500)
        .headers(NO_STORE)
        .send({ message: internal.message, code: internal.code, requestId: request.id });
    });

    scope.post('/oauth/:accountId/token', tokenRoute, async (request, reply) => {
      const started = performance.now();
      const wait = options.limits.tokenRequest(request.ip);
      if (wait !== null) throw tooMany(wait);
      const body: unknown = request.body;
      const parameters = body instanceof Map ? (body as Parameters) : new Map<string, string[]>();
      const grantType = single(parameters, 'grant_type');
      if (grantType === undefined)
        throw invalidRequest('grant_type is missing: send grant_type=client_credentials.');
      if (grantType !== 'client_credentials')
        throw new OAuthError(
          400,
          'unsupported_grant_type',
          `grant_type ${JSON.stringify(grantType.slice(0, 40))} is not supported: use client_credentials.`,
        );
      const basic = basicCredentials(request);
      const bodyId = single(parameters, 'client_id');
      const bodySecret = single(parameters, 'client_secret');
      if (basic !== null && (bodyId !== undefined || bodySecret !== undefined))
        throw invalidRequest(
          'Client credentials are given both in the Authorization header and in the body: send them once.',
        );
      const clientId = basic?.clientId ?? bodyId;
      const clientSecret = basic?.clientSecret ?? bodySecret;
      if (clientId === undefined || clientId === '')
        throw invalidRequest('client_id is missing: send it in the body or in HTTP Basic credentials.');
      if (clientSecret === undefined || clientSecret === '')
        throw invalidRequest('client_secret is missing: send it in the body or in HTTP Basic credentials.');
      const lifetime = expiresIn(request, options.maxLifetimeSeconds);
      const requestedScope = single(parameters, 'scope');
      const locked = options.limits.lockedFor(request.ip, clientId);
      if (locked !== null) throw tooMany(locked);
      const { accountId } = request.params as { accountId: string };
      const outcome = await options.tokens.issue({
        accountId,
        clientId,
        clientSecret,
        scope: requestedScope,
        expiresIn: lifetime,
      });
      if (outcome.kind === 'invalid_client') {
        options.limits.failed(request.ip, clientId);
        await recordRefusedSignIn(options.audit, request, {
          action: 'oauth.token_refused',
          accountId,
          subjectKind: 'access',
          subjectId: null,
          details: { clientId: clientId.slice(0, 200) },
        });
        await noSoonerThan(started, CREDENTIAL_FAILURE_FLOOR_MS);
        throw invalidClient();
      }
      options.limits.succeeded(request.ip, clientId);
      if (outcome.kind === 'invalid_scope') throw new OAuthError(400, 'invalid_scope', outcome.message);
      const answer: TokenAnswer = {
        access_token: outcome.accessToken,
        token_type: 'Bearer',
        scope: outcome.scope,
      };
      if (outcome.expiresIn !== null) answer.expires_in = outcome.expiresIn;
      return reply.headers(NO_STORE).send(answer);
    });

    scope.get('/oauth/token', withSchema(tokenCheckRouteSchema), async (request, reply) => {
      const wait = options.limits.tokenCheck(request.ip);
      if (wait !== null) throw tooMany(wait);
      const token = (request.query as Record<string, unknown>).access_token;
      if (Array.isArray(token)) throw invalidRequest('access_token is given more than once: send it once.');
      if (typeof token !== 'string' || token === '')
        throw invalidRequest('access_token is missing: send the token to check as ?access_token=….');
      const answer = await options.tokens.check(token);
      return reply.headers(NO_STORE).send(answer);
    });
    registered();
  });
  registered();
};
