// Who may call the operator routes (§13.8): a caller with the operator key in `Authorization: Bearer`, or the
// console in a browser with a session cookie (console-sessions.ts). A cookie is sent by the browser on its own,
// so a request it authorizes is a cross-site request forgery risk: every state-changing one must also carry
// the session's CSRF token in `X-CSRF-Token` (a header no other site's page can set without CORS, which /admin
// never grants), and a request the browser marks cross-site (`Sec-Fetch-Site`) is refused outright.
//
// The operator key opens every account, so guessing it is slowed as client secrets are (§13.7): wrong keys from
// one address, at the console's sign-in or in a Bearer header, count together and lock the address out for a
// while, during which even the right key is refused (429), and each wrong key is answered no sooner than the
// failure floor. A session id is 256 random bits: a wrong cookie is not counted.
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { setRequestActor } from '../audit/actor.js';
import { errors } from '../errors.js';
import { CREDENTIAL_FAILURE_FLOOR_MS, noSoonerThan } from '../http/failure-floor.js';
import { ConsoleSessions, type ConsoleSession } from './console-sessions.js';
import type { OperatorKey, OperatorKeys } from './operator-keys.js';
import type { TokenRateLimits } from './rate-limits.js';
import { setRequestCaller, type OperatorCaller } from './request-caller.js';
import { sessionIdOf } from './session-cookie.js';
import type { UserStore } from '../store/user-store.js';

/** Methods that change nothing: no CSRF token needed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The client id under which wrong operator keys are counted (rate-limits.ts): not one a client can have, since
 * client ids are `ffc_…`.
 */
const OPERATOR_KEY_CLIENT = '(operator key)';

/** The lockout of an address that sent wrong operator keys, shared by the console's sign-in and the Bearer check. */
export class OperatorKeyLockout {
  readonly #limits: TokenRateLimits;

  constructor(limits: TokenRateLimits) {
    this.#limits = limits;
  }

  /** Throws the 429 (with Retry-After) while `request`'s address waits. */
  check(request: FastifyRequest): void {
    const wait = this.#limits.lockedFor(request.ip, OPERATOR_KEY_CLIENT);
    if (wait !== null) throw errors.signInLocked(wait);
  }

  /** Counts a wrong key from `request`'s address; resolves at the failure floor after `started`. */
  async failed(request: FastifyRequest, started: number): Promise<void> {
    this.#limits.failed(request.ip, OPERATOR_KEY_CLIENT);
    await noSoonerThan(started, CREDENTIAL_FAILURE_FLOOR_MS);
  }

  /** The right key: the address's count starts afresh. */
  succeeded(request: FastifyRequest): void {
    this.#limits.succeeded(request.ip, OPERATOR_KEY_CLIENT);
  }
}

/** Checks a request's operator credentials; throws the 401/403/429 to answer. */
export type OperatorCheck = (request: FastifyRequest) => Promise<OperatorCaller>;

/**
 * What the operator check is made of: the instance's keys, the console's sessions, the lockout, and the users
 * (to name a person's session).
 */
export interface OperatorCheckOptions {
  keys: OperatorKeys;
  sessions: ConsoleSessions;
  lockout: OperatorKeyLockout;
  users: Pick<UserStore, 'getUser'>;
}

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

/**
 * The short name of an operator key in the audit log: 8 hex digits of a digest of its (scrypt) digest, so
 * two keys read apart and the entry reveals nothing that helps guess the key.
 */
export const operatorKeyFingerprint = async (key: OperatorKey): Promise<string> =>
  createHash('sha256')
    .update(await key.digest())
    .digest('hex')
    .slice(0, 8);

const nameOperator = async (request: FastifyRequest, key: OperatorKey): Promise<void> => {
  const fingerprint = await operatorKeyFingerprint(key);
  setRequestActor(request, {
    kind: 'operator_key',
    id: fingerprint,
    label: `operator key ${fingerprint}`,
    address: request.ip,
  });
};

/**
 * The check of the operator routes: the operator key, else a console session (of the key or of a person).
 * Names the caller for the audit log and for the handlers (request-caller.ts).
 */
export const operatorCheck = (options: OperatorCheckOptions): OperatorCheck => {
  const check = checkOperator(options);
  return async (request) => {
    const caller = await check(request);
    setRequestCaller(request, caller);
    return caller;
  };
};

const checkOperator = ({ keys, sessions, lockout, users }: OperatorCheckOptions): OperatorCheck => {
  return async (request) => {
    const header = request.headers.authorization;
    if (header !== undefined) {
      const started = performance.now();
      lockout.check(request);
      const given = /^Bearer +(\S+) *$/i.exec(header)?.[1];
      const key = given === undefined ? null : keys.find(given);
      if (key === null) {
        await lockout.failed(request, started);
        throw errors.invalidToken();
      }
      lockout.succeeded(request);
      await nameOperator(request, key);
      return { kind: 'operator_key', key, sessionId: null };
    }
    const found = await consoleSessionOf(request, sessions);
    if (found === null) throw errors.consoleSignInRequired();
    const { owner } = found.session;
    if (owner.kind === 'user') {
      const user = await users.getUser(owner.userId);
      if (user === null) throw errors.consoleSessionEnded();
      setRequestActor(request, { kind: 'user', id: user.id, label: user.email, address: request.ip });
      return { kind: 'user', user, sessionId: found.id };
    }
    const { keyDigest } = owner;
    const key: OperatorKey = { digest: () => Promise.resolve(keyDigest) };
    await nameOperator(request, key);
    return { kind: 'operator_key', key, sessionId: found.id };
  };
};
