// The server's one error catalogue (PROTOCOL.md §2.4): every error a route can answer is built here, with a
// stable code and a message that says what to change, so routes never invent ad-hoc bodies.
import type { ErrorCode, ErrorDetail } from 'feature-ts/protocol';

/** An error that maps to one HTTP answer with a PROTOCOL.md §2.4 body. */
export class ApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The stable snake_case code. */
  readonly code: ErrorCode;
  /** Field-level details (paths such as `h[3].ev`). */
  readonly details: ErrorDetail[] | undefined;
  /** Extra response headers (e.g. `WWW-Authenticate`). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** Builders of every client error the SDK-facing routes answer. */
export const errors = {
  unsupportedMediaType: (accepted: readonly string[]) =>
    new ApiError(415, 'unsupported_media_type', `Content-Type must be ${accepted.join(' or ')}`),
  unsupportedContentEncoding: (coding: string) =>
    new ApiError(
      415,
      'unsupported_media_type',
      `Content-Encoding ${coding.slice(0, 32)} is not supported: send the body uncompressed.`,
    ),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(
      413,
      'payload_too_large',
      `The body is larger than this route's limit of ${limitBytes} bytes: send smaller batches.`,
    ),
  invalidJson: (why: string) =>
    new ApiError(400, 'invalid_json', `The body is not valid JSON (${why}): send a JSON text.`),
  invalidUrl: (problem: string) => new ApiError(400, 'invalid_url', `The URL is malformed: ${problem}.`),
  invalidBody: (path: string, message: string) =>
    new ApiError(400, 'invalid_body', `${path}: ${message}`, { details: [{ path, message }] }),
  forbiddenKey: (path: string) =>
    new ApiError(
      400,
      'invalid_body',
      `${path}: the keys __proto__, constructor and prototype are not allowed in a body`,
      { details: [{ path, message: 'forbidden key' }] },
    ),
  unknownEnvironment: (envId: string) =>
    new ApiError(
      404,
      'unknown_environment',
      `No environment has the id "${envId.slice(0, 64)}": check the environment id the SDK is started with.`,
    ),
  missingApiKey: () =>
    new ApiError(
      401,
      'missing_api_key',
      'The x-api-key header is missing: send the environment API key in x-api-key.',
      { headers: { 'www-authenticate': 'ApiKey realm="feature", header="x-api-key"' } },
    ),
  invalidApiKey: () =>
    new ApiError(
      403,
      'invalid_api_key',
      "The x-api-key header does not match this environment's API key: use the key printed when the environment was created or last rotated.",
    ),
  missingToken: () =>
    new ApiError(
      401,
      'missing_token',
      'The Authorization header is missing: send "Authorization: Bearer <token>" with a token from POST /oauth/{accountId}/token.',
      { headers: { 'www-authenticate': 'Bearer realm="feature"' } },
    ),
  invalidToken: () =>
    new ApiError(
      401,
      'invalid_token',
      'The bearer token is malformed, unknown, expired or revoked: get a new one from POST /oauth/{accountId}/token.',
      { headers: { 'www-authenticate': 'Bearer realm="feature", error="invalid_token"' } },
    ),
  consoleSignInRequired: () =>
    new ApiError(
      401,
      'missing_token',
      'No console session and no operator key: sign in at /admin (with the operator key, or a sign-in link from `feature-server console`), or send "Authorization: Bearer <operator key>".',
      { headers: { 'www-authenticate': 'Bearer realm="feature"' } },
    ),
  consoleSessionEnded: () =>
    new ApiError(401, 'invalid_token', 'The console session has ended or expired: sign in again at /admin.', {
      headers: { 'www-authenticate': 'Bearer realm="feature", error="invalid_token"' },
    }),
  invalidOperatorKey: () =>
    new ApiError(
      401,
      'invalid_token',
      'This is not the operator key this server was started with: use its FEATURE_OPERATOR_KEY, or open a sign-in link (`npm start` prints one; `npx feature-server console` makes a new one).',
    ),
  spentSignInLink: () =>
    new ApiError(
      401,
      'invalid_token',
      'This sign-in link was already used or has expired (links work once, within 15 minutes), or was made under an operator key this server no longer has: get a new one with `npx feature-server console`, or sign in with the operator key.',
    ),
  crossSiteSignIn: () =>
    new ApiError(
      403,
      'invalid_csrf_token',
      'The browser says this sign-in comes from another site: sign in on the console page of this server (/admin). A page of another site may not send operator keys here, so that it cannot lock this address out.',
    ),
  signInNotJson: () =>
    new ApiError(
      415,
      'unsupported_media_type',
      'Send the sign-in as Content-Type: application/json (a JSON object with operator_key or sign_in_link): other types are refused, since a page of any site can post them without asking.',
    ),
  signInLocked: (waitSeconds: number) =>
    new ApiError(
      429,
      'too_many_requests',
      `Too many wrong operator keys from this address: try again in ${waitSeconds} s.`,
      { headers: { 'retry-after': String(waitSeconds) } },
    ),
  csrfRejected: (why: string) =>
    new ApiError(
      403,
      'invalid_csrf_token',
      `${why}: a console session's changes must come from the console page, with the X-CSRF-Token header it got at sign-in.`,
    ),
  insufficientScope: (scope: string) =>
    new ApiError(
      403,
      'insufficient_scope',
      `The token does not grant ${scope} (or belongs to another account): use a token of an access that grants it.`,
      {
        headers: {
          'www-authenticate': `Bearer realm="feature", error="insufficient_scope", scope="${scope.replace(/["\\]/g, '')}"`,
        },
      },
    ),
  insufficientRole: (needed: string) =>
    new ApiError(
      403,
      'insufficient_role',
      `This needs ${needed}: ask an admin of the account for that role${needed === 'the operator key' ? " (this route is the operator's alone)" : ''}.`,
    ),
  invalidCredentials: () =>
    new ApiError(
      401,
      'invalid_token',
      'Wrong email or password: check both, or ask an admin of your account for a reset link.',
    ),
  spentUserLink: (kind: 'invitation' | 'reset' | 'join', why: 'unknown' | 'used' | 'expired') =>
    new ApiError(
      why === 'unknown' ? 404 : 410,
      why === 'unknown' ? 'not_found' : 'link_expired',
      `This ${kind === 'reset' ? 'password reset' : 'invitation'} link ${
        why === 'used'
          ? 'was already used'
          : why === 'expired'
            ? 'has expired'
            : 'is not one this server made'
      }: ask an admin of your account for a new one${kind === 'reset' ? ', or sign in with your password' : ''}.`,
    ),
  // insufficient_role: the caller is signed in, and is not the one this needs (the invited person).
  otherPersonsInvitation: () =>
    new ApiError(
      403,
      'insufficient_role',
      'This invitation is for another person: sign out, then open the link again and sign in as the person it invites.',
    ),
  signInLockedForEmail: (waitSeconds: number) =>
    new ApiError(
      429,
      'too_many_requests',
      `Too many wrong passwords from this address or for this email: try again in ${waitSeconds} s.`,
      { headers: { 'retry-after': String(waitSeconds) } },
    ),
  unknownCampaign: (campaignId: string) =>
    new ApiError(
      404,
      'not_found',
      `No campaign with the id or slug "${campaignId.slice(0, 64)}" in this environment: list them with GET …/campaigns.`,
    ),
  notFound: (method: string, url: string) =>
    new ApiError(404, 'not_found', `No route ${method} ${url.split('?')[0] ?? ''}: check the URL.`),
  conflict: (message: string) => new ApiError(409, 'conflict', message),
  noSsoSettings: (accountId: string) =>
    new ApiError(
      404,
      'not_found',
      `Account "${accountId.slice(0, 64)}" has no single sign-on settings: set them with PUT /admin/v1/accounts/{accountId}/sso.`,
    ),
  ssoIssuerUndiscoverable: (issuer: string, why: string) =>
    new ApiError(
      400,
      'invalid_body',
      `issuer: ${issuer.slice(0, 200)} could not be discovered (${why.slice(0, 300)}): give the provider's issuer URL exactly as its /.well-known/openid-configuration names it, reachable from this server.`,
      { details: [{ path: 'issuer', message: `could not be discovered (${why.slice(0, 300)})` }] },
    ),
  ssoSecretRequired: () =>
    new ApiError(
      400,
      'invalid_body',
      'client_secret: required when the settings are first saved (later saves may leave it out to keep it): give the client secret the provider issued.',
      { details: [{ path: 'client_secret', message: 'required when the settings are first saved' }] },
    ),
  tooManyStreams: (limit: number, retryAfterSeconds: number) =>
    new ApiError(
      503,
      'too_many_streams',
      `This server instance holds its limit of ${limit} open live-update streams (FEATURE_MAX_STREAMS): reconnect in ${retryAfterSeconds} s (another instance may have room), and keep polling meanwhile.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    ),
  internal: (requestId: string) =>
    new ApiError(
      500,
      'internal',
      `Internal error (request id ${requestId}); the server log has the details under that id.`,
    ),
} as const;

/** Raised by the store when an id is already used by another object of the environment (§13.5). */
export class IdConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdConflictError';
  }
}

/** Raised when a command or store input is invalid; the message says what to change. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** The InputError of a command or store call naming an environment that does not exist. */
export const unknownEnvironmentInput = (envId: string): InputError =>
  new InputError(
    `No environment has the id "${envId.slice(0, 64)}": use an id that \`feature-server env create\` printed.`,
  );

/**
 * Runs a store call for a route: a clash of ids or slugs becomes 409 `conflict`, an input the store refuses
 * 400 `invalid_body`, each with the store's message (it names what to change).
 */
export const storeErrors = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof IdConflictError) throw errors.conflict(error.message);
    if (error instanceof InputError) throw errors.invalidBody('(body)', error.message);
    throw error;
  }
};
