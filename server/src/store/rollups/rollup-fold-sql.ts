// Folding stored rows into the report rollups (migration 009, issue 31), and reading them back. One fold takes
// a batch of one environment's pending marks, in one transaction under the environment's fold lock (so two
// instances never fold the same environment at once), and:
// - links an identity (§14.2) changed: both persons are computed again;
// - an activation that is a person's first in its group, or older than their stored first: computed again;
//   any other activation changes only visits;
// - a goal hit of a person whose exposures are folded: one step on their ledger (person-ledger.ts);
// - visits: one per activation with a hid; windows (visit-ledger.ts) for the others.
// A row counts as folded once its pending mark is gone, and a fold reads only folded rows and identities, so
// whatever the order in which concurrent inserts commit, each row is counted once (rows committed meanwhile
// still carry their mark and wait for the next fold).
import {
  addGoalHit,
  addLedger,
  emptyLedger,
  isEmptyLedger,
  keepsLedger,
  type PersonGoalHit,
} from '../../report/rollups/person-ledger.js';
import { RollupDeltas } from '../../report/rollups/rollup-cells.js';
import { ledgerAfterHorizon } from '../../report/rollups/final-days.js';
import { readRollupHorizon } from './rollup-horizon.js';
import { FOLD_LOCK } from './rollup-pending-sql.js';
import {
  ACTIVATION_IDENTITY,
  ACTIVATION_PERSON,
  exposureOf,
  GOAL_HIT,
  goalHitOf,
  groupBy,
  HIT_IDENTITY,
  HIT_PERSON,
  personRows,
  readLedgers,
  writeLedgers,
} from './rollup-persons-sql.js';
import { foldVisits, type BatchActivation } from './rollup-visits-sql.js';
import { text, textOrNull, type Queryable, type Row } from '../sql/sql.js';

// The rows of a fold's marks (CTE q, which took them with their received times, migration 011) lie within the
// marks' received range, since a mark's received_ms is always copied from its row's (collect-sql.ts, the
// rebuild (rollup-rebuild-sql.ts), migration 011; a row's received_ms never changes, even when it moves partition). The
// partitions outside that range are skipped when the statement runs (run-time pruning), instead of each
// month's index being searched for every seq.
const MARKED_MONTHS = (alias: string): string =>
  `${alias}.received_ms BETWEEN (SELECT min(received_ms) FROM q) AND (SELECT max(received_ms) FROM q)`;

interface BatchHit extends PersonGoalHit {
  person: string;
}

/** Adds a fold's deltas to the rollups and moves the changed campaigns' revisions. */
const writeDeltas = async (tx: Queryable, envId: string, deltas: RollupDeltas): Promise<void> => {
  const cells = deltas.changed();
  if (cells.length === 0) return;
  await tx.query(
    `INSERT INTO campaign_rollups (env_id, campaign_id, variation_group_id, variation_id, goal_kind, goal, day,
       visits, visitors, conversions, converters, revenue_micros, seen, first_ms, first_seq)
     SELECT $1, c, g, v, k, n, d, vi, vs, cv, cs, r, s, fm, fs
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::bigint[], $9::bigint[],
                 $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], $14::bigint[], $15::bigint[])
       AS u(c, g, v, k, n, d, vi, vs, cv, cs, r, s, fm, fs)
     ON CONFLICT (env_id, campaign_id, variation_group_id, variation_id, goal_kind, goal, day) DO UPDATE SET
       visits = campaign_rollups.visits + excluded.visits,
       visitors = campaign_rollups.visitors + excluded.visitors,
       conversions = campaign_rollups.conversions + excluded.conversions,
       converters = campaign_rollups.converters + excluded.converters,
       revenue_micros = campaign_rollups.revenue_micros + excluded.revenue_micros,
       seen = campaign_rollups.seen + excluded.seen,
       first_ms = CASE WHEN excluded.first_ms IS NOT NULL AND (campaign_rollups.first_ms IS NULL
         OR (excluded.first_ms, excluded.first_seq) < (campaign_rollups.first_ms, campaign_rollups.first_seq))
         THEN excluded.first_ms ELSE campaign_rollups.first_ms END,
       first_seq = CASE WHEN excluded.first_ms IS NOT NULL AND (campaign_rollups.first_ms IS NULL
         OR (excluded.first_ms, excluded.first_seq) < (campaign_rollups.first_ms, campaign_rollups.first_seq))
         THEN excluded.first_seq ELSE campaign_rollups.first_seq END`,
    [
      envId,
      cells.map((c) => c.campaignId),
      cells.map((c) => c.groupId),
      cells.map((c) => c.variationId),
      cells.map((c) => c.goalKind),
      cells.map((c) => c.goal),
      cells.map((c) => c.day),
      cells.map((c) => c.visits),
      cells.map((c) => c.visitors),
      cells.map((c) => c.conversions),
      cells.map((c) => c.converters),
      cells.map((c) => c.revenueMicros),
      cells.map((c) => c.seen),
      cells.map((c) => c.firstMs),
      cells.map((c) => c.firstSeq),
    ],
  );
  await tx.query(
    `INSERT INTO campaign_rollup_revisions (env_id, campaign_id, revision) SELECT $1, c, 1 FROM unnest($2::text[]) AS c
     ON CONFLICT (env_id, campaign_id) DO UPDATE SET revision = campaign_rollup_revisions.revision + 1`,
    [envId, deltas.campaigns()],
  );
};

