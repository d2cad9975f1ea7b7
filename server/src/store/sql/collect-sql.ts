// Writes of the hot paths over the shared SQL: assignments (write-behind batches), activations and hits
// (one statement per batch, idempotent on (env, hid) through collected_ids; group-commit.ts gathers concurrent requests into one
// batch), identities (§14.2) and usage counts (§12). Rows go in as arrays through unnest(), so a batch of any
// size is one round trip.
import { num, text, textOrNull, type Queryable } from './sql.js';
import type { VisitorAssignments } from '../assignment-store.js';
import type { ActivationRow, HitRow } from '../collect-store.js';
import { HISTORY_ON_CONFLICT, storedHistories } from './stored-histories.js';

/** Visitors per assignment upsert statement. */
const ASSIGNMENT_CHUNK = 100;

const insertedCount = (rows: Array<Record<string, unknown>>): number =>
  rows[0] === undefined ? 0 : num(rows[0], 'n');

/** Which rows of `input` are stored: those without an idempotency id, and the first of each id claimed. */
const CLAIMED = 'h IS NULL OR (n = 1 AND h IN (SELECT hid FROM claimed))';

/**
 * In one statement: reads the rows from `input` (an unnest of `$5…` with ordinality `o`, columns `h` for the
 * idempotency id and `r` for the received time), claims their idempotency ids in collected_ids (`kind`: 'a'
 * or 'h'; an id already there is a retry), runs `insert` (which stores the rows of `input` that are CLAIMED,
 * `RETURNING hid, seq…`) and `pending` (marks the rows of `ins` for the report rollups), and records the
 * "anonymous id → first authenticated id" pairs the rows carry (§14.2; the first one seen stays): atomic
 * without a transaction, so a batch's ids, rows, marks and identities are durable together in a single round
 * trip. Returns the idempotency id of each row stored (null for a row without one).
 */
const insertWithIdentities = async (
  db: Queryable,
  parts: { input: string; kind: 'a' | 'h'; insert: string; pending: string },
  envId: string,
  columns: readonly unknown[][],
  pairs: ReadonlyArray<[anonymousId: string, personId: string]>,
  now: number,
): Promise<Array<string | null>> => {
  // The rows and identities stored are marked pending for the report rollups in the same statement
  // (migration 009): a row is never durable without its mark, so no fold can miss it. Ids are claimed outside
  // the partitioned tables (migration 010): a retry's later received time may fall in another month's
  // partition. n numbers the rows of one id in the batch: the first one is the one stored, as it always was.
  const rows = await db.query(
    `WITH identity AS (
       INSERT INTO identities (env_id, anonymous_id, person_id, first_seen_ms)
       SELECT DISTINCT ON (a) $1, a, p, $4::bigint FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(a, p, o)
       ORDER BY a, o
       ON CONFLICT (env_id, anonymous_id) DO NOTHING RETURNING anonymous_id),
     link AS (INSERT INTO rollup_pending_links (env_id, anonymous_id) SELECT $1, anonymous_id FROM identity
       ON CONFLICT DO NOTHING),
     input AS (SELECT u.*, row_number() OVER (PARTITION BY u.h ORDER BY u.o) AS n FROM ${parts.input}),
     claimed AS (INSERT INTO collected_ids (env_id, kind, hid, received_ms)
       SELECT $1, '${parts.kind}', h, r FROM input WHERE h IS NOT NULL AND n = 1
       ON CONFLICT (env_id, kind, hid) DO NOTHING RETURNING hid),
     ins AS (${parts.insert}),
     pending AS (${parts.pending})
     SELECT hid FROM ins`,
    [envId, pairs.map((p) => p[0]), pairs.map((p) => p[1]), now, ...columns],
  );
  return rows.map((row) => textOrNull(row, 'hid'));
};

/** Whether `error` is PostgreSQL's class 22, data exception (e.g. 22P02, text that is not JSON). */
const isDataException = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && String((error as { code?: unknown }).code).startsWith('22');

/**
 * Upserts `entries` in one statement, their histories already in the stored form (`histories`, in the same
 * order). Rows go in as arrays through unnest(), so a chunk is one round trip.
 */
const upsertAssignments = async (
  db: Queryable,
  envId: string,
  entries: readonly VisitorAssignments[],
  histories: readonly string[],
  onConflict: keyof typeof HISTORY_ON_CONFLICT,
): Promise<void> => {
  await db.query(
    `INSERT INTO assignments (env_id, visitor_id, history, last_used_ms)
     SELECT $1, u.v, u.h, u.t FROM unnest($2::text[], $3::text[], $4::bigint[]) AS u(v, h, t)
     ON CONFLICT (env_id, visitor_id) DO UPDATE SET history = ${HISTORY_ON_CONFLICT[onConflict]},
       last_used_ms = GREATEST(assignments.last_used_ms, excluded.last_used_ms)`,
    [envId, entries.map((e) => e.visitorId), histories, entries.map((e) => e.lastUsedMs)],
  );
};

