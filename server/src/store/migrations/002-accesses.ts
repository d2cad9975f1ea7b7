// Accesses and tokens of the remote control API (PROTOCOL.md §13.1-§13.4). Secrets and tokens are random,
// so only their SHA-256 digests are kept (§13.7); a lookup by digest is a primary-key or unique-index hit.
// Environments and actions are text[] rather than jsonb: both drivers hand them back as string arrays, and
// `= ANY(...)` can read them if a query ever needs to.

/** Migration 2: accesses (who may call the remote control API) and the tokens issued to them. */
export const accessesMigration = {
  version: 2,
  name: '002-accesses',
  sql: `
-- An access belongs to an account. environments empty means every environment of the account, including
-- ones created later (§13.1), which is why it is not a join table with foreign keys. Revocation is
-- permanent: revoked_ms is set once and never cleared, so revoked accesses stay listed.
CREATE TABLE accesses (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  environments text[] NOT NULL,
  actions text[] NOT NULL,
  client_id text NOT NULL UNIQUE,
  secret_digest bytea NOT NULL,
  created_ms bigint NOT NULL,
  revoked_ms bigint
);
CREATE INDEX accesses_account ON accesses (account_id, created_ms);

-- A token row lives until it is purged after expiry; tokens without expiry (expires_ms NULL) are stopped by
-- revoking their access, checked at every use through the join on access_id. account_id is copied from
-- the access so that a token check needs no second lookup to name the account (§13.4).
CREATE TABLE tokens (
  digest bytea PRIMARY KEY,
  access_id text NOT NULL REFERENCES accesses (id),
  account_id text NOT NULL REFERENCES accounts (id),
  scope text NOT NULL,
  issued_ms bigint NOT NULL,
  expires_ms bigint
);
CREATE INDEX tokens_expires ON tokens (expires_ms) WHERE expires_ms IS NOT NULL;
`,
} as const;
