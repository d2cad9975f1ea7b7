// Accesses and tokens of the remote control API over the shared SQL (PROTOCOL.md §13.1-§13.4). The store
// keeps digests only; making client ids, secrets and tokens, and deciding whether a token is still valid
// (expiry, revocation, scope), is the token service's job: findToken hands it the token and its access in
// one read, so a revocation is seen at the token's next use without any cache to invalidate.
import { ACTIONS, type Action } from 'feature-ts/protocol';
import { InputError } from '../../errors.js';
import { newId } from '../../ids.js';
import { bytes, num, numOrNull, text, type Row, type Sql } from './sql.js';
import type { AccessRecord, TokenRecord } from '../access-store.js';
import { recordAudit } from './audit-sql.js';
import { accessState } from './audit-states.js';

const isAction = (value: unknown): value is Action =>
  typeof value === 'string' && (ACTIONS as readonly string[]).includes(value);

/** Reads a text[] column (both drivers return a string array). */
const texts = (row: Row, column: string): string[] => {
  const value = row[column];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new TypeError(`column ${column} is not text[]`);
  }
  return value;
};

const toAccess = (row: Row): AccessRecord => ({
  id: text(row, 'id'),
  accountId: text(row, 'account_id'),
  name: text(row, 'name'),
  environments: texts(row, 'environments'),
  // An action this server no longer knows grants nothing: dropping it fails closed.
  actions: texts(row, 'actions').filter(isAction),
  clientId: text(row, 'client_id'),
  secretDigest: bytes(row, 'secret_digest'),
  createdMs: num(row, 'created_ms'),
  revokedMs: numOrNull(row, 'revoked_ms'),
});

// findToken renames the token's columns (t_…): the access's columns share their names.
const toToken = (row: Row): TokenRecord => ({
  digest: bytes(row, 't_digest'),
  accessId: text(row, 't_access_id'),
  accountId: text(row, 't_account_id'),
  scope: text(row, 't_scope'),
  issuedMs: num(row, 't_issued_ms'),
  expiresMs: numOrNull(row, 't_expires_ms'),
});

/** Access and token operations of the store. */
export const accessQueries = (db: Pick<Sql, 'query' | 'transaction'>) => ({
  async createAccess(input: Omit<AccessRecord, 'id' | 'createdMs' | 'revokedMs'>): Promise<AccessRecord> {
    if (input.name.trim() === '') throw new InputError('An access needs a name: pass --name NAME.');
    return db.transaction(async (tx) => {
      const account = await tx.query('SELECT id FROM accounts WHERE id = $1', [input.accountId]);
      if (account.length === 0) {
        throw new InputError(
          `No account has the id "${input.accountId.slice(0, 64)}": use an id that \`feature-server account list\` prints.`,
        );
      }
      // An access naming another account's environment would let a token reach it: refuse it here, where
      // the account's environments are known, rather than trust every caller to have checked.
      const known = await tx.query(
        'SELECT id FROM environments WHERE account_id = $1 AND id = ANY($2::text[])',
        [input.accountId, input.environments],
      );
      const owned = new Set(known.map((row) => text(row, 'id')));
      const foreign = input.environments.find((id) => !owned.has(id));
      if (foreign !== undefined) {
        throw new InputError(
          `Account "${input.accountId}" has no environment "${foreign.slice(0, 64)}": name environments of this account (\`feature-server env list --account ${input.accountId}\`).`,
        );
      }
      const rows = await tx.query(
        `INSERT INTO accesses (id, account_id, name, environments, actions, client_id, secret_digest, created_ms)
         VALUES ($1, $2, $3, $4::text[], $5::text[], $6, $7, $8) RETURNING *`,
        [
          newId(),
          input.accountId,
          input.name,
          [...new Set(input.environments)],
          [...new Set(input.actions)],
          input.clientId,
          input.secretDigest,
          Date.now(),
        ],
      );
      const access = toAccess(rows[0] ?? {});
      await recordAudit(tx, {
        accountId: access.accountId,
        envId: null,
        subjectKind: 'access',
        subjectId: access.id,
        action: 'access.created',
        before: null,
        after: accessState(access),
      });
      return access;
    });
  },
  async listAccesses(accountId: string): Promise<AccessRecord[]> {
    const rows = await db.query('SELECT * FROM accesses WHERE account_id = $1 ORDER BY created_ms, id', [
      accountId,
    ]);
    return rows.map(toAccess);
  },
  async getAccess(id: string): Promise<AccessRecord | null> {
    const rows = await db.query('SELECT * FROM accesses WHERE id = $1', [id]);
    return rows[0] === undefined ? null : toAccess(rows[0]);
  },
  async findAccessByClientId(clientId: string): Promise<AccessRecord | null> {
    const rows = await db.query('SELECT * FROM accesses WHERE client_id = $1', [clientId]);
    return rows[0] === undefined ? null : toAccess(rows[0]);
  },
  async revokeAccess(id: string): Promise<AccessRecord | null> {
    return db.transaction(async (tx) => {
      const before = await tx.query('SELECT * FROM accesses WHERE id = $1 FOR UPDATE', [id]);
      if (before[0] === undefined) return null;
      // COALESCE keeps the first revocation time: revoking twice is harmless and does not rewrite history.
      const rows = await tx.query(
        'UPDATE accesses SET revoked_ms = COALESCE(revoked_ms, $2) WHERE id = $1 RETURNING *',
        [id, Date.now()],
      );
      const revoked = toAccess(rows[0] ?? {});
      const was = toAccess(before[0]);
      // A second revocation changes nothing: no entry.
      if (was.revokedMs === null)
        await recordAudit(tx, {
          accountId: revoked.accountId,
          envId: null,
          subjectKind: 'access',
          subjectId: revoked.id,
          action: 'access.revoked',
          before: accessState(was),
          after: accessState(revoked),
        });
      return revoked;
    });
  },
  async insertToken(token: TokenRecord): Promise<void> {
    await db.query(
      `INSERT INTO tokens (digest, access_id, account_id, scope, issued_ms, expires_ms)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [token.digest, token.accessId, token.accountId, token.scope, token.issuedMs, token.expiresMs],
    );
  },
  async findToken(digest: Uint8Array): Promise<{ token: TokenRecord; access: AccessRecord } | null> {
    const rows = await db.query(
      `SELECT a.*, t.digest AS t_digest, t.access_id AS t_access_id, t.account_id AS t_account_id,
         t.scope AS t_scope, t.issued_ms AS t_issued_ms, t.expires_ms AS t_expires_ms
       FROM tokens t JOIN accesses a ON a.id = t.access_id
       WHERE t.digest = $1`,
      [digest],
    );
    const row = rows[0];
    return row === undefined ? null : { token: toToken(row), access: toAccess(row) };
  },
  async purgeExpiredTokens(beforeMs: number): Promise<number> {
    const rows = await db.query(
      'WITH d AS (DELETE FROM tokens WHERE expires_ms < $1 RETURNING 1) SELECT count(*)::int AS n FROM d',
      [beforeMs],
    );
    return rows[0] === undefined ? 0 : num(rows[0], 'n');
  },
});
