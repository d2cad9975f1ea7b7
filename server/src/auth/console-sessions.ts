// Sessions of the browser console (/admin). Signing in with the operator key, or with a one-time sign-in link
// the server prints at start, opens a session: the browser holds only its random id in an HttpOnly cookie, so
// the operator key never sits in the page. The store keeps SHA-256 digests of ids and links (a copy of the
// table opens nothing), so every instance on one database knows every session and sign-out on one ends it on
// all; a restart keeps the sessions of the keys the server still has (not those of the embedded store's
// per-run key, operator-keys.ts). The CSRF token is derived from the session id (a one-way digest): nothing to
// store, nothing that reveals the id, and a token that fits one session only.
//
// Each session and link is bound to the operator key that opened it (operator-keys.ts): a link made by a
// session, to that session's key. Only rows bound to one of this instance's keys are accepted, so a change of
// the operator key ends every session and link of the old one, and a leaked key's sessions cannot renew
// themselves through links once the key is changed. `endAll` ends every session at once, and no link a
// session makes or uses while it runs outlives it (store/sql/console-sessions-sql.ts).
import { createHash, randomBytes } from 'node:crypto';
import { digest, secretMatches } from '../ids.js';
import type { ConsoleSessionStore } from '../store/console-session-store.js';
import type { PasswordLinkKind, UserLinkRefusal, UserStore } from '../store/user-store.js';
import { OperatorKeys } from './operator-keys.js';

/**
 * Who a session belongs to: the operator key that opened it (by its digest: the links it makes are bound to
 * it too), or a person who signed in with their email and password.
 */
export type SessionOwner = { kind: 'operator_key'; keyDigest: Uint8Array } | { kind: 'user'; userId: string };

/** A console session as the routes see it. */
export interface ConsoleSession {
  /** The token every state-changing request of this session must carry in `X-CSRF-Token`. */
  csrf: string;
  /** When the session ends on its own (epoch ms). */
  expiresMs: number;
  /** Whose session it is. */
  owner: SessionOwner;
}

/** A session just opened: its cookie value is shown to the browser once. */
export interface OpenedSession extends ConsoleSession {
  id: string;
}

/** The instance's operator keys and the lifetimes; tests set their own. */
export interface ConsoleSessionOptions {
  /** The keys whose sessions and links this instance accepts (none: it accepts none). */
  operatorKeys?: readonly string[];
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
  readonly #store: ConsoleSessionStore & UserStore;
  readonly #keys: OperatorKeys;
  readonly #sessionLifetimeMs: number;
  readonly #linkLifetimeMs: number;
  readonly #now: () => number;

