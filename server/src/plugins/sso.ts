// The single sign-on pages (issue 36): the public list of accounts that offer it (the console's sign-in screen
// shows a button per account), the start (a redirect to the account's provider) and the callback (the
// provider's redirect back). Start and callback are browser navigations: a refusal is a page, not JSON, and no
// refusal opens anything. What a verified sign-in opens is the caller's (`onSignedIn`: a console session).
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { CALLBACK_PATH, callbackUrlOf, currentUrlOf } from '../sso/callback-url.js';
import { clearedSsoCookie, ssoCookie, ssoCookieOf } from '../sso/sso-cookie.js';
import { sendRefusal } from '../sso/sso-page.js';
import { SsoRefusal } from '../sso/sso-refusal.js';
import type { ConsoleSessions } from '../auth/console-sessions.js';
import type { SsoProviders } from '../sso/sso-providers.js';
import { openSsoSession } from '../sso/sso-session.js';
import { SsoSignIns, type SsoIdentity, type StartedSignIn } from '../sso/sso-sign-in.js';
import type { UserStore } from '../store/user-store.js';
import type { SsoStore } from '../store/sso-store.js';
import type { AuditStore } from '../store/audit-store.js';
import { consoleSignInRefused, recordRefusedSignIn } from '../audit/refused-sign-in.js';
import { ssoRoutes as doc } from './sso-settings-schemas.js';

/** What the pages are built with. */
export interface SsoPageOptions {
  /** The settings and sign-ins; refused sign-ins go to the audit log. */
  store: SsoStore & Pick<AuditStore, 'recordAuditEvent'>;
  signIns: SsoSignIns;
  /** Opens what a verified sign-in gives (a console session) and answers the browser. */
  onSignedIn: (identity: SsoIdentity, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  now: () => number;
}

const page = { schema: { hide: true } };

/**
 * Registers GET /admin/sso, /admin/sso/{accountId}/start and /admin/sso/callback, with what a verified sign-in
 * opens given (tests give their own).
 */
export const ssoPagesWith: FastifyPluginCallback<SsoPageOptions> = (app, options, registered) => {
  const { store, signIns } = options;

  app.get('/admin/sso', doc.listOffers, async (_request, reply) => {
    const offers = await store.listEnabledSso();
    return reply.header('cache-control', 'no-store').send({
      items: offers.map((offer) => ({
        account_id: offer.accountId,
        name: offer.name,
        start_path: `/admin/sso/${encodeURIComponent(offer.accountId)}/start`,
      })),
    });
  });

  app.get('/admin/sso/:accountId/start', page, async (request, reply) => {
    const { accountId } = request.params as { accountId: string };
    let started: StartedSignIn;
    try {
      started = await signIns.start(accountId, callbackUrlOf(request));
    } catch (error) {
      if (error instanceof SsoRefusal) return sendRefusal(reply, error);
      throw error;
    }
    return reply
      .code(303)
      .headers({
        location: started.authorizationUrl.href,
        'set-cookie': ssoCookie(request, started.cookieValue, started.expiresMs, options.now()),
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      })
      .send();
  });

  app.get(CALLBACK_PATH, page, async (request, reply) => {
    // Spent whatever happens: the browser forgets it, and the store already has (sso-sign-in.ts).
    void reply.header('set-cookie', clearedSsoCookie(request));
    let identity: SsoIdentity;
    try {
      identity = await signIns.finish(ssoCookieOf(request), currentUrlOf(request));
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      request.log.info({ reason: error.reason }, 'single sign-on refused');
      await recordRefusedSignIn(store, request, consoleSignInRefused({ method: 'sso', why: error.reason }));
      return sendRefusal(reply, error);
    }
    return options.onSignedIn(identity, request, reply);
  });
  registered();
};

/** The pages as the server runs them: a verified sign-in opens a console session (sso-session.ts). */
export const ssoPages: FastifyPluginCallback<{
  store: SsoStore & UserStore & Pick<AuditStore, 'recordAuditEvent'>;
  providers: SsoProviders;
  sessions: ConsoleSessions;
  now: () => number;
}> = (app, { store, providers, sessions, now }, registered) => {
  void app.register(ssoPagesWith, {
    store,
    signIns: new SsoSignIns(store, providers, now),
    onSignedIn: openSsoSession(store, sessions, now),
    now,
  });
  registered();
};