/** How a fold takes its environment's fold lock. */
export interface FoldOptions {
  /**
   * False: when another fold holds the lock (another instance's), fold nothing and answer 0 rather than
   * wait: that fold, or the next, takes these rows too, and a waiting fold would hold a connection idle and
   * then fold what is left in a second, smaller batch. True for reads that must include every row (settle).
   */
  wait: boolean;
}

/**
 * Folds up to `limit` pending marks of each kind of one environment, in the transaction `tx`; returns how many
 * marks it folded. Runs on the server's thread, or on the embedded store's own (pglite-worker.ts).
 */
export const foldBatch = async (
  tx: Queryable,
  envId: string,
  limit: number,
  options: FoldOptions = { wait: true },
): Promise<number> => {
  if (options.wait) await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [FOLD_LOCK, envId]);
  else {
    const [lock] = await tx.query('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS taken', [
      FOLD_LOCK,
      envId,
    ]);
    if (lock?.taken !== true) return 0;
  }
  // A statement that reads activations or hits is planned over every month partition, a millisecond or more
  // on the embedded store even when it finds nothing: kinds with nothing waiting are not asked for.
  const [waiting] = await tx.query(
    `SELECT EXISTS (SELECT 1 FROM rollup_pending_links p WHERE p.env_id = $1) AS links,
       EXISTS (SELECT 1 FROM rollup_pending_activations p WHERE p.env_id = $1) AS activations,
       EXISTS (SELECT 1 FROM rollup_pending_hits p WHERE p.env_id = $1) AS hits`,
    [envId],
  );
  const none = (): Promise<Row[]> => Promise.resolve([]);
  const linked = await (waiting?.links !== true
    ? none()
    : tx.query(
        `WITH q AS (DELETE FROM rollup_pending_links WHERE env_id = $1 AND anonymous_id = ANY(ARRAY(
       SELECT anonymous_id FROM rollup_pending_links WHERE env_id = $1 LIMIT $2)) RETURNING anonymous_id)
     SELECT i.anonymous_id, i.person_id FROM identities i
     WHERE i.env_id = $1 AND i.anonymous_id = ANY(ARRAY(SELECT anonymous_id FROM q))`,
        [envId, limit],
      ));
  const activations: BatchActivation[] = (
    await (waiting?.activations !== true
      ? none()
      : tx.query(
          `WITH q AS (DELETE FROM rollup_pending_activations WHERE env_id = $1 AND seq = ANY(ARRAY(
         SELECT seq FROM rollup_pending_activations WHERE env_id = $1 ORDER BY seq LIMIT $2)) RETURNING seq, received_ms)
       SELECT ${ACTIVATION_PERSON} AS person, a.hid, a.visitor_id, a.campaign_id, a.variation_group_id,
              a.variation_id, a.created_ms, a.seq
       FROM activations a ${ACTIVATION_IDENTITY} WHERE a.seq = ANY(ARRAY(SELECT seq FROM q)) AND ${MARKED_MONTHS('a')}`,
          [envId, limit],
        ))
  ).map((row) => ({
    ...exposureOf(row),
    person: text(row, 'person'),
    hid: textOrNull(row, 'hid'),
    visitorId: text(row, 'visitor_id'),
  }));
  const hits: BatchHit[] = (
    await (waiting?.hits !== true
      ? none()
      : tx.query(
          `WITH q AS (DELETE FROM rollup_pending_hits WHERE env_id = $1 AND seq = ANY(ARRAY(
         SELECT seq FROM rollup_pending_hits WHERE env_id = $1 ORDER BY seq LIMIT $2)) RETURNING seq, received_ms)
       SELECT ${HIT_PERSON} AS person, h.type, h.goal, COALESCE(h.revenue, 0) AS revenue, h.created_ms, h.seq
       FROM hits h ${HIT_IDENTITY} WHERE h.seq = ANY(ARRAY(SELECT seq FROM q)) AND ${MARKED_MONTHS('h')}
         AND ${GOAL_HIT}`,
          [envId, limit],
        ))
  ).map((row) => ({ ...goalHitOf(row), person: text(row, 'person') }));
  const folded = linked.length + activations.length + hits.length;
  if (folded === 0) return 0;

  const linkedPersons = new Set<string>();
  for (const row of linked) {
    linkedPersons.add(text(row, 'anonymous_id'));
    linkedPersons.add(text(row, 'person_id'));
  }
  // The retention horizon, read only by a fold that computes a person or a window again (most never do).
  let horizon: Promise<number> | undefined;
  const horizonMs = (): Promise<number> => (horizon ??= readRollupHorizon(tx));
  const recompute = new Set(linkedPersons);
  const touched = [
    ...new Set([...recompute, ...activations.map((a) => a.person), ...hits.map((h) => h.person)]),
  ];
  const ledgers = await readLedgers(tx, envId, touched);
  for (const a of activations)
    if (!recompute.has(a.person) && !keepsLedger(ledgers.get(a.person) ?? emptyLedger(), a))
      recompute.add(a.person);

  const deltas = new RollupDeltas();
  const changed = new Set<string>();
  if (recompute.size > 0) {
    // A person with no ledger has no folded activation (person-ledger.ts): a first exposure reads back only
    // the person's goal hits (sent before it); a link's persons, and persons with a ledger, are read whole.
    const whole = new Set(
      [...recompute].filter((person) => linkedPersons.has(person) || ledgers.has(person)),
    );
    const rows = await personRows(tx, envId, [...recompute], [...whole]);
    const batchExposures = groupBy(activations, (a) => a.person);
    for (const person of recompute) {
      const before = ledgers.get(person);
      const exposures = whole.has(person) ? rows.exposures.get(person) : batchExposures.get(person);
      // Days before a retention horizon keep the old ledger's part: their rows may be gone (final-days.ts).
      const after = ledgerAfterHorizon(
        before,
        exposures ?? [],
        rows.hits.get(person) ?? [],
        await horizonMs(),
      );
      if (before !== undefined) addLedger(deltas, before, -1);
      addLedger(deltas, after, 1);
      ledgers.set(person, after);
      if (before !== undefined || !isEmptyLedger(after)) changed.add(person);
    }
  }
  const sortedHits = [...hits].sort((a, b) => a.createdMs - b.createdMs || a.seq - b.seq);
  for (const hit of sortedHits) {
    if (recompute.has(hit.person)) continue;
    // A person never exposed adds nothing yet: their first exposure reads this hit back.
    const ledger = ledgers.get(hit.person);
    if (ledger === undefined) continue;
    addGoalHit(ledger, hit, deltas);
    changed.add(hit.person);
  }
  await foldVisits(tx, envId, activations, deltas, horizonMs);
  await writeLedgers(tx, envId, ledgers, changed);
  await writeDeltas(tx, envId, deltas);
  return folded;
};
