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
import { dayOf } from '../../report/attribution.js';
import {
  addGoalHit,
  addLedger,
  emptyLedger,
  isEmptyLedger,
  keepsLedger,
  readLedger,
  storedLedger,
  type PersonExposure,
  type PersonGoalHit,
  type PersonLedger,
  type StoredLedger,
} from '../../report/rollups/person-ledger.js';
import {
  ALL_DAYS,
  RollupDeltas,
  variationCell,
  type RollupCell,
  type RollupGoalKind,
} from '../../report/rollups/rollup-cells.js';
import {
  extendWindows,
  type VisitWindows,
  type WindowActivation,
} from '../../report/rollups/visit-ledger.js';
import { ledgerAfterHorizon, windowsAfterHorizon } from '../../report/rollups/final-days.js';
import { readRollupHorizon, rebuildAfterRetentionError } from './rollup-horizon.js';
import { num, text, textOrNull, type Queryable, type Row, type Sql } from '../sql/sql.js';

// Arbitrary constant shared by every instance: the first key of the per-environment fold lock.
export const FOLD_LOCK = 7_200_131;

const FOLDED_IDENTITY = (alias: string): string =>
  `NOT EXISTS (SELECT 1 FROM rollup_pending_links l WHERE l.env_id = ${alias}.env_id AND l.anonymous_id = ${alias}.anonymous_id)`;

// The person rule of §14.2 (report-sql.ts), over folded identities only.
const ACTIVATION_PERSON = `CASE WHEN a.anonymous_id IS NOT NULL AND a.anonymous_id <> a.visitor_id
  THEN a.visitor_id ELSE COALESCE(ia.person_id, a.visitor_id) END`;
const ACTIVATION_IDENTITY = `LEFT JOIN identities ia ON ia.env_id = a.env_id AND ia.anonymous_id = a.visitor_id
  AND ${FOLDED_IDENTITY('ia')}`;
const HIT_PERSON = 'COALESCE(h.customer_id, ih.person_id, h.visitor_id)';
const HIT_IDENTITY = `LEFT JOIN identities ih ON ih.env_id = h.env_id AND ih.anonymous_id = h.visitor_id
  AND ${FOLDED_IDENTITY('ih')}`;
// The rows of a fold's marks (CTE q, which took them with their received times, migration 011) lie within the
// marks' received range, since a mark's received_ms is always copied from its row's (collect-sql.ts, the
// rebuild below, migration 011; a row's received_ms never changes, even when it moves partition). The
// partitions outside that range are skipped when the statement runs (run-time pruning), instead of each
// month's index being searched for every seq.
const MARKED_MONTHS = (alias: string): string =>
  `${alias}.received_ms BETWEEN (SELECT min(received_ms) FROM q) AND (SELECT max(received_ms) FROM q)`;
const GOAL_HIT = `h.goal IS NOT NULL AND (h.type = 'TRANSACTION' OR (h.type = 'EVENT' AND left(h.goal, 3) <> 'fs_'))`;

interface BatchActivation extends PersonExposure {
  person: string;
  hid: string | null;
  visitorId: string;
}

interface BatchHit extends PersonGoalHit {
  person: string;
}

/** A cell of campaign_rollups as the report reads it. */
export type StoredRollupCell = Omit<RollupCell, 'campaignId'>;

/** A campaign's rollups and the revision they are at (the report's ETag). */
export interface CampaignRollups {
  revision: number;
  cells: StoredRollupCell[];
}

const exposureOf = (row: Row): PersonExposure => ({
  campaignId: text(row, 'campaign_id'),
  groupId: text(row, 'variation_group_id'),
  variationId: text(row, 'variation_id'),
  createdMs: num(row, 'created_ms'),
  seq: num(row, 'seq'),
});

const goalHitOf = (row: Row): PersonGoalHit => ({
  kind: text(row, 'type') === 'TRANSACTION' ? 'transaction' : 'event',
  goal: text(row, 'goal'),
  revenue: text(row, 'type') === 'TRANSACTION' ? num(row, 'revenue') : 0,
  createdMs: num(row, 'created_ms'),
  seq: num(row, 'seq'),
});

