// Schemas of the console's session routes (plugins/console.ts): requests checked, answers serialized and the
// OpenAPI document built from them. A session is a cookie plus a CSRF token; the operator key is sent once, here.
import { errors } from '../errors.js';
import { PASSWORD_RULE } from '../auth/passwords.js';
import { EMAIL, NEW_PASSWORD, PASSWORD, PERSON_NAME, SESSION_USER } from './people-schemas.js';
import {
  withSchema,
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  noContentResponse,
  security,
  type SchemaRoute,
} from './shared-schemas.js';

const EXPIRES = '2026-11-25T18:00:00.000Z';
const CSRF = 'csrf_Q2hhbmdlIG1lOiB0aGlzIGlzIGFuIGV4YW1wbGUgdG9rZW4';

const sessionSchema = {
  type: 'object',
  required: ['csrf_token', 'expires_at', 'user'],
  properties: {
    csrf_token: {
      type: 'string',
      description: 'Send it in `X-CSRF-Token` with every POST, PUT, PATCH and DELETE of this session.',
    },
    expires_at: { type: 'string', format: 'date-time', description: 'When the session ends on its own.' },
    user: SESSION_USER,
  },
  additionalProperties: false,
} as const;

const session = (description: string) => ({
  ...sessionSchema,
  description,
  headers: {
    'Set-Cookie': {
      type: 'string',
      description: '`feature_console=…; Path=/admin; HttpOnly; SameSite=Strict` (and `Secure` over HTTPS)',
    },
  },
  examples: [
    { csrf_token: CSRF, expires_at: EXPIRES, user: null },
    {
      csrf_token: CSRF,
      expires_at: EXPIRES,
      user: {
        id: 'u5nq3c7vjk2mxz4ahpdw',
        email: 'ada@example.com',
        name: 'Ada',
        accounts: [{ account_id: 'k2vb7ndq5wfx3hjz6mcp', role: 'editor' }],
      },
    },
  ],
});

const noSession = errorResponse(
  'No session cookie, or a session that ended or expired.',
  errorAnswer(errors.consoleSignInRequired()),
  errorAnswer(errors.consoleSessionEnded()),
);
const csrf = errorResponse(
  'A session change without its CSRF token, or one the browser marks cross-site.',
  errorAnswer(errors.csrfRejected('The X-CSRF-Token header is missing')),
);

const route = (schema: Parameters<typeof withSchema>[0]): SchemaRoute =>
  withSchema({ tags: ['operator'], ...schema });

const noOperator = errorResponse(
  'No operator key or session, a wrong key, or a session that ended (or was opened with another operator key).',
  errorAnswer(errors.consoleSignInRequired()),
  errorAnswer(errors.invalidToken()),
  errorAnswer(errors.consoleSessionEnded()),
);
const locked = {
  ...errorResponse(
    'Too many wrong operator keys from this address (at sign-in or as a Bearer key): even the right key waits Retry-After seconds.',
    errorAnswer(errors.signInLocked(4)),
  ),
  headers: { 'Retry-After': { type: 'string', description: 'Seconds to wait.' } },
};

/** The route that uses an invitation or reset link (console.ts). */
const linkRoute = (kind: 'invitation' | 'reset', summary: string, description: string): SchemaRoute =>
  route({
    summary,
    description: `${description} Only \`application/json\` from this site is read. The link is spent once the password is set.`,
    security: security.none,
    consumes: ['application/json'],
    body: {
      type: 'object',
      required: ['token', 'password'],
      properties: {
        token: {
          type: 'string',
          minLength: 1,
          maxLength: 512,
          'x-storable': true,
          description: `The token after \`#${kind === 'invitation' ? 'invite' : 'reset'}=\`.`,
        },
        password: NEW_PASSWORD,
        ...(kind === 'invitation' ? { name: PERSON_NAME } : {}),
      },
      additionalProperties: false,
      examples: [
        {
          token: `${kind === 'invitation' ? 'fci' : 'fcr'}_T25lIHRpbWUgbGluayBleGFtcGxlIHRva2VuIGhlcmUu`,
          password: 'correct horse battery staple',
          ...(kind === 'invitation' ? { name: 'Ada' } : {}),
        },
      ],
    },
    response: {
      200: session('Password set; signed in.'),
      400: errorResponse(
        'A missing or wrong field: the password is too short or too long, the token not a string.',
        errorAnswer(errors.invalidBody('password', PASSWORD_RULE)),
      ),
      403: errorResponse(
        'The browser marks the request `Sec-Fetch-Site: cross-site`: a page of another site.',
        errorAnswer(errors.crossSiteSignIn()),
      ),
      404: errorResponse(
        'A link this server never made (or the console is off).',
        errorAnswer(errors.spentUserLink(kind, 'unknown')),
      ),
      410: errorResponse(
        'A link already used, or expired: ask for a new one.',
        errorAnswer(errors.spentUserLink(kind, 'used')),
        errorAnswer(errors.spentUserLink(kind, 'expired')),
      ),
      413: errorResponse('The body is over 1 MiB.', errorAnswer(errors.payloadTooLarge(1024 * 1024))),
      415: errorResponse('The body is not `application/json`.', errorAnswer(errors.signInNotJson())),
      500: internalErrorResponse,
    },
  });

