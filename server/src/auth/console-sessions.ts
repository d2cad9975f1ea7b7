// Sessions of the browser console (/admin). Signing in with the operator key, or with a one-time sign-in link
// the server prints at start, opens a session: the browser holds only its random id in an HttpOnly cookie, so
// the operator key never sits in the page. The store keeps SHA-256 digests of ids and links (a copy of the
// table opens nothing), so every instance on one database knows every session, sign-out on one ends it on all,
// and a restart signs no one out. The CSRF token is derived from the session id (a one-way digest): nothing to
// store, nothing that reveals the id, and a token that fits one session only.
import { createHash, randomBytes } from 'node:crypto';
import { digest, secretMatches } from '../ids.js';
import type { Store } from '../store/store.js';

/** A console session as the routes see it. */
export interface ConsoleSession {
  /** The token every state-changing request of this session must carry in `X-CSRF-Token`. */
  csrf: string;
  /** When the session ends on its own (epoch ms). */
  expiresMs: number;
}

/** A session just opened: its cookie value is shown to the browser once. */
export interface OpenedSession extends ConsoleSession {
  id: string;
}

/** Lifetimes; tests set their own. */
export interface ConsoleSessionOptions {
  /** How long a session lasts from sign-in (default 8 hours): a working day, then sign in again. */
  sessionLifetimeMs?: number;
  /** How long a sign-in link can be used (default 15 minutes), once. */
  linkLifetimeMs?: number;
  now?: () => number;
}

const newSecret = (prefix: string): string => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** The CSRF token of a session id. */
const csrfOf = (id: string): string =>
  `csrf_${createHash('sha256').update(`feature-console-csrf:${id}`, 'utf8').digest('base64url')}`;

/** The console's sessions and sign-in links. */
export class ConsoleSessions {
  readonly #store: Store;
  readonly #sessionLifetimeMs: number;
  readonly #linkLifetimeMs: number;
  readonly #now: () => number;

  constructor(store: Store, options: ConsoleSessionOptions = {}) {
    this.#store = store;
    this.#sessionLifetimeMs = options.sessionLifetimeMs ?? 8 * 3_600_000;
    this.#linkLifetimeMs = options.linkLifetimeMs ?? 15 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Opens a session (after the caller checked the operator key or redeemed a link). */
  async open(): Promise<OpenedSession> {
    const now = this.#now();
    const id = newSecret('fcs');
    const expiresMs = now + this.#sessionLifetimeMs;
    await this.#store.createConsoleSession(digest(id), now, expiresMs);
    return { id, csrf: csrfOf(id), expiresMs };
  }

  /** The live session of a cookie value, or null (unknown, ended or expired). */
  async find(id: string): Promise<ConsoleSession | null> {
    const found = await this.#store.findConsoleSession(digest(id), this.#now());
    return found === null ? null : { csrf: csrfOf(id), expiresMs: found.expiresMs };
  }

  /** Ends a session; false when it was not open. */
  end(id: string): Promise<boolean> {
    return this.#store.endConsoleSession(digest(id));
  }

  /** A new one-time sign-in link token and when it stops working. */
  async createLink(): Promise<{ token: string; expiresMs: number }> {
    const token = newSecret('fcl');
    const expiresMs = this.#now() + this.#linkLifetimeMs;
    await this.#store.createSignInLink(digest(token), expiresMs);
    return { token, expiresMs };
  }

  /** Uses a sign-in link: true once for a live link, false ever after. */
  redeemLink(token: string): Promise<boolean> {
    return this.#store.redeemSignInLink(digest(token), this.#now());
  }

  /** Whether `given` is the session's CSRF token (constant time). */
  static csrfMatches(session: ConsoleSession, given: string): boolean {
    return secretMatches(given, digest(session.csrf));
  }
}
