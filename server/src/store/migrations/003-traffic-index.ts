// Indexes for the operator's live traffic view (plugins/operator-insights.ts): it asks for an environment's
// newest activations and hits past a cursor, and for the highest seq of each, on every poll. Without these the
// only index starting with env_id is the idempotency one (env_id, hid), so each poll would read every row of
// the environment; with them both are a short backward range scan.
// A plain CREATE INDEX, because migrations run in a transaction (CONCURRENTLY cannot): on a large PostgreSQL
// table it holds writes back while it builds, so apply it at a quiet time.

/** Migration 3: (env_id, seq) on activations and hits. */
export const trafficIndexMigration = {
  version: 3,
  name: '003-traffic-index',
  sql: `
CREATE INDEX activations_env_seq ON activations (env_id, seq);
CREATE INDEX hits_env_seq ON hits (env_id, seq);
`,
} as const;
