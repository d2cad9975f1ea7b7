// The initial schema of the server's store (PROTOCOL.md §2-§6, §12, §14). Times are epoch milliseconds in
// bigint columns (one representation for PGlite and PostgreSQL drivers alike), except
// environments.config_time, which is whole epoch seconds: it is the Last-Modified of §2.5.
// Later features (accesses, tokens) add their own tables in later migrations.
// The SQL is a string module rather than a .sql file so that the compiled server (dist/) carries it: tsc
// copies no .sql files, and a built server must not read the source tree.

/** Migration 1: accounts, environments, campaigns, assignments, activations, hits, identities, usage. */
export const initialMigration = {
  version: 1,
  name: '001-initial',
  sql: `
CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_ms bigint NOT NULL
);

CREATE TABLE environments (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  -- SHA-256 of the API key; the key itself is shown once and never stored.
  api_key_digest bytea NOT NULL,
  panic boolean NOT NULL DEFAULT false,
  enabled_xpc boolean NOT NULL DEFAULT false,
  enabled_1v1t boolean NOT NULL DEFAULT false,
  -- Configuration time in epoch seconds; rises by at least 1 with every publication (§2.5).
  config_time bigint NOT NULL,
  created_ms bigint NOT NULL
);
CREATE INDEX environments_account ON environments (account_id);

-- A campaign's definition is its bucketing-format JSON (§6); the columns beside it are what the server
-- queries or orders by. A deleted campaign stays as a tombstone (deleted_ms) for reporting (§4, §14).
CREATE TABLE campaigns (
  env_id text NOT NULL REFERENCES environments (id),
  id text NOT NULL,
  position integer NOT NULL,
  state text NOT NULL CHECK (state IN ('active', 'paused', 'interrupted')),
  description text NOT NULL DEFAULT '',
  slug text,
  body jsonb NOT NULL,
  created_ms bigint NOT NULL,
  updated_ms bigint NOT NULL,
  deleted_ms bigint,
  PRIMARY KEY (env_id, id)
);
CREATE INDEX campaigns_order ON campaigns (env_id, position) WHERE deleted_ms IS NULL;
CREATE UNIQUE INDEX campaigns_slug ON campaigns (env_id, slug) WHERE deleted_ms IS NULL AND slug IS NOT NULL;

-- Every variation group and variation the environment ever had, never deleted: ids stay unique in the
-- environment (§13.5) and an activation is valid if its variation belongs to its group now or in the past.
CREATE TABLE variation_groups (
  env_id text NOT NULL,
  id text NOT NULL,
  campaign_id text NOT NULL,
  PRIMARY KEY (env_id, id),
  FOREIGN KEY (env_id, campaign_id) REFERENCES campaigns (env_id, id)
);
CREATE TABLE variations (
  env_id text NOT NULL,
  id text NOT NULL,
  variation_group_id text NOT NULL,
  PRIMARY KEY (env_id, id),
  FOREIGN KEY (env_id, variation_group_id) REFERENCES variation_groups (env_id, id)
);

-- Sticky assignments of the decision API (§3, §8.4, §8.5): one row per visitor holding its history
-- {variation group id: variation id}, so a decision that allocates dozens of groups writes one row, not
-- dozens. Purged after ASSIGNMENT_RETENTION_DAYS unused.
CREATE TABLE assignments (
  env_id text NOT NULL,
  visitor_id text NOT NULL,
  history jsonb NOT NULL,
  last_used_ms bigint NOT NULL,
  PRIMARY KEY (env_id, visitor_id)
);
CREATE INDEX assignments_last_used ON assignments (last_used_ms);

-- Activations (§4). UNIQUE (env_id, hid) makes a second arrival of the same idempotency id a no-op (§5.4);
-- rows without hid are all distinct (NULLs never conflict).
CREATE TABLE activations (
  seq bigserial PRIMARY KEY,
  env_id text NOT NULL REFERENCES environments (id),
  hid text,
  visitor_id text NOT NULL,
  anonymous_id text,
  campaign_id text NOT NULL,
  variation_group_id text NOT NULL,
  variation_id text NOT NULL,
  created_ms bigint NOT NULL,
  received_ms bigint NOT NULL
);
CREATE UNIQUE INDEX activations_hid ON activations (env_id, hid);
CREATE INDEX activations_campaign ON activations (env_id, campaign_id);

-- Hits (§5). goal is the EVENT action or TRANSACTION affiliation, revenue the transaction's tr (§14.3).
CREATE TABLE hits (
  seq bigserial PRIMARY KEY,
  env_id text NOT NULL REFERENCES environments (id),
  hid text,
  type text NOT NULL,
  visitor_id text NOT NULL,
  customer_id text,
  goal text,
  revenue double precision,
  created_ms bigint NOT NULL,
  received_ms bigint NOT NULL,
  body jsonb NOT NULL
);
CREATE UNIQUE INDEX hits_hid ON hits (env_id, hid);
CREATE INDEX hits_visitor ON hits (env_id, visitor_id);
CREATE INDEX hits_customer ON hits (env_id, customer_id) WHERE customer_id IS NOT NULL;

-- §14.2: the person of an anonymous id is the first authenticated id seen with it.
CREATE TABLE identities (
  env_id text NOT NULL,
  anonymous_id text NOT NULL,
  person_id text NOT NULL,
  first_seen_ms bigint NOT NULL,
  PRIMARY KEY (env_id, anonymous_id)
);

-- §12: developer usage counts per environment, SDK, version and UTC day.
CREATE TABLE usage_counts (
  env_id text NOT NULL REFERENCES environments (id),
  sdk_name text NOT NULL,
  sdk_version text NOT NULL,
  day text NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (env_id, sdk_name, sdk_version, day)
);
`,
} as const;
