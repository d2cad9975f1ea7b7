// Report rollups (issue 31): a campaign report reads a few rows per variation, goal and day instead of every
// exposure and hit of its history. Stored rows stay the truth; the rollups are folded from them in the
// background (server/src/report/rollups/), exactly by the rules of PROTOCOL.md §14:
// - rollup_pending_*: what was stored and not folded yet, written in the same statement as the row itself, so
//   a row and its pending mark are durable together. A row is "folded" once its mark is gone; a fold reads
//   only folded rows, so nothing is ever counted twice whatever the commit order of concurrent inserts.
// - rollup_persons: each person's contribution to the rollups (their first exposure per variation group,
//   their attributed goals, the goals seen), so that a late identity link or a late exposure corrects exactly
//   the persons it touches: their old contribution is taken out, the new one put in.
// - rollup_visit_windows: the §14.1 windows of activations without an idempotency id, per (vid, campaign,
//   group, variation), with the visits they counted per day, for the same reason.
// - campaign_rollups: the sums the report reads (see rollup-cells.ts for what each row kind holds).
// - campaign_rollup_revisions: bumped by each fold that changes a campaign's rollups: the report's ETag.
// Existing databases: every stored activation, goal hit and identity is marked pending here; the server folds
// them at start with a progress line before it serves (report/rollups/rollup-backfill.ts).

/** Migration 9: the report rollups and their pending marks. */
export const reportRollupsMigration = {
  version: 9,
  name: '009-report-rollups',
  sql: `
CREATE TABLE rollup_pending_activations (
  env_id text NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (env_id, seq)
);
CREATE TABLE rollup_pending_hits (
  env_id text NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (env_id, seq)
);
CREATE TABLE rollup_pending_links (
  env_id text NOT NULL,
  anonymous_id text NOT NULL,
  PRIMARY KEY (env_id, anonymous_id)
);

-- The ledger is JSON only the server reads and writes: text, so the embedded store does not parse it twice.
CREATE TABLE rollup_persons (
  env_id text NOT NULL,
  person text NOT NULL,
  ledger text NOT NULL,
  PRIMARY KEY (env_id, person)
);

CREATE TABLE rollup_visit_windows (
  env_id text NOT NULL,
  visitor_id text NOT NULL,
  campaign_id text NOT NULL,
  variation_group_id text NOT NULL,
  variation_id text NOT NULL,
  opened_ms bigint NOT NULL,
  days jsonb NOT NULL,
  PRIMARY KEY (env_id, visitor_id, campaign_id, variation_group_id, variation_id)
);

CREATE TABLE campaign_rollups (
  env_id text NOT NULL,
  campaign_id text NOT NULL,
  variation_group_id text NOT NULL,
  variation_id text NOT NULL,
  goal_kind text NOT NULL,
  goal text NOT NULL,
  day integer NOT NULL,
  visits bigint NOT NULL DEFAULT 0,
  visitors bigint NOT NULL DEFAULT 0,
  conversions bigint NOT NULL DEFAULT 0,
  converters bigint NOT NULL DEFAULT 0,
  -- Millionths of the currency unit: exact sums, so a person moved out of a variation leaves exactly 0.
  revenue_micros bigint NOT NULL DEFAULT 0,
  seen bigint NOT NULL DEFAULT 0,
  first_ms bigint,
  first_seq bigint,
  PRIMARY KEY (env_id, campaign_id, variation_group_id, variation_id, goal_kind, goal, day)
);

CREATE TABLE campaign_rollup_revisions (
  env_id text NOT NULL,
  campaign_id text NOT NULL,
  revision bigint NOT NULL,
  PRIMARY KEY (env_id, campaign_id)
);

-- A fold reads a person's rows: their activations by visitor id, and the anonymous ids linked to them. The
-- campaign index served the report's scan of every exposure, which the rollups replace: one index fewer to
-- write per activation.
CREATE INDEX activations_visitor ON activations (env_id, visitor_id);
CREATE INDEX identities_person ON identities (env_id, person_id);
DROP INDEX activations_campaign;

INSERT INTO rollup_pending_activations (env_id, seq) SELECT env_id, seq FROM activations;
INSERT INTO rollup_pending_hits (env_id, seq) SELECT env_id, seq FROM hits
  WHERE goal IS NOT NULL AND (type = 'TRANSACTION' OR (type = 'EVENT' AND left(goal, 3) <> 'fs_'));
INSERT INTO rollup_pending_links (env_id, anonymous_id) SELECT env_id, anonymous_id FROM identities;
`,
} as const;