// jsonb comes back parsed from both drivers; text only if a column was read as text.
const jsonOf = (value: unknown): unknown =>
  typeof value === 'string' ? (JSON.parse(value) as unknown) : value;

const windowKey = (a: {
  visitorId: string;
  campaignId: string;
  groupId: string;
  variationId: string;
}): string => JSON.stringify([a.visitorId, a.campaignId, a.groupId, a.variationId]);

const groupBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [item]);
    else list.push(item);
  }
  return groups;
};

/**
 * Every folded goal hit of these persons, and the folded activations of those of them in `withExposures` (a
 * person's rows: their ids and the anonymous ids linked to them).
 */
const personRows = async (
  tx: Queryable,
  envId: string,
  persons: readonly string[],
  withExposures: readonly string[],
): Promise<{ exposures: Map<string, PersonExposure[]>; hits: Map<string, PersonGoalHit[]> }> => {
  const ids = `ids AS (SELECT unnest($2::text[]) AS id UNION SELECT i.anonymous_id FROM identities i
    WHERE i.env_id = $1 AND i.person_id = ANY($2::text[]) AND ${FOLDED_IDENTITY('i')})`;
  const activations =
    withExposures.length === 0
      ? []
      : await tx.query(
          `WITH ${ids} SELECT * FROM (
       SELECT ${ACTIVATION_PERSON} AS person, a.campaign_id, a.variation_group_id, a.variation_id, a.created_ms, a.seq
       FROM activations a ${ACTIVATION_IDENTITY}
       WHERE a.env_id = $1 AND a.visitor_id = ANY(ARRAY(SELECT id FROM ids))
         AND NOT EXISTS (SELECT 1 FROM rollup_pending_activations p WHERE p.env_id = $1 AND p.seq = a.seq)) x
     WHERE person = ANY($2::text[])`,
          [envId, withExposures],
        );
  const hits = await tx.query(
    `WITH ${ids} SELECT * FROM (
       SELECT ${HIT_PERSON} AS person, h.type, h.goal, COALESCE(h.revenue, 0) AS revenue, h.created_ms, h.seq
       FROM hits h ${HIT_IDENTITY}
       WHERE h.env_id = $1 AND (h.customer_id = ANY($2::text[]) OR h.visitor_id = ANY(ARRAY(SELECT id FROM ids)))
         AND ${GOAL_HIT} AND NOT EXISTS (SELECT 1 FROM rollup_pending_hits p WHERE p.env_id = $1 AND p.seq = h.seq)) x
     WHERE person = ANY($2::text[])`,
    [envId, persons],
  );
  const exposures = new Map<string, PersonExposure[]>();
  for (const [person, rows] of groupBy(activations, (r) => text(r, 'person')))
    exposures.set(person, rows.map(exposureOf));
  const goalHits = new Map<string, PersonGoalHit[]>();
  for (const [person, rows] of groupBy(hits, (r) => text(r, 'person')))
    goalHits.set(person, rows.map(goalHitOf));
  return { exposures, hits: goalHits };
};

/** The persons' stored ledgers. */
const readLedgers = async (
  tx: Queryable,
  envId: string,
  persons: readonly string[],
): Promise<Map<string, PersonLedger>> => {
  const rows = await tx.query(
    'SELECT person, ledger FROM rollup_persons WHERE env_id = $1 AND person = ANY($2::text[])',
    [envId, persons],
  );
  return new Map(
    rows.map((row) => [text(row, 'person'), readLedger(JSON.parse(text(row, 'ledger')) as StoredLedger)]),
  );
};

