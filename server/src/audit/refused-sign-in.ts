// Failed sign-ins in the audit log (issue 36): a refused operator key or sign-in link at the console, a wrong
// client secret at the token route. No one is signed in, so the entry names the caller as anonymous, by its
// address; the caller's words (a client id) are kept as sent, made storable by recordAudit. The credential
// itself never enters the entry.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { JsonValue } from './audit-diff.js';
import { actingAs, type Actor } from './actor.js';
import type { AuditStore, AuditSubjectKind } from '../store/audit-store.js';

/** The caller of a refused sign-in: anonymous, at the request's address (after TRUST_PROXY). */
export const anonymousActor = (request: FastifyRequest): Actor => ({
  kind: 'anonymous',
  id: null,
  label: 'anonymous',
  address: request.ip,
});

/** What a refused sign-in was: the action and what it was about. */
export interface RefusedSignIn {
  action: 'console.sign_in_failed' | 'oauth.token_refused';
  /** The account it tried to reach, when the route names one (unknown ones are kept as none). */
  accountId: string | null;
  subjectKind: AuditSubjectKind;
  subjectId: string | null;
  details: { [key: string]: JsonValue };
}

/** Records a refused sign-in of `request`, by its anonymous caller. */
export const recordRefusedSignIn = (
  store: Pick<AuditStore, 'recordAuditEvent'>,
  request: FastifyRequest,
  refused: RefusedSignIn,
): Promise<void> =>
  actingAs(anonymousActor(request), () =>
    store.recordAuditEvent({
      accountId: refused.accountId,
      envId: null,
      subjectKind: refused.subjectKind,
      subjectId: refused.subjectId,
      action: refused.action,
      before: null,
      after: null,
      details: refused.details,
    }),
  );

/**
 * A refused console sign-in: about a console session for the operator key and its sign-in links, about a person
 * for a password or a person's link. `details` say how (`method`) and with what (an email as typed).
 */
export const consoleSignInRefused = (details: {
  method: string;
  [key: string]: JsonValue;
}): RefusedSignIn => ({
  action: 'console.sign_in_failed',
  accountId: null,
  subjectKind: details.method === 'operator_key' || details.method === 'sign_in_link' ? 'session' : 'user',
  subjectId: null,
  details,
});

/**
 * Rethrows `error`, first recording it as a refused console sign-in when `detailsOf` says it is one (its
 * details; null: some other refusal, such as a lockout or a bad body, which is not logged).
 */
export const rethrowRefusedSignIn = async (
  store: Pick<AuditStore, 'recordAuditEvent'>,
  request: FastifyRequest,
  error: unknown,
  detailsOf: (error: ApiError) => { method: string; [key: string]: JsonValue } | null,
): Promise<never> => {
  const details = error instanceof ApiError ? detailsOf(error) : null;
  if (details !== null) await recordRefusedSignIn(store, request, consoleSignInRefused(details));
  throw error;
};
