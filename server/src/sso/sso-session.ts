// What a verified single sign-on opens (issue 36): the person's user, found or made, their role in the account
// set from the mappings (recordSsoSignIn), and a console session opened exactly as a password sign-in opens
// one (the same cookie and CSRF token; console-sessions.ts), before the browser lands on the console.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setRequestActor } from '../audit/actor.js';
import type { ConsoleSessions } from '../auth/console-sessions.js';
import { sessionCookie } from '../auth/session-cookie.js';
import type { SsoStore } from '../store/sso-store.js';
import type { AuditStore } from '../store/audit-store.js';
import { consoleSignInRefused, recordRefusedSignIn } from '../audit/refused-sign-in.js';
import { sendRefusal } from './sso-page.js';
import { refusals } from './sso-refusal.js';
import type { SsoIdentity } from './sso-sign-in.js';

/** Where the browser lands once signed in. */
export const CONSOLE_PATH = '/admin/';

/** The `onSignedIn` of the single sign-on pages: records the sign-in, opens the session, redirects. */
export const openSsoSession =
  (store: SsoStore & Pick<AuditStore, 'recordAuditEvent'>, sessions: ConsoleSessions, now: () => number) =>
  async (identity: SsoIdentity, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const recorded = await store.recordSsoSignIn({ ...identity, nowMs: now(), address: request.ip });
    if ('refused' in recorded) {
      const refusal = refusals.otherAccounts(identity.email);
      await recordRefusedSignIn(
        store,
        request,
        consoleSignInRefused({ method: 'sso', why: refusal.reason, email: identity.email }),
      );
      return sendRefusal(reply, refusal);
    }
    // Whatever the sign-in changed (a user made, a role set) is the person's own doing.
    setRequestActor(request, {
      kind: 'user',
      id: recorded.user.id,
      label: recorded.user.email,
      address: request.ip,
    });
    const opened = await sessions.openForUser(recorded.user.id);
    // Only when the user lost every membership since the line above: as a password sign-in would be, refused.
    if (opened === null) return sendRefusal(reply, refusals.noRole(identity.email, identity.accountId));
    request.log.info(
      { userId: recorded.user.id, accountId: identity.accountId, role: recorded.role },
      'single sign-on',
    );
    // A cookie set on the answer to the provider's (cross-site) redirect is stored all the same; the console
    // page's own requests then carry it (SameSite=Strict is about where a request comes from).
    return reply
      .code(303)
      .headers({
        'set-cookie': sessionCookie(request, opened.id, opened.expiresMs, now()),
        location: CONSOLE_PATH,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      })
      .send();
  };
