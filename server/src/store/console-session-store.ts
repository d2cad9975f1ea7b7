// The console's sessions and one-time sign-in links, by digest (auth/console-sessions.ts decides what a
// session may do).

/** The store's console sessions and sign-in links. */
export interface ConsoleSessionStore {
  /**
   * Stores a console session by the digest of its id, with the digest of the operator key that opened it
   * (auth/console-sessions.ts).
   */
  createConsoleSession(
    digest: Uint8Array,
    keyDigest: Uint8Array,
    createdMs: number,
    expiresMs: number,
  ): Promise<void>;
  /**
   * The console session of a digest while it lasts, else null: an operator key's (keyDigest) or a user's
   * (userId); neither: a row of before migration 7, which opens nothing.
   */
  findConsoleSession(
    digest: Uint8Array,
    nowMs: number,
  ): Promise<{ expiresMs: number; keyDigest: Uint8Array | null; userId: string | null } | null>;
  /** Ends a console session; false when there was none. */
  endConsoleSession(digest: Uint8Array): Promise<boolean>;
  /**
   * Ends every console session and deletes every unused sign-in link, at once: no link that a session makes
   * or uses meanwhile outlives it. Returns how many sessions ended.
   */
  endAllConsoleSessions(): Promise<number>;
  /** Stores a one-time console sign-in link by its digest, with the digest of the operator key it is bound to. */
  createSignInLink(digest: Uint8Array, keyDigest: Uint8Array, expiresMs: number): Promise<void>;
  /**
   * Stores a sign-in link that a console session makes, bound to the session's operator key, in the same
   * statement that finds the session live at `nowMs`; false (nothing stored) when it has ended.
   */
  createSessionSignInLink(
    digest: Uint8Array,
    sessionDigest: Uint8Array,
    expiresMs: number,
    nowMs: number,
  ): Promise<boolean>;
  /**
   * Uses a sign-in link and, in the same statement, opens the session `sessionDigest` bound to the link's
   * operator key: that key digest when the link was live at `createdMs`, else null (nothing opened). The link
   * is gone after the first call either way.
   */
  openConsoleSessionWithLink(
    linkDigest: Uint8Array,
    sessionDigest: Uint8Array,
    createdMs: number,
    expiresMs: number,
  ): Promise<{ keyDigest: Uint8Array } | null>;
  /** Deletes console sessions and links that ended by `beforeMs`; returns how many. */
  purgeConsoleSessions(beforeMs: number): Promise<number>;
}
