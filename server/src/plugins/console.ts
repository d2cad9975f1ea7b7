// The browser console at /admin: its page and assets (built by vite into dist/console), and its session routes.
// Signing in trades the operator key (or a one-time sign-in link) for an HttpOnly session cookie and a CSRF
// token, so the key never stays in the page; from then on the console calls the operator routes (§13.8) like
// any client, and operator.ts accepts the session in place of the key. Every console answer carries a strict
// Content-Security-Policy: the page runs only its own scripts and styles and talks only to this server.
// Sessions and links are bound to the operator key that opened them (console-sessions.ts); one route ends
// every session at once.
import { join, normalize, sep } from 'node:path';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, FastifyPluginCallback } from 'fastify';
import type { ConsoleSessions, OpenedSession, SessionOwner } from '../auth/console-sessions.js';
import { consoleSessionOf, operatorCheck, type OperatorKeyLockout } from '../auth/operator-auth.js';
import type { People } from '../auth/people.js';
import { requestCaller, type OperatorCaller } from '../auth/request-caller.js';
import { checkRouteRole, needs, type RoleStores } from '../auth/route-roles.js';
import type { Role, UserStore } from '../store/user-store.js';
import { OperatorKeys } from '../auth/operator-keys.js';
import { clearedSessionCookie, sessionCookie, sessionIdOf } from '../auth/session-cookie.js';
import { errors, type ApiError } from '../errors.js';
import { sendStaticFile } from '../http/static-file.js';
import { consoleRouteSchemas as doc } from './console-schemas.js';

/** Where the console is and who may sign in. */
export interface ConsoleOptions {
  sessions: ConsoleSessions;
  /** The operator keys; none: the console is off and /admin says how to turn it on. */
  operatorKeys: readonly string[];
  /** Wrong keys per address, counted with the operator routes' Bearer check (operator-auth.ts). */
  lockout: OperatorKeyLockout;
  /** People's sign-in and links (auth/people.ts). */
  people: People;
  /** The users, and what a person's role is checked against (auth/route-roles.ts). */
  users: RoleStores & Pick<UserStore, 'getUser' | 'membershipsOf'>;
  /** The built console (index.html and assets/); absent: only the session routes are served. */
  consoleDir?: string;
  now: () => number;
}