/** Counts the visits of the batch's activations into `deltas`, updating the window chains they extend. */
const foldVisits = async (
  tx: Queryable,
  envId: string,
  activations: readonly BatchActivation[],
  deltas: RollupDeltas,
  horizonMs: () => Promise<number>,
): Promise<void> => {
  for (const a of activations) {
    const cell = variationCell(a.campaignId, a.groupId, a.variationId, ALL_DAYS);
    deltas.firstActivation(cell, a.createdMs, a.seq);
    if (a.hid !== null) deltas.add({ ...cell, day: dayOf(a.createdMs) }, 'visits', 1);
  }
  const keys = groupBy(
    activations.filter((a) => a.hid === null),
    windowKey,
  );
  if (keys.size === 0) return;
  const firsts = [...keys.values()].map((list) => list[0] as BatchActivation);
  const keyArrays = [
    firsts.map((a) => a.visitorId),
    firsts.map((a) => a.campaignId),
    firsts.map((a) => a.groupId),
    firsts.map((a) => a.variationId),
  ];
  const KEYS = `(SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]))`;
  const stored = new Map(
    (
      await tx.query(
        `SELECT visitor_id, campaign_id, variation_group_id, variation_id, opened_ms, days FROM rollup_visit_windows
         WHERE env_id = $1 AND (visitor_id, campaign_id, variation_group_id, variation_id) IN ${KEYS}`,
        [envId, ...keyArrays],
      )
    ).map((row): [string, VisitWindows] => [
      JSON.stringify([
        text(row, 'visitor_id'),
        text(row, 'campaign_id'),
        text(row, 'variation_group_id'),
        text(row, 'variation_id'),
      ]),
      { openedMs: num(row, 'opened_ms'), days: jsonOf(row.days) as Record<string, number> },
    ]),
  );
  const changed = new Map<string, VisitWindows>();
  const recompute: BatchActivation[] = [];
  for (const [key, list] of keys) {
    const first = list[0] as BatchActivation;
    const extended = extendWindows(stored.get(key) ?? null, list);
    if (extended === 'recompute') {
      recompute.push(first);
      continue;
    }
    changed.set(key, extended.chain);
    for (const [day, visits] of Object.entries(extended.visits))
      deltas.add(
        variationCell(first.campaignId, first.groupId, first.variationId, Number(day)),
        'visits',
        visits,
      );
  }
  if (recompute.length > 0) {
    const rows = await tx.query(
      `SELECT a.visitor_id, a.campaign_id, a.variation_group_id, a.variation_id, a.created_ms, a.seq FROM activations a
       WHERE a.env_id = $1 AND a.hid IS NULL
         AND (a.visitor_id, a.campaign_id, a.variation_group_id, a.variation_id) IN ${KEYS}
         AND NOT EXISTS (SELECT 1 FROM rollup_pending_activations p WHERE p.env_id = $1 AND p.seq = a.seq)`,
      [
        envId,
        recompute.map((a) => a.visitorId),
        recompute.map((a) => a.campaignId),
        recompute.map((a) => a.groupId),
        recompute.map((a) => a.variationId),
      ],
    );
    const byKey = groupBy(rows, (row) =>
      JSON.stringify([
        text(row, 'visitor_id'),
        text(row, 'campaign_id'),
        text(row, 'variation_group_id'),
        text(row, 'variation_id'),
      ]),
    );
    for (const a of recompute) {
      const key = windowKey(a);
      // Days before a retention horizon keep their visits: their rows may be gone (final-days.ts).
      const chain = windowsAfterHorizon(
        stored.get(key) ?? null,
        (byKey.get(key) ?? []).map((row): WindowActivation => ({
          createdMs: num(row, 'created_ms'),
          seq: num(row, 'seq'),
        })),
        await horizonMs(),
      );
      const before = stored.get(key)?.days ?? {};
      const after = chain?.days ?? {};
      for (const day of new Set([...Object.keys(before), ...Object.keys(after)]))
        deltas.add(
          variationCell(a.campaignId, a.groupId, a.variationId, Number(day)),
          'visits',
          (after[day] ?? 0) - (before[day] ?? 0),
        );
      if (chain !== null) changed.set(key, chain);
    }
  }
  if (changed.size === 0) return;
  const entries = [...changed].map(([key, chain]) => [JSON.parse(key) as string[], chain] as const);
  await tx.query(
    `INSERT INTO rollup_visit_windows (env_id, visitor_id, campaign_id, variation_group_id, variation_id, opened_ms, days)
     SELECT $1, v, c, g, x, o, d::jsonb FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])
       AS u(v, c, g, x, o, d)
     ON CONFLICT (env_id, visitor_id, campaign_id, variation_group_id, variation_id)
     DO UPDATE SET opened_ms = excluded.opened_ms, days = excluded.days`,
    [
      envId,
      ...[0, 1, 2, 3].map((i) => entries.map(([key]) => key[i])),
      entries.map(([, chain]) => chain.openedMs),
      entries.map(([, chain]) => JSON.stringify(chain.days)),
    ],
  );
};

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

