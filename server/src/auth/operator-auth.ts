// Who may call the operator routes (§13.8): a caller with the operator key in `Authorization: Bearer`, or the
// console in a browser with a session cookie (console-sessions.ts). A cookie is sent by the browser on its own,
// so a request it authorizes is a cross-site request forgery risk: every state-changing one must also carry
// the session's CSRF token in `X-CSRF-Token` (a header no other site's page can set without CORS, which /admin
// never grants), and a request the browser marks cross-site (`Sec-Fetch-Site`) is refused outright.
import type { FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import { digest, secretMatches } from '../ids.js';
import { ConsoleSessions, type ConsoleSession } from './console-sessions.js';
import { sessionIdOf } from './session-cookie.js';

/** Methods that change nothing: no CSRF token needed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Checks a request's operator credentials; throws the 401/403 to answer. */
export type OperatorCheck = (request: FastifyRequest) => Promise<void>;

/** True when `key` is one of the operator keys (every key compared, so timing tells nothing). */
export const operatorKeyMatcher = (operatorKeys: readonly string[]): ((key: string) => boolean) => {
  const digests = operatorKeys.map((key) => digest(key));
  return (key) => digests.map((d) => secretMatches(key, d)).includes(true);
};

/** The request's live console session and its id, or null; refuses forged or cross-site changes. */
export const consoleSessionOf = async (
  request: FastifyRequest,
  sessions: ConsoleSessions,
): Promise<{ id: string; session: ConsoleSession } | null> => {
  const id = sessionIdOf(request);
  if (id === null) return null;
  const session = await sessions.find(id);
  if (session === null) throw errors.consoleSessionEnded();
  if (!SAFE_METHODS.has(request.method)) {
    if (request.headers['sec-fetch-site'] === 'cross-site')
      throw errors.csrfRejected('The browser says this request comes from another site');
    const given = request.headers['x-csrf-token'];
    if (typeof given !== 'string' || !ConsoleSessions.csrfMatches(session, given))
      throw errors.csrfRejected(
        given === undefined ? 'The X-CSRF-Token header is missing' : 'The X-CSRF-Token header is wrong',
      );
  }
  return { id, session };
};

/** The check of the operator routes: the operator key, else a console session. */
export const operatorCheck = (operatorKeys: readonly string[], sessions: ConsoleSessions): OperatorCheck => {
  const isOperatorKey = operatorKeyMatcher(operatorKeys);
  return async (request) => {
    const header = request.headers.authorization;
    if (header !== undefined) {
      const key = /^Bearer +(\S+) *$/i.exec(header)?.[1];
      if (key === undefined || !isOperatorKey(key)) throw errors.invalidToken();
      return;
    }
    if ((await consoleSessionOf(request, sessions)) === null) throw errors.consoleSignInRequired();
  };
};
