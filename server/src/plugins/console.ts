// The browser console at /admin: its page and assets (built by vite into dist/console), and its session routes.
// Signing in trades the operator key (or a one-time sign-in link) for an HttpOnly session cookie and a CSRF
// token, so the key never stays in the page; from then on the console calls the operator routes (§13.8) like
// any client, and operator.ts accepts the session in place of the key. Every console answer carries a strict
// Content-Security-Policy: the page runs only its own scripts and styles and talks only to this server.
// Sessions and links are bound to the operator key that opened them (console-sessions.ts); one route ends
// every session at once.
import { join, normalize, sep } from 'node:path';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, FastifyPluginCallback } from 'fastify';
import type { ConsoleSessions, OpenedSession } from '../auth/console-sessions.js';
import {
  consoleSessionOf,
  operatorCheck,
  type OperatorCaller,
  type OperatorKeyLockout,
} from '../auth/operator-auth.js';
import { OperatorKeys } from '../auth/operator-keys.js';
import { clearedSessionCookie, sessionCookie, sessionIdOf } from '../auth/session-cookie.js';
import { recordRefusedSignIn } from '../audit/refused-sign-in.js';
import { errors, type ApiError } from '../errors.js';
import type { AuditStore } from '../store/audit-store.js';
import { sendStaticFile } from '../http/static-file.js';
import { consoleRouteSchemas as doc } from './console-schemas.js';

/** Where the console is and who may sign in. */
export interface ConsoleOptions {
  sessions: ConsoleSessions;
  /** The operator keys; none: the console is off and /admin says how to turn it on. */
  operatorKeys: readonly string[];
  /** Wrong keys per address, counted with the operator routes' Bearer check (operator-auth.ts). */
  lockout: OperatorKeyLockout;
  /** The built console (index.html and assets/); absent: only the session routes are served. */
  consoleDir?: string;
  now: () => number;
  /** Where refused sign-ins are logged. */
  audit: Pick<AuditStore, 'recordAuditEvent'>;
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

const sessionAnswer = (csrf: string, expiresMs: number) => ({
  csrf_token: csrf,
  expires_at: new Date(expiresMs).toISOString(),
});

/**
 * Registers /admin (page and assets), /admin/session, /admin/v1/console/sign-in-links and
 * /admin/v1/console/sessions.
 */
export const consoleRoutes: FastifyPluginCallback<ConsoleOptions> = (app, options, registered) => {
  const { sessions, lockout } = options;
  const keys = new OperatorKeys(options.operatorKeys);
  const enabled = keys.size > 0;

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
    scope.post('/admin/session', { ...doc.signIn, onRequest: signInFromThisSite }, async (request, reply) => {
      const started = performance.now();
      lockout.check(request);
      const body = request.body;
      const fields =
        typeof body === 'object' && body !== null && !Array.isArray(body)
          ? (body as Record<string, unknown>)
          : {};
      const key = fields.operator_key;
      const link = fields.sign_in_link;
      if ((key === undefined) === (link === undefined))
        throw errors.invalidBody('(body)', 'send exactly one of operator_key and sign_in_link, as strings');
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
        await recordRefusedSignIn(options.audit, request, {
          action: 'console.sign_in_failed',
          accountId: null,
          subjectKind: 'session',
          subjectId: null,
          details: { method: key === undefined ? 'sign_in_link' : 'operator_key' },
        });
        await lockout.failed(request, started);
        throw key === undefined ? errors.spentSignInLink() : errors.invalidOperatorKey();
      }
      lockout.succeeded(request);
      // A browser that was signed in before keeps no second session alive.
      const previous = sessionIdOf(request);
      if (previous !== null) await sessions.end(previous);
      void reply.header('set-cookie', sessionCookie(request, opened.id, opened.expiresMs, options.now()));
      return sessionAnswer(opened.csrf, opened.expiresMs);
    });
    scope.get('/admin/session', doc.readSession, async (request, reply) => {
      const found = await consoleSessionOf(request, sessions);
      if (found === null) throw errors.consoleSignInRequired();
      return reply.send(sessionAnswer(found.session.csrf, found.session.expiresMs));
    });
    scope.delete('/admin/session', doc.signOut, async (request, reply) => {
      const found = await consoleSessionOf(request, sessions);
      if (found === null) throw errors.consoleSignInRequired();
      await sessions.end(found.id);
      return reply.header('set-cookie', clearedSessionCookie(request)).code(204).send();
    });
    if (enabled) {
      const check = operatorCheck({ keys, sessions, lockout });
      // Checked before the body is read, as on every operator route; the handler needs to know who called.
      const callers = new WeakMap<FastifyRequest, OperatorCaller>();
      const onRequest = async (request: FastifyRequest) => {
        callers.set(request, await check(request));
      };
      const callerOf = (request: FastifyRequest): OperatorCaller => {
        const caller = callers.get(request);
        if (caller === undefined) throw errors.consoleSignInRequired();
        return caller;
      };
      scope.post(
        '/admin/v1/console/sign-in-links',
        { ...doc.newSignInLink, onRequest },
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
        { ...doc.endAllSessions, onRequest },
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
