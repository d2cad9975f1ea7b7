// Single sign-on over the shared SQL (issue 36). The mappings are kept as JSON text (a short list read whole
// with its settings). A started sign-in is taken by deleting it, so a browser that comes back twice (a
// replayed callback) finds nothing the second time, even when two instances race.
import type {
  DomainRole,
  GroupRole,
  PendingSsoSignIn,
  SsoRole,
  SsoSettings,
  SsoStore,
} from '../sso-store.js';
import { ROLES_BY_RANK } from '../sso-store.js';
import { bool, num, text, type Row, type Sql } from './sql.js';

const isRole = (value: unknown): value is SsoRole =>
  typeof value === 'string' && (ROLES_BY_RANK as readonly string[]).includes(value);

/** A stored mapping list; entries that are not of the shape (a hand edit) are left out. */
const mappings = <K extends 'group' | 'domain'>(
  column: string,
  key: K,
): Array<Record<K, string> & { role: SsoRole }> => {
  const parsed: unknown = JSON.parse(column);
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const fields = entry as Record<string, unknown>;
    const value = fields[key];
    return typeof value === 'string' && isRole(fields.role)
      ? [{ [key]: value, role: fields.role } as Record<K, string> & { role: SsoRole }]
      : [];
  });
};

const toSettings = (row: Row): SsoSettings => ({
  accountId: text(row, 'account_id'),
  name: text(row, 'name'),
  issuer: text(row, 'issuer'),
  clientId: text(row, 'client_id'),
  clientSecret: text(row, 'client_secret'),
  groupsClaim: text(row, 'groups_claim'),
  groupRoles: mappings(text(row, 'group_roles'), 'group') satisfies GroupRole[],
  domainRoles: mappings(text(row, 'domain_roles'), 'domain') satisfies DomainRole[],
  enabled: bool(row, 'enabled'),
  createdMs: num(row, 'created_ms'),
  updatedMs: num(row, 'updated_ms'),
});

/** Single sign-on operations of the store. */
export const ssoQueries = (db: Pick<Sql, 'query' | 'transaction'>): SsoStore => ({
  async getSsoSettings(accountId) {
    const rows = await db.query('SELECT * FROM sso_settings WHERE account_id = $1', [accountId]);
    return rows[0] === undefined ? null : toSettings(rows[0]);
  },
  async putSsoSettings(accountId, input, nowMs) {
    // One statement: a first save needs a secret; a later one without a secret keeps the stored secret.
    const rows = await db.query(
      `WITH secret AS (
         SELECT COALESCE($5::text, (SELECT client_secret FROM sso_settings WHERE account_id = $1)) AS value
       )
       INSERT INTO sso_settings (account_id, name, issuer, client_id, client_secret, groups_claim,
         group_roles, domain_roles, enabled, created_ms, updated_ms)
       SELECT a.id, $2, $3, $4, secret.value, $6, $7, $8, $9, $10, $10 FROM accounts a, secret
       WHERE a.id = $1 AND secret.value IS NOT NULL
       ON CONFLICT (account_id) DO UPDATE SET name = EXCLUDED.name, issuer = EXCLUDED.issuer,
         client_id = EXCLUDED.client_id, client_secret = EXCLUDED.client_secret,
         groups_claim = EXCLUDED.groups_claim, group_roles = EXCLUDED.group_roles,
         domain_roles = EXCLUDED.domain_roles, enabled = EXCLUDED.enabled, updated_ms = EXCLUDED.updated_ms
       RETURNING *`,
      [
        accountId,
        input.name,
        input.issuer,
        input.clientId,
        input.clientSecret,
        input.groupsClaim,
        JSON.stringify(input.groupRoles),
        JSON.stringify(input.domainRoles),
        input.enabled,
        nowMs,
      ],
    );
    return rows[0] === undefined ? null : toSettings(rows[0]);
  },
  async deleteSsoSettings(accountId) {
    const rows = await db.query('DELETE FROM sso_settings WHERE account_id = $1 RETURNING account_id', [
      accountId,
    ]);
    return rows.length > 0;
  },
  async listEnabledSso() {
    const rows = await db.query(
      'SELECT account_id, name FROM sso_settings WHERE enabled ORDER BY lower(name), account_id',
    );
    return rows.map((row) => ({ accountId: text(row, 'account_id'), name: text(row, 'name') }));
  },
  async startSsoSignIn(digest, signIn: PendingSsoSignIn) {
    await db.query(
      `INSERT INTO sso_sign_ins (digest, account_id, state, nonce, code_verifier, expires_ms)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [digest, signIn.accountId, signIn.state, signIn.nonce, signIn.codeVerifier, signIn.expiresMs],
    );
  },
  async takeSsoSignIn(digest, nowMs) {
    const rows = await db.query('DELETE FROM sso_sign_ins WHERE digest = $1 RETURNING *', [digest]);
    const row = rows[0];
    if (row === undefined || num(row, 'expires_ms') <= nowMs) return null;
    return {
      accountId: text(row, 'account_id'),
      state: text(row, 'state'),
      nonce: text(row, 'nonce'),
      codeVerifier: text(row, 'code_verifier'),
      expiresMs: num(row, 'expires_ms'),
    };
  },
  async purgeSsoSignIns(nowMs) {
    const rows = await db.query('DELETE FROM sso_sign_ins WHERE expires_ms <= $1 RETURNING account_id', [
      nowMs,
    ]);
    return rows.length;
  },
});