/** The console session routes' options, by route. */
export const consoleRouteSchemas = {
  signIn: route({
    summary: 'Sign in to the console',
    description:
      'Trades the operator key, or a one-time sign-in link (`feature-server console`, or the link `npm start` prints), for a session cookie and its CSRF token. Wrong keys are answered after the same delay and lock the address out after repeated failures (429), counted together with wrong keys sent to the operator routes. Only `application/json` from this site is read: a request the browser marks cross-site (403) and any other body type (415) are refused before the key is looked at, and are not counted, so that a page of another site cannot lock the address out. The session is bound to the operator key that opened it (with a link, to the key the link was made under): it ends once the server runs with another key.',
    security: security.none,
    consumes: ['application/json'],
    body: {
      type: 'object',
      properties: {
        operator_key: { type: 'string', minLength: 1, maxLength: 512 },
        sign_in_link: {
          type: 'string',
          minLength: 1,
          maxLength: 512,
          description: 'The token after `#sign-in=`.',
        },
        email: EMAIL,
        password: PASSWORD,
      },
      examples: [
        { operator_key: 'an-operator-key-of-at-least-24-characters' },
        { email: 'ada@example.com', password: 'correct horse battery staple' },
      ],
    },
    response: {
      200: session('Signed in.'),
      400: errorResponse(
        'Not exactly one credential (the key, a link, or an email with its password), or not a string.',
        errorAnswer(
          errors.invalidBody(
            '(body)',
            'send exactly one of operator_key, sign_in_link, or email with password, as strings',
          ),
        ),
      ),
      401: errorResponse(
        'Not an operator key, a used or expired link, or a wrong email or password (one answer for an unknown email and a wrong password, after the same time).',
        errorAnswer(errors.invalidOperatorKey()),
        errorAnswer(errors.spentSignInLink()),
        errorAnswer(errors.invalidCredentials()),
      ),
      403: errorResponse(
        'The browser marks the request `Sec-Fetch-Site: cross-site`: a page of another site. Not counted as a wrong key.',
        errorAnswer(errors.crossSiteSignIn()),
      ),
      404: errorResponse(
        'The console is off: the server has no operator key.',
        errorAnswer(errors.notFound('POST', '/admin/session (the console is off: set FEATURE_OPERATOR_KEY)')),
      ),
      413: errorResponse('The body is over 1 MiB.', errorAnswer(errors.payloadTooLarge(1024 * 1024))),
      415: errorResponse(
        'The body is not `application/json` (text/plain and forms are refused: any page can post them). Not counted as a wrong key.',
        errorAnswer(errors.signInNotJson()),
      ),
      429: {
        ...locked,
        ...errorResponse(
          'Too many wrong operator keys from this address, or wrong passwords from it or for the email: even the right one waits Retry-After seconds.',
          errorAnswer(errors.signInLocked(4)),
          errorAnswer(errors.signInLockedForEmail(4)),
        ),
      },
      500: internalErrorResponse,
    },
  }),
  acceptInvitation: linkRoute(
    'invitation',
    'Accept an invitation',
    'Opens the one-time invitation link (`/admin/#invite=…`, valid 7 days) an admin, the operator or `feature-server user invite` made: the person chooses a password (and a display name) and is signed in.',
  ),
  resetPassword: linkRoute(
    'reset',
    'Choose a new password',
    "Opens the one-time reset link (`/admin/#reset=…`, valid 1 hour) an admin of one of the person's accounts or `feature-server user reset-link` made: the new password replaces the old one, the person's other console sessions end, and this browser is signed in.",
  ),
  readSession: route({
    summary: 'Read the console session',
    description: "The session's CSRF token and end, for a console page loaded again while signed in.",
    security: [{ consoleSession: [] }],
    response: { 200: session('The session.'), 401: noSession, 500: internalErrorResponse },
  }),
  signOut: route({
    summary: 'Sign out of the console',
    description:
      'Ends the session on the server (its cookie no longer opens anything) and clears the cookie.',
    security: [{ consoleSession: [] }],
    response: {
      204: noContentResponse('Signed out.'),
      401: noSession,
      403: csrf,
      500: internalErrorResponse,
    },
  }),
  newSignInLink: route({
    summary: 'Make a one-time console sign-in link',
    description:
      "A link that signs a browser in once, within 15 minutes: what `feature-server console` prints. Open it on this server. It is bound to the caller's operator key (a session's, to the key that opened the session): once the server runs with another key, it no longer signs in.",
    security: security.operator,
    response: {
      201: {
        type: 'object',
        required: ['path', 'expires_at'],
        properties: {
          path: {
            type: 'string',
            description:
              "The link's path on this server (the token is in the fragment, never sent in a request line).",
          },
          expires_at: { type: 'string', format: 'date-time' },
        },
        additionalProperties: false,
        description: 'The link.',
        headers: { 'Cache-Control': { type: 'string', description: '`no-store`' } },
        examples: [
          {
            path: '/admin/#sign-in=fcl_U2lnbiBpbiBvbmNlIHdpdGggdGhpcyBleGFtcGxlIGxpbms',
            expires_at: EXPIRES,
          },
        ],
      },
      401: noOperator,
      403: csrf,
      429: locked,
      500: internalErrorResponse,
    },
  }),
  endAllSessions: route({
    summary: 'End every console session',
    description:
      'Signs every browser out of the console, on every server instance of the database, the caller included (its cookie is cleared), and voids every unused sign-in link. What the console\'s "End all sessions" and `feature-server console end-sessions` do. A leaked operator key is not stopped by this: change `FEATURE_OPERATOR_KEY`, which also ends the old key\'s sessions.',
    security: security.operator,
    response: {
      200: {
        type: 'object',
        required: ['ended'],
        properties: {
          ended: { type: 'integer', minimum: 0, description: 'How many sessions were open and have ended.' },
        },
        additionalProperties: false,
        description: 'Every session has ended.',
        headers: {
          'Cache-Control': { type: 'string', description: '`no-store`' },
          'Set-Cookie': {
            type: 'string',
            description:
              'With a session cookie: `feature_console=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0`',
          },
        },
        examples: [{ ended: 3 }],
      },
      401: noOperator,
      403: csrf,
      429: locked,
      500: internalErrorResponse,
    },
  }),
};