/** The console page's policy: its own scripts, styles, images and API, nothing inline, never framed. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
} as const;

const OFF_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>feature console: off</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<h1>The console is off</h1>
<p>This server has no operator key. Start it with <code>FEATURE_OPERATOR_KEY</code> set to a random value of
at least 24 characters (or with <code>npm start</code> on the embedded store), then sign in here with that key.</p>
</body></html>`;

const hidden = { schema: { hide: true } };

const inside = (root: string, relative: string): string | null => {
  const path = normalize(join(root, relative));
  return path.startsWith(normalize(root) + sep) ? path : null;
};

/** The request's media type, lower case, without parameters ('' when none is sent). */
const mediaTypeOf = (request: FastifyRequest): string =>
  (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

const SIGN_IN_FIELDS = 'send exactly one of operator_key, sign_in_link, or email with password, as strings';

/** Who a session is, as the console shows it: the operator key (null), or the person and their accounts. */
type SessionUser = {
  id: string;
  email: string;
  name: string;
  accounts: Array<{ account_id: string; role: Role }>;
} | null;

const sessionAnswer = (csrf: string, expiresMs: number, user: SessionUser) => ({
  csrf_token: csrf,
  expires_at: new Date(expiresMs).toISOString(),
  user,
});

/**
 * Registers /admin (page and assets), /admin/session, /admin/v1/console/sign-in-links and
 * /admin/v1/console/sessions.
 */
export const consoleRoutes: FastifyPluginCallback<ConsoleOptions> = (app, options, registered) => {
  const { sessions, lockout, people, users } = options;
  const keys = new OperatorKeys(options.operatorKeys);
  const enabled = keys.size > 0;
  const whoOf = async (owner: SessionOwner): Promise<SessionUser> => {
    if (owner.kind === 'operator_key') return null;
    const user = await users.getUser(owner.userId);
    if (user === null) throw errors.consoleSessionEnded();
    const accounts = await users.membershipsOf(user.id);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      accounts: accounts.map((m) => ({ account_id: m.accountId, role: m.role })),
    };
  };

  const sendPage = async (request: FastifyRequest, reply: FastifyReply, relative: string) => {
    void reply.headers(PAGE_HEADERS);
    if (!enabled)
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(OFF_PAGE);
    const dir = options.consoleDir;
    const path = dir === undefined ? null : inside(dir, relative);
    if (path === null || !(await sendStaticFile(request, reply, path)))
      throw errors.notFound(request.method, `${request.url} (build the console with \`npm run build\`)`);
    return reply;
  };
  app.get('/admin', hidden, (request, reply) => sendPage(request, reply, 'index.html'));
  app.get('/admin/assets/*', hidden, (request, reply) => {
    const relative = (request.params as Record<string, string>)['*'] ?? '';
    return sendPage(request, reply, join('assets', relative));
  });

  // Checked before the body is read, so that neither refusal counts as a wrong key: wrong keys lock the address
  // out for the Bearer key too (operator-auth.ts), and a page of any site can post a text/plain or form body
  // with no CORS preflight. The console page signs in from its own origin, with application/json.
  const signInRefusal = (request: FastifyRequest): ApiError | undefined => {
    if (!enabled)
      return errors.notFound(request.method, `${request.url} (the console is off: set FEATURE_OPERATOR_KEY)`);
    if (request.headers['sec-fetch-site'] === 'cross-site') return errors.crossSiteSignIn();
    if (mediaTypeOf(request) !== 'application/json') return errors.signInNotJson();
    return undefined;
  };
  const signInFromThisSite: onRequestHookHandler = (request, _reply, done) => done(signInRefusal(request));

  app.register((scope, _options, registered) => {
    scope.addHook('onSend', (_request, reply, payload, done) => {
      void reply.headers({ 'cache-control': 'no-store', ...PAGE_HEADERS });
      done(null, payload);
    });
    /** Gives the browser its new session; a browser that was signed in before keeps no second one alive. */
    const startSession = async (request: FastifyRequest, reply: FastifyReply, opened: OpenedSession) => {
      const previous = sessionIdOf(request);
      if (previous !== null) await sessions.end(previous);
      void reply.header('set-cookie', sessionCookie(request, opened.id, opened.expiresMs, options.now()));
      return sessionAnswer(opened.csrf, opened.expiresMs, await whoOf(opened.owner));
    };
    scope.post('/admin/session', { ...doc.signIn, onRequest: signInFromThisSite }, async (request, reply) => {
      const body = request.body;
      const fields =
        typeof body === 'object' && body !== null && !Array.isArray(body)
          ? (body as Record<string, unknown>)
          : {};
      const { email, password } = fields;
      if (email !== undefined || password !== undefined) {
        if (fields.operator_key !== undefined || fields.sign_in_link !== undefined)
          throw errors.invalidBody('(body)', SIGN_IN_FIELDS);
        // The schema checked the types and lengths; a password's own rule is not checked here, so that a
        // password set under another rule still signs in.
        if (typeof email !== 'string' || typeof password !== 'string')
          throw errors.invalidBody('(body)', 'send both email and password, as strings');
        const { opened } = await people.signIn(request.ip, email, password);
        return startSession(request, reply, opened);
      }
      const started = performance.now();
      lockout.check(request);
      const key = fields.operator_key;
      const link = fields.sign_in_link;
      if ((key === undefined) === (link === undefined)) throw errors.invalidBody('(body)', SIGN_IN_FIELDS);
      const given = key ?? link;
      if (typeof given !== 'string' || given === '' || given.length > 512)
        throw errors.invalidBody(
          key === undefined ? 'sign_in_link' : 'operator_key',
          'must be a string of 1 to 512 characters',
        );
      // Bound to the operator key sent, or to the one the link is bound to (spent and opened in one go).
      let opened: OpenedSession | null = null;
      if (key === undefined) opened = await sessions.openWithLink(given);
      else {
        const keyDigest = await keys.find(given)?.digest();
        if (keyDigest !== undefined) opened = await sessions.open(keyDigest);
      }
      if (opened === null) {
        await lockout.failed(request, started);
        throw key === undefined ? errors.spentSignInLink() : errors.invalidOperatorKey();
      }
      lockout.succeeded(request);
      return startSession(request, reply, opened);
    });
    // An invitation or reset link: the person chooses a password (and, invited, a name) and is signed in.
    for (const [path, kind, route] of [
      ['/admin/session/invitation', 'invitation', doc.acceptInvitation],
      ['/admin/session/password-reset', 'reset', doc.resetPassword],
    ] as const) {
      scope.post(path, { ...route, onRequest: signInFromThisSite }, async (request, reply) => {
        const { token, password, name } = request.body as { token: string; password: string; name?: string };
        const { opened } = await people.useLink(kind, token, password, name?.trim());
        return startSession(request, reply, opened);
      });
    }
    scope.get('/admin/session', doc.readSession, async (request, reply) => {
      const found = await consoleSessionOf(request, sessions);
      if (found === null) throw errors.consoleSignInRequired();
      return reply.send(
        sessionAnswer(found.session.csrf, found.session.expiresMs, await whoOf(found.session.owner)),
      );
    });
    scope.delete('/admin/session', doc.signOut, async (request, reply) => {
      const found = await consoleSessionOf(request, sessions);
      if (found === null) throw errors.consoleSignInRequired();
      await sessions.end(found.id);
      return reply.header('set-cookie', clearedSessionCookie(request)).code(204).send();
    });
    if (enabled) {
      const check = operatorCheck({ keys, sessions, lockout, users });
      // Checked before the body is read, as on every operator route, the route's role included (both routes
      // are the operator key's: a person's session makes no sign-in links and ends no one else's session).
      const onRequest = async (request: FastifyRequest) => {
        await checkRouteRole(request, await check(request), users);
      };
      const callerOf = (request: FastifyRequest): OperatorCaller & { kind: 'operator_key' } => {
        const caller = requestCaller(request);
        if (caller.kind !== 'operator_key') throw errors.insufficientRole('the operator key');
        return caller;
      };
      scope.post(
        '/admin/v1/console/sign-in-links',
        { ...needs('operator_key', doc.newSignInLink), onRequest },
        async (request, reply) => {
          // Bound to the caller's key: a session's link dies with the key that opened the session. A session's
          // link is stored only while the session lasts: an end of all sessions since its check leaves none.
          const caller = callerOf(request);
          const link =
            caller.sessionId === null
              ? await sessions.createLink(await caller.key.digest())
              : await sessions.createLinkOfSession(caller.sessionId);
          if (link === null) throw errors.consoleSessionEnded();
          return reply.code(201).send({
            path: `/admin/#sign-in=${link.token}`,
            expires_at: new Date(link.expiresMs).toISOString(),
          });
        },
      );
      scope.delete(
        '/admin/v1/console/sessions',
        { ...needs('operator_key', doc.endAllSessions), onRequest },
        async (request, reply) => {
          const caller = callerOf(request);
          const ended = await sessions.endAll();
          // The caller's own session ended with the others: its browser forgets the cookie.
          if (caller.sessionId !== null) void reply.header('set-cookie', clearedSessionCookie(request));
          return reply.send({ ended });
        },
      );
    }
    registered();
  });
  registered();
};
