// The console's sessions and sign-in links over the shared SQL: digests in, digests out. Deciding what a
// session may do is console/console-sessions.ts's job; here a link is used once by deleting it (a second use
// finds nothing, even when two instances race), and expired rows go with the hourly purge.
import { num, type Sql } from './sql.js';

/** Console session operations of the store. */
export const consoleSessionQueries = (db: Pick<Sql, 'query'>) => ({
  async createConsoleSession(digest: Uint8Array, createdMs: number, expiresMs: number): Promise<void> {
    await db.query('INSERT INTO console_sessions (digest, created_ms, expires_ms) VALUES ($1, $2, $3)', [
      digest,
      createdMs,
      expiresMs,
    ]);
  },
  async findConsoleSession(digest: Uint8Array, nowMs: number): Promise<{ expiresMs: number } | null> {
    const rows = await db.query(
      'SELECT expires_ms FROM console_sessions WHERE digest = $1 AND expires_ms > $2',
      [digest, nowMs],
    );
    const row = rows[0];
    return row === undefined ? null : { expiresMs: num(row, 'expires_ms') };
  },
  async endConsoleSession(digest: Uint8Array): Promise<boolean> {
    const rows = await db.query('DELETE FROM console_sessions WHERE digest = $1 RETURNING digest', [digest]);
    return rows.length > 0;
  },
  async createSignInLink(digest: Uint8Array, expiresMs: number): Promise<void> {
    await db.query('INSERT INTO console_sign_in_links (digest, expires_ms) VALUES ($1, $2)', [
      digest,
      expiresMs,
    ]);
  },
  async redeemSignInLink(digest: Uint8Array, nowMs: number): Promise<boolean> {
    const rows = await db.query('DELETE FROM console_sign_in_links WHERE digest = $1 RETURNING expires_ms', [
      digest,
    ]);
    const row = rows[0];
    return row !== undefined && num(row, 'expires_ms') > nowMs;
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