  constructor(store: ConsoleSessionStore & UserStore, options: ConsoleSessionOptions = {}) {
    this.#store = store;
    this.#keys = new OperatorKeys(options.operatorKeys ?? []);
    this.#sessionLifetimeMs = options.sessionLifetimeMs ?? 8 * 3_600_000;
    this.#linkLifetimeMs = options.linkLifetimeMs ?? 15 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Opens a session bound to `keyDigest` (after the caller checked that operator key or redeemed a link). */
  async open(keyDigest: Uint8Array): Promise<OpenedSession> {
    const now = this.#now();
    const id = newSecret('fcs');
    const expiresMs = now + this.#sessionLifetimeMs;
    await this.#store.createConsoleSession(digest(id), keyDigest, now, expiresMs);
    return { id, csrf: csrfOf(id), expiresMs, owner: { kind: 'operator_key', keyDigest } };
  }

  /**
   * Opens a session for a user who proved their password; null when the user belongs to no account (then
   * nothing is opened).
   */
  async openForUser(userId: string): Promise<OpenedSession | null> {
    const now = this.#now();
    const id = newSecret('fcs');
    const expiresMs = now + this.#sessionLifetimeMs;
    const opened = await this.#store.openUserSession(userId, digest(id), now, expiresMs);
    return opened ? { id, csrf: csrfOf(id), expiresMs, owner: { kind: 'user', userId } } : null;
  }

  /**
   * Uses an invitation or reset link: sets the user's password (and name), ends their other sessions and
   * opens one, in one store transaction; why not, when the link opens nothing.
   */
  async openWithUserLink(input: {
    kind: PasswordLinkKind;
    token: string;
    passwordHash: string;
    name: string | undefined;
  }): Promise<{ opened: OpenedSession; userId: string } | { refused: UserLinkRefusal }> {
    const now = this.#now();
    const id = newSecret('fcs');
    const expiresMs = now + this.#sessionLifetimeMs;
    const used = await this.#store.useUserLink({
      linkDigest: digest(input.token),
      kind: input.kind,
      passwordHash: input.passwordHash,
      name: input.name,
      sessionDigest: digest(id),
      nowMs: now,
      sessionExpiresMs: expiresMs,
    });
    if (used.kind === 'refused') return { refused: used.why };
    const userId = used.after.id;
    return { opened: { id, csrf: csrfOf(id), expiresMs, owner: { kind: 'user', userId } }, userId };
  }

  /**
   * The live session of a cookie value, or null (unknown, ended, expired, opened with another key, or a row
   * that names no owner).
   */
  async find(id: string): Promise<ConsoleSession | null> {
    const found = await this.#store.findConsoleSession(digest(id), this.#now());
    if (found === null) return null;
    const base = { csrf: csrfOf(id), expiresMs: found.expiresMs };
    if (found.userId !== null) return { ...base, owner: { kind: 'user', userId: found.userId } };
    if (found.keyDigest === null || !(await this.#keys.accepts(found.keyDigest))) return null;
    return { ...base, owner: { kind: 'operator_key', keyDigest: found.keyDigest } };
  }

  /** Ends a session; false when it was not open. */
  end(id: string): Promise<boolean> {
    return this.#store.endConsoleSession(digest(id));
  }

  /**
   * Ends every session, on every instance of the store, and voids unused links, so that no link a session
   * makes or uses meanwhile outlives the end; how many sessions ended.
   */
  endAll(): Promise<number> {
    return this.#store.endAllConsoleSessions();
  }

  /**
   * A new one-time sign-in link token and when it stops working, bound to `keyDigest` (by default this
   * instance's first operator key: the link the server prints at start). For a caller that proved the key.
   */
  async createLink(keyDigest?: Uint8Array): Promise<{ token: string; expiresMs: number }> {
    const bound = keyDigest ?? (await this.#keys.first()?.digest());
    if (bound === undefined)
      throw new Error('No operator key: the console is off, so it has no sign-in links.');
    const token = newSecret('fcl');
    const expiresMs = this.#now() + this.#linkLifetimeMs;
    await this.#store.createSignInLink(digest(token), bound, expiresMs);
    return { token, expiresMs };
  }

  /**
   * A sign-in link made by the session `id`, bound to the key that opened it; null when the session has ended,
   * even since the caller checked it (an end of all sessions in between): a link never outlives that end.
   */
  async createLinkOfSession(id: string): Promise<{ token: string; expiresMs: number } | null> {
    const token = newSecret('fcl');
    const now = this.#now();
    const expiresMs = now + this.#linkLifetimeMs;
    const stored = await this.#store.createSessionSignInLink(digest(token), digest(id), expiresMs, now);
    return stored ? { token, expiresMs } : null;
  }

  /**
   * Signs in with a sign-in link: a new session bound to the link's operator key, opened in the same store
   * statement that spends the link (an end of all sessions ends it or voids the link first); null for a used or
   * expired link, and for a link of another key (which is spent all the same).
   */
  async openWithLink(token: string): Promise<OpenedSession | null> {
    const now = this.#now();
    const id = newSecret('fcs');
    const expiresMs = now + this.#sessionLifetimeMs;
    const found = await this.#store.openConsoleSessionWithLink(digest(token), digest(id), now, expiresMs);
    if (found === null) return null;
    if (!(await this.#keys.accepts(found.keyDigest))) {
      // Opened under a key this instance does not have: find() would refuse it anyway.
      await this.#store.endConsoleSession(digest(id));
      return null;
    }
    return { id, csrf: csrfOf(id), expiresMs, owner: { kind: 'operator_key', keyDigest: found.keyDigest } };
  }

  /** Whether `given` is the session's CSRF token (constant time). */
  static csrfMatches(session: ConsoleSession, given: string): boolean {
    return secretMatches(given, digest(session.csrf));
  }
}
