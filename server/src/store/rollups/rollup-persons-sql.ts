// A person's rows as a fold reads them: the person rule of §14.2 over folded identities only, their folded
// activations and goal hits, and their stored ledgers (report/rollups/person-ledger.ts). Used by the fold when
// it computes a person again (rollup-fold-sql.ts).
import {
  emptyLedger,
  isEmptyLedger,
  readLedger,
  storedLedger,
  type PersonExposure,
  type PersonGoalHit,
  type PersonLedger,
  type StoredLedger,
} from '../../report/rollups/person-ledger.js';
import { num, text, type Queryable, type Row } from '../sql/sql.js';

const FOLDED_IDENTITY = (alias: string): string =>
  `NOT EXISTS (SELECT 1 FROM rollup_pending_links l WHERE l.env_id = ${alias}.env_id AND l.anonymous_id = ${alias}.anonymous_id)`;

/** The person of an activation (alias a, with {@link ACTIVATION_IDENTITY}): §14.2's rule (report-sql.ts), over folded identities only. */
export const ACTIVATION_PERSON = `CASE WHEN a.anonymous_id IS NOT NULL AND a.anonymous_id <> a.visitor_id
  THEN a.visitor_id ELSE COALESCE(ia.person_id, a.visitor_id) END`;
/** The folded identity of an activation's visitor (alias ia). */
export const ACTIVATION_IDENTITY = `LEFT JOIN identities ia ON ia.env_id = a.env_id AND ia.anonymous_id = a.visitor_id
  AND ${FOLDED_IDENTITY('ia')}`;
/** The person of a hit (alias h, with {@link HIT_IDENTITY}). */
export const HIT_PERSON = 'COALESCE(h.customer_id, ih.person_id, h.visitor_id)';
/** The folded identity of a hit's visitor (alias ih). */
export const HIT_IDENTITY = `LEFT JOIN identities ih ON ih.env_id = h.env_id AND ih.anonymous_id = h.visitor_id
  AND ${FOLDED_IDENTITY('ih')}`;
/** A goal hit (alias h): an EVENT or TRANSACTION with a goal, reserved actions (fs_) excluded. */
export const GOAL_HIT = `h.goal IS NOT NULL AND (h.type = 'TRANSACTION' OR (h.type = 'EVENT' AND left(h.goal, 3) <> 'fs_'))`;

/** A person's exposure from an activation row. */
export const exposureOf = (row: Row): PersonExposure => ({
  campaignId: text(row, 'campaign_id'),
  groupId: text(row, 'variation_group_id'),
  variationId: text(row, 'variation_id'),
  createdMs: num(row, 'created_ms'),
  seq: num(row, 'seq'),
});

/** A person's goal hit from a hit row. */
export const goalHitOf = (row: Row): PersonGoalHit => ({
  kind: text(row, 'type') === 'TRANSACTION' ? 'transaction' : 'event',
  goal: text(row, 'goal'),
  revenue: text(row, 'type') === 'TRANSACTION' ? num(row, 'revenue') : 0,
  createdMs: num(row, 'created_ms'),
  seq: num(row, 'seq'),
});

/** Groups items by key, keeping their order within each group. */
export const groupBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
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
export const personRows = async (
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
export const readLedgers = async (
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

/** Writes the changed ledgers (deleting those that add nothing). */
export const writeLedgers = async (
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
