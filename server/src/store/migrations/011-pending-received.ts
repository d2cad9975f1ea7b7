// Pending marks carry their row's received time (issue 31). activations and hits are partitioned by received
// month (migration 010), and a fold looks its marked rows up by seq: with the seq alone, every month partition
// is searched for every row (a database that kept 27 months folded at a third of the rate of one with two).
// With the received times of its marks, a fold searches only the months they span. Marks already waiting take
// their row's time; a mark whose row is gone (none can be: a row and its mark are written together, and only
// folded months are dropped) would fold nothing and is removed.

/** Migration 11: received_ms on the pending marks of activations and hits. */
export const pendingReceivedMigration = {
  version: 11,
  name: '011-pending-received',
  sql: `
ALTER TABLE rollup_pending_activations ADD COLUMN received_ms bigint;
UPDATE rollup_pending_activations p SET received_ms = a.received_ms FROM activations a
  WHERE a.env_id = p.env_id AND a.seq = p.seq;
DELETE FROM rollup_pending_activations WHERE received_ms IS NULL;
ALTER TABLE rollup_pending_activations ALTER COLUMN received_ms SET NOT NULL;
ALTER TABLE rollup_pending_hits ADD COLUMN received_ms bigint;
UPDATE rollup_pending_hits p SET received_ms = h.received_ms FROM hits h
  WHERE h.env_id = p.env_id AND h.seq = p.seq;
DELETE FROM rollup_pending_hits WHERE received_ms IS NULL;
ALTER TABLE rollup_pending_hits ALTER COLUMN received_ms SET NOT NULL;
`,
} as const;