/** Writes the changed ledgers (deleting those that add nothing). */
const writeLedgers = async (
  tx: Queryable,
  envId: string,
  ledgers: Map<string, PersonLedger>,
  changed: ReadonlySet<string>,
): Promise<void> => {
  const kept: Array<[string, PersonLedger]> = [];
  const gone: string[] = [];
  for (const person of changed) {
    const ledger = ledgers.get(person) ?? emptyLedger();
    if (isEmptyLedger(ledger)) gone.push(person);
    else kept.push([person, ledger]);
  }
  if (gone.length > 0)
    await tx.query('DELETE FROM rollup_persons WHERE env_id = $1 AND person = ANY($2::text[])', [
      envId,
      gone,
    ]);
  if (kept.length > 0)
    await tx.query(
      `INSERT INTO rollup_persons (env_id, person, ledger)
       SELECT $1, p, l FROM unnest($2::text[], $3::text[]) AS u(p, l)
       ON CONFLICT (env_id, person) DO UPDATE SET ledger = excluded.ledger`,
      [envId, kept.map(([person]) => person), kept.map(([, ledger]) => JSON.stringify(storedLedger(ledger)))],
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

const PENDING_TABLES = ['rollup_pending_activations', 'rollup_pending_hits', 'rollup_pending_links'] as const;

/** Rollup operations of the store; reads of the rollups go to `sql.reportReads` when there is one. */
export const rollupQueries = (sql: Sql) => {
  const reads = sql.reportReads ?? sql;
  return {
    /** Folds up to `limit` pending marks of each kind of one environment; returns how many it folded (0: none left). */
    foldRollups: (envId: string, limit: number, options: FoldOptions): Promise<number> =>
      sql.foldRollups?.(envId, limit, options) ??
      sql.transaction((tx) => foldBatch(tx, envId, limit, options)),

    /**
     * Vacuums and analyzes the rollup tables after a large fold (a backfill, a rebuild): a million folded
     * rows leave a million dead pending marks, which every "anything pending?" check would step over until
     * autovacuum came (never, where it is off), and a planner that still thinks the rollup tables empty.
     */
    tidyRollups: async (): Promise<void> => {
      await sql.query(
        `VACUUM (ANALYZE) ${[...PENDING_TABLES, 'rollup_persons', 'rollup_visit_windows', 'campaign_rollups'].join(', ')}`,
      );
    },

    /** Whether rows of the environment wait to be folded: one cheap check before a fold's transaction. */
    hasPendingRollups: async (envId: string): Promise<boolean> => {
      const rows = await sql.query(
        `SELECT ${PENDING_TABLES.map((table) => `EXISTS (SELECT 1 FROM ${table} p WHERE p.env_id = $1)`).join(
          ' OR ',
        )} AS pending`,
        [envId],
      );
      return rows[0]?.pending === true;
    },

    /** The environments with rows not folded yet. */
    pendingRollupEnvironments: async (): Promise<string[]> => {
      const rows = await sql.query(
        `SELECT e.id FROM environments e WHERE ${PENDING_TABLES.map(
          (table) => `EXISTS (SELECT 1 FROM ${table} p WHERE p.env_id = e.id)`,
        ).join(' OR ')}`,
      );
      return rows.map((row) => text(row, 'id'));
    },

    /** How many marks wait to be folded, all environments together (progress of a backfill). */
    pendingRollupCount: async (): Promise<number> => {
      const rows = await sql.query(
        `SELECT ${PENDING_TABLES.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')} AS n`,
      );
      return rows[0] === undefined ? 0 : num(rows[0], 'n');
    },

    /** A campaign's rollups as they stand (fold first to include every stored row). */
    readCampaignRollups: async (envId: string, campaignId: string): Promise<CampaignRollups> => {
      const [revision, cells] = await Promise.all([
        reads.query('SELECT revision FROM campaign_rollup_revisions WHERE env_id = $1 AND campaign_id = $2', [
          envId,
          campaignId,
        ]),
        reads.query(
          `SELECT variation_group_id, variation_id, goal_kind, goal, day, visits, visitors, conversions, converters,
                revenue_micros, seen, first_ms, first_seq
         FROM campaign_rollups WHERE env_id = $1 AND campaign_id = $2`,
          [envId, campaignId],
        ),
      ]);
      return {
        revision: revision[0] === undefined ? 0 : num(revision[0], 'revision'),
        cells: cells.map((row) => ({
          groupId: text(row, 'variation_group_id'),
          variationId: text(row, 'variation_id'),
          goalKind: text(row, 'goal_kind') as RollupGoalKind,
          goal: text(row, 'goal'),
          day: num(row, 'day'),
          visits: num(row, 'visits'),
          visitors: num(row, 'visitors'),
          conversions: num(row, 'conversions'),
          converters: num(row, 'converters'),
          revenueMicros: num(row, 'revenue_micros'),
          seen: num(row, 'seen'),
          firstMs: row.first_ms === null ? null : num(row, 'first_ms'),
          firstSeq: row.first_seq === null ? null : num(row, 'first_seq'),
        })),
      };
    },

    /** The revision of a campaign's rollups (0: never folded). */
    campaignRollupRevision: async (envId: string, campaignId: string): Promise<number> => {
      const rows = await reads.query(
        'SELECT revision FROM campaign_rollup_revisions WHERE env_id = $1 AND campaign_id = $2',
        [envId, campaignId],
      );
      return rows[0] === undefined ? 0 : num(rows[0], 'revision');
    },

    /**
     * Forgets every rollup and marks every stored activation, goal hit and identity pending again, so that folds
     * rebuild the rollups from the stored rows (`feature-server report --rebuild`). Revisions keep rising, so a
     * cached report is never taken for the rebuilt one. Returns how many marks wait.
     */
    resetRollups: async (): Promise<number> => {
      return sql.transaction(async (tx) => {
        // Every environment's fold lock: no fold runs halfway across the reset.
        await tx.query(
          'SELECT pg_advisory_xact_lock($1, hashtext(id)) FROM (SELECT id FROM environments ORDER BY id) e',
          [FOLD_LOCK],
        );
        // Rows before a retention horizon are gone, and their counts live only in the rollups (migration 010).
        const horizon = await readRollupHorizon(tx);
        if (horizon > 0) throw rebuildAfterRetentionError(horizon);
        for (const table of ['campaign_rollups', 'rollup_persons', 'rollup_visit_windows', ...PENDING_TABLES])
          await tx.query(`DELETE FROM ${table}`);
        await tx.query('UPDATE campaign_rollup_revisions SET revision = revision + 1');
        await tx.query(
          'INSERT INTO rollup_pending_activations (env_id, seq, received_ms) SELECT env_id, seq, received_ms FROM activations',
        );
        await tx.query(
          `INSERT INTO rollup_pending_hits (env_id, seq, received_ms) SELECT h.env_id, h.seq, h.received_ms FROM hits h WHERE ${GOAL_HIT}`,
        );
        await tx.query(
          'INSERT INTO rollup_pending_links (env_id, anonymous_id) SELECT env_id, anonymous_id FROM identities',
        );
        const rows = await tx.query(
          `SELECT ${PENDING_TABLES.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')} AS n`,
        );
        return rows[0] === undefined ? 0 : num(rows[0], 'n');
      });
    },
  };
};