/** Collection operations of the store. */
export const collectQueries = (db: Queryable) => {
  const stored = storedHistories(db);
  return {
    async getAssignments(envId: string, visitorIds: readonly string[]): Promise<VisitorAssignments[]> {
      const rows = await db.query(
        'SELECT visitor_id, history, last_used_ms FROM assignments WHERE env_id = $1 AND visitor_id = ANY($2::text[])',
        [envId, [...visitorIds]],
      );
      const histories = await stored.read(rows.map((row) => row.history));
      const visitors: VisitorAssignments[] = [];
      rows.forEach((row, i) => {
        const history = histories[i];
        if (history === null || history === undefined) return;
        visitors.push({ visitorId: text(row, 'visitor_id'), history, lastUsedMs: num(row, 'last_used_ms') });
      });
      return visitors;
    },
    async saveAssignments(envId: string, list: readonly VisitorAssignments[]): Promise<void> {
      if (list.length === 0) return;
      // One entry per visitor: ON CONFLICT DO UPDATE may not touch a row twice in one statement. The first
      // entry of a visitor keeps its variations, as a stored row does.
      const visitors = new Map<string, VisitorAssignments>();
      for (const entry of list) {
        const first = visitors.get(entry.visitorId);
        visitors.set(
          entry.visitorId,
          first === undefined
            ? entry
            : {
                visitorId: entry.visitorId,
                history: { ...entry.history, ...first.history },
                lastUsedMs: Math.max(first.lastUsedMs, entry.lastUsedMs),
              },
        );
      }
      const entries = [...visitors.values()];
      // Several small statements rather than one: each one holds the embedded store for a few milliseconds, so
      // a read or a hit waiting to be made durable is not queued behind one upsert of every new visitor of the
      // last flush.
      for (let start = 0; start < entries.length; start += ASSIGNMENT_CHUNK) {
        const chunk = entries.slice(start, start + ASSIGNMENT_CHUNK);
        const texts = await stored.write(chunk.map((e) => e.history));
        await upsertAssignments(db, envId, chunk, texts, 'merge').catch(async (error: unknown) => {
          if (!isDataException(error)) throw error;
          // A stored history that starts like JSON and is not (written by hand: the server writes JSON or
          // numbers only) fails the merge of its whole chunk. Each visitor then goes alone, and the one whose
          // stored history cannot be read gets the history it was just decided with: reads already treat that
          // row as no history at all.
          for (const [i, entry] of chunk.entries()) {
            const one = [texts[i] ?? ''];
            await upsertAssignments(db, envId, [entry], one, 'merge').catch((again: unknown) => {
              if (!isDataException(again)) throw again;
              return upsertAssignments(db, envId, [entry], one, 'replace');
            });
          }
        });
      }
    },
    async purgeAssignments(beforeMs: number): Promise<number> {
      const rows = await db.query(
        'WITH d AS (DELETE FROM assignments WHERE last_used_ms < $1 RETURNING 1) SELECT count(*)::int AS n FROM d',
        [beforeMs],
      );
      return insertedCount(rows);
    },
    /** Stores activations, skipping known idempotency ids; returns the ids stored (null for rows without). */
    storeActivations: async (
      envId: string,
      rows: readonly ActivationRow[],
    ): Promise<Array<string | null>> => {
      if (rows.length === 0) return [];
      return insertWithIdentities(
        db,
        {
          input: `unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[],
                         $12::bigint[]) WITH ORDINALITY AS u(h, v, a, c, g, x, t, r, o)`,
          kind: 'a',
          insert: `INSERT INTO activations (env_id, hid, visitor_id, anonymous_id, campaign_id, variation_group_id,
             variation_id, created_ms, received_ms)
           SELECT $1, h, v, a, c, g, x, t, r FROM input WHERE ${CLAIMED} ORDER BY o
           RETURNING hid, seq, received_ms`,
          pending:
            'INSERT INTO rollup_pending_activations (env_id, seq, received_ms) SELECT $1, seq, received_ms FROM ins',
        },
        envId,
        [
          rows.map((r) => r.hid),
          rows.map((r) => r.visitorId),
          rows.map((r) => r.anonymousId),
          rows.map((r) => r.campaignId),
          rows.map((r) => r.variationGroupId),
          rows.map((r) => r.variationId),
          rows.map((r) => r.createdMs),
          rows.map((r) => r.receivedMs),
        ],
        rows.flatMap((r): Array<[string, string]> =>
          r.anonymousId !== null && r.anonymousId !== r.visitorId ? [[r.anonymousId, r.visitorId]] : [],
        ),
        rows[0]?.receivedMs ?? Date.now(),
      );
    },
    /** Stores hits, skipping known idempotency ids; returns the ids stored (null for rows without). */
    storeHits: async (envId: string, rows: readonly HitRow[]): Promise<Array<string | null>> => {
      if (rows.length === 0) return [];
      return insertWithIdentities(
        db,
        {
          input: `unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::float8[], $11::bigint[],
                         $12::bigint[], $13::text[]) WITH ORDINALITY AS u(h, y, v, c, g, m, t, r, b, o)`,
          kind: 'h',
          insert: `INSERT INTO hits (env_id, hid, type, visitor_id, customer_id, goal, revenue, created_ms,
             received_ms, body)
           SELECT $1, h, y, v, c, g, m, t, r, b::jsonb FROM input WHERE ${CLAIMED} ORDER BY o
           RETURNING hid, seq, received_ms, type, goal`,
          // Only goal hits (§14.3) count in a report: page views and screens never need folding.
          pending: `INSERT INTO rollup_pending_hits (env_id, seq, received_ms) SELECT $1, seq, received_ms FROM ins
             WHERE goal IS NOT NULL AND (type = 'TRANSACTION' OR (type = 'EVENT' AND left(goal, 3) <> 'fs_'))`,
        },
        envId,
        [
          rows.map((r) => r.hid),
          rows.map((r) => r.type),
          rows.map((r) => r.visitorId),
          rows.map((r) => r.customerId),
          rows.map((r) => r.goal),
          rows.map((r) => r.revenue),
          rows.map((r) => r.createdMs),
          rows.map((r) => r.receivedMs),
          rows.map((r) => JSON.stringify(r.body)),
        ],
        rows.flatMap((r): Array<[string, string]> =>
          r.customerId !== null && r.customerId !== r.visitorId ? [[r.visitorId, r.customerId]] : [],
        ),
        rows[0]?.receivedMs ?? Date.now(),
      );
    },
    /** Every stored hit of an environment, oldest first, as stored: for operators and tests. */
    async listHits(envId: string): Promise<HitRow[]> {
      const rows = await db.query(
        `SELECT hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms, body::text AS body
       FROM hits WHERE env_id = $1 ORDER BY seq`,
        [envId],
      );
      return rows.map((row) => ({
        hid: textOrNull(row, 'hid'),
        type: text(row, 'type'),
        visitorId: text(row, 'visitor_id'),
        customerId: textOrNull(row, 'customer_id'),
        goal: textOrNull(row, 'goal'),
        revenue: row.revenue === null ? null : num(row, 'revenue'),
        createdMs: num(row, 'created_ms'),
        receivedMs: num(row, 'received_ms'),
        body: JSON.parse(text(row, 'body')) as Record<string, unknown>,
      }));
    },
    /** Every stored activation of an environment, oldest first, as stored: for operators and tests. */
    async listActivations(envId: string): Promise<ActivationRow[]> {
      const rows = await db.query(
        `SELECT hid, visitor_id, anonymous_id, campaign_id, variation_group_id, variation_id, created_ms,
         received_ms
       FROM activations WHERE env_id = $1 ORDER BY seq`,
        [envId],
      );
      return rows.map((row) => ({
        hid: textOrNull(row, 'hid'),
        visitorId: text(row, 'visitor_id'),
        anonymousId: textOrNull(row, 'anonymous_id'),
        campaignId: text(row, 'campaign_id'),
        variationGroupId: text(row, 'variation_group_id'),
        variationId: text(row, 'variation_id'),
        createdMs: num(row, 'created_ms'),
        receivedMs: num(row, 'received_ms'),
      }));
    },
    async countHits(envId: string): Promise<Record<string, number>> {
      const rows = await db.query(
        'SELECT type, count(*)::int AS n FROM hits WHERE env_id = $1 GROUP BY type',
        [envId],
      );
      return Object.fromEntries(rows.map((row) => [text(row, 'type'), num(row, 'n')]));
    },
    async countUsage(envId: string, sdkName: string, sdkVersion: string, day: string): Promise<void> {
      await db.query(
        `INSERT INTO usage_counts (env_id, sdk_name, sdk_version, day, count) VALUES ($1, $2, $3, $4, 1)
       ON CONFLICT (env_id, sdk_name, sdk_version, day) DO UPDATE SET count = usage_counts.count + 1`,
        [envId, sdkName, sdkVersion, day],
      );
    },
    async usageCounts(
      envId: string,
    ): Promise<Array<{ sdkName: string; sdkVersion: string; day: string; count: number }>> {
      const rows = await db.query(
        'SELECT sdk_name, sdk_version, day, count FROM usage_counts WHERE env_id = $1 ORDER BY day, sdk_name, sdk_version',
        [envId],
      );
      return rows.map((row) => ({
        sdkName: text(row, 'sdk_name'),
        sdkVersion: text(row, 'sdk_version'),
        day: text(row, 'day'),
        count: num(row, 'count'),
      }));
    },
  };
};

/**
 * Reads of stored rows, for operators and tests (collectQueries: listHits, listActivations). Until the Store
 * interface lists them, a test reaches them on an open store as `store as Store & StoredRowReads`.
 */
export type StoredRowReads = Pick<ReturnType<typeof collectQueries>, 'listHits' | 'listActivations'>;
