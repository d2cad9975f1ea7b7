// The console's sessions and sign-in links over the shared SQL: digests in, digests out. Deciding what a
// session may do is auth/console-sessions.ts's job (whether its operator key digest is one of this server's
// keys included); here a link is used once by deleting it (a second use finds nothing, even when two instances
// race), and expired rows go with the hourly purge.
import { bytes, num, type Row, type Sql } from './sql.js';

/** A row's operator key digest; null for a row that names none (written before migration 007). */
const keyDigestOf = (row: Row): Uint8Array | null =>
  row.operator_key_digest === null || row.operator_key_digest === undefined
    ? null
    : bytes(row, 'operator_key_digest');

/** Console session operations of the store. */
export const consoleSessionQueries = (db: Pick<Sql, 'query'>) => ({
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
  ): Promise<{ expiresMs: number; keyDigest: Uint8Array | null } | null> {
    const rows = await db.query(
      'SELECT expires_ms, operator_key_digest FROM console_sessions WHERE digest = $1 AND expires_ms > $2',
      [digest, nowMs],
    );
    const row = rows[0];
    return row === undefined ? null : { expiresMs: num(row, 'expires_ms'), keyDigest: keyDigestOf(row) };
  },
  async endConsoleSession(digest: Uint8Array): Promise<boolean> {
    const rows = await db.query('DELETE FROM console_sessions WHERE digest = $1 RETURNING digest', [digest]);
    return rows.length > 0;
  },
  async endAllConsoleSessions(): Promise<number> {
    // Unused links go too: a link made by a session is that session's to pass on, and would open a new one.
    await db.query('DELETE FROM console_sign_in_links');
    const rows = await db.query('DELETE FROM console_sessions RETURNING digest');
    return rows.length;
  },
  async createSignInLink(digest: Uint8Array, keyDigest: Uint8Array, expiresMs: number): Promise<void> {
    await db.query(
      'INSERT INTO console_sign_in_links (digest, operator_key_digest, expires_ms) VALUES ($1, $2, $3)',
      [digest, keyDigest, expiresMs],
    );
  },
  async redeemSignInLink(
    digest: Uint8Array,
    nowMs: number,
  ): Promise<{ keyDigest: Uint8Array | null } | null> {
    const rows = await db.query(
      'DELETE FROM console_sign_in_links WHERE digest = $1 RETURNING expires_ms, operator_key_digest',
      [digest],
    );
    const row = rows[0];
    return row !== undefined && num(row, 'expires_ms') > nowMs ? { keyDigest: keyDigestOf(row) } : null;
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
