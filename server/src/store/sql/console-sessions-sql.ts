// The console's sessions and sign-in links over the shared SQL: digests in, digests out. Deciding what a
// session may do is auth/console-sessions.ts's job (whether its operator key digest is one of this server's
// keys included); here a link is used once by deleting it (a second use finds nothing, even when two instances
// race), and expired rows go with the hourly purge.
//
// A link is how a session passes itself on, so ending every session must leave none that a session made or
// used while the end ran. The end holds the links table for its transaction (every statement that stores or
// uses a link waits for it, or it for them); a link a session makes is stored only by the statement that finds
// the session still there, with its row locked; and a link is spent and its session opened in one statement.
import { bytes, num, textOrNull, type Row, type Sql } from './sql.js';

/** A row's operator key digest; null for a row that names none (written before migration 007). */
const keyDigestOf = (row: Row): Uint8Array | null =>
  row.operator_key_digest === null || row.operator_key_digest === undefined
    ? null
    : bytes(row, 'operator_key_digest');

/** Console session operations of the store. */
export const consoleSessionQueries = (db: Pick<Sql, 'query' | 'transaction'>) => ({
  async createConsoleSession(
    digest: Uint8Array,
    keyDigest: Uint8Array,
    createdMs: number,
    expiresMs: number,
  ): Promise<void> {
    await db.query(
      'INSERT INTO console_sessions (digest, operator_key_digest, created_ms, expires_ms) VALUES ($1, $2, $3, $4)',
      [digest, keyDigest, createdMs, expiresMs],
    );
  },
  async findConsoleSession(
    digest: Uint8Array,
    nowMs: number,
  ): Promise<{ expiresMs: number; keyDigest: Uint8Array | null; userId: string | null } | null> {
    const rows = await db.query(
      'SELECT expires_ms, operator_key_digest, user_id FROM console_sessions WHERE digest = $1 AND expires_ms > $2',
      [digest, nowMs],
    );
    const row = rows[0];
    return row === undefined
      ? null
      : {
          expiresMs: num(row, 'expires_ms'),
          keyDigest: keyDigestOf(row),
          userId: textOrNull(row, 'user_id'),
        };
  },
  async endConsoleSession(digest: Uint8Array): Promise<boolean> {
    const rows = await db.query('DELETE FROM console_sessions WHERE digest = $1 RETURNING digest', [digest]);
    return rows.length > 0;
  },
  async endAllConsoleSessions(): Promise<number> {
    return db.transaction(async (tx) => {
      // Blocks the statements below that store or spend links (ROW EXCLUSIVE), not the reads of sessions.
      await tx.query('LOCK TABLE console_sign_in_links IN SHARE ROW EXCLUSIVE MODE');
      const rows = await tx.query('DELETE FROM console_sessions RETURNING digest');
      await tx.query('DELETE FROM console_sign_in_links');
      return rows.length;
    });
  },
  async createSignInLink(digest: Uint8Array, keyDigest: Uint8Array, expiresMs: number): Promise<void> {
    await db.query(
      'INSERT INTO console_sign_in_links (digest, operator_key_digest, expires_ms) VALUES ($1, $2, $3)',
      [digest, keyDigest, expiresMs],
    );
  },
  async createSessionSignInLink(
    digest: Uint8Array,
    sessionDigest: Uint8Array,
    expiresMs: number,
    nowMs: number,
  ): Promise<boolean> {
    const rows = await db.query(
      `INSERT INTO console_sign_in_links (digest, operator_key_digest, expires_ms)
       SELECT $1::bytea, operator_key_digest, $2::bigint FROM console_sessions
       WHERE digest = $3 AND expires_ms > $4::bigint AND operator_key_digest IS NOT NULL
       FOR SHARE
       RETURNING digest`,
      [digest, expiresMs, sessionDigest, nowMs],
    );
    return rows.length > 0;
  },
  async openConsoleSessionWithLink(
    linkDigest: Uint8Array,
    sessionDigest: Uint8Array,
    createdMs: number,
    expiresMs: number,
  ): Promise<{ keyDigest: Uint8Array } | null> {
    const rows = await db.query(
      `WITH spent AS (
         DELETE FROM console_sign_in_links WHERE digest = $1 RETURNING operator_key_digest, expires_ms
       )
       INSERT INTO console_sessions (digest, operator_key_digest, created_ms, expires_ms)
       SELECT $2::bytea, operator_key_digest, $3::bigint, $4::bigint FROM spent
       WHERE expires_ms > $3::bigint AND operator_key_digest IS NOT NULL
       RETURNING operator_key_digest`,
      [linkDigest, sessionDigest, createdMs, expiresMs],
    );
    const row = rows[0];
    return row === undefined ? null : { keyDigest: bytes(row, 'operator_key_digest') };
  },
  async purgeConsoleSessions(beforeMs: number): Promise<number> {
    const sessions = await db.query('DELETE FROM console_sessions WHERE expires_ms <= $1 RETURNING digest', [
      beforeMs,
    ]);
    const links = await db.query(
      'DELETE FROM console_sign_in_links WHERE expires_ms <= $1 RETURNING digest',
      [beforeMs],
    );
    return sessions.length + links.length;
  },
});
