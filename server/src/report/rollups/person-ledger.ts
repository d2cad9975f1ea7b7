// A person's contribution to the report rollups (§14.2-14.4), kept per person (table rollup_persons) so that
// anything that changes it (a late identity link, an exposure older than the one stored, a goal hit sent before
// its exposure) is corrected exactly: the person's old contribution is taken out of the rollups and the one
// computed again from their stored rows put in (`ledgerOf`). The common case, a goal hit of a person whose
// exposures are already folded, is one step on the ledger (`addGoalHit`) with the same result.
import { dayOf, isAttributed, toMicros } from '../attribution.js';
import { ALL_DAYS, variationCell, type RollupDeltas, type RollupGoalKind } from './rollup-cells.js';

/** A person's activation, as a fold reads it. */
export interface PersonExposure {
  campaignId: string;
  groupId: string;
  variationId: string;
  createdMs: number;
  seq: number;
}

/** A person's goal hit (§14.3), as a fold reads it. */
export interface PersonGoalHit {
  kind: Exclude<RollupGoalKind, ''>;
  goal: string;
  /** The transaction's revenue (0 for events). */
  revenue: number;
  createdMs: number;
  seq: number;
}

/** The person's first exposure in one variation group. */
export interface LedgerExposure {
  campaignId: string;
  groupId: string;
  variationId: string;
  createdMs: number;
  seq: number;
}

/** What one goal of one group adds through this person (counted for the group's first variation). */
export interface LedgerGoal {
  campaignId: string;
  groupId: string;
  variationId: string;
  kind: Exclude<RollupGoalKind, ''>;
  goal: string;
  /** Revenue in millionths (attribution.ts). */
  revenueMicros: number;
  /** Conversions per UTC day of the hit's created time. */
  days: Record<string, number>;
  /**
   * Revenue in millionths per UTC day (transactions only; sums to revenueMicros), so that the part of days
   * before a retention horizon can be kept apart from the rest (final-days.ts).
   */
  revenueDays: Record<string, number>;
}

/** A goal the person sent, in a campaign they were exposed to (shown for every variation). */
export interface LedgerSeen {
  campaignId: string;
  kind: Exclude<RollupGoalKind, ''>;
  goal: string;
}

/** A person's whole contribution. */
export interface PersonLedger {
  exposures: LedgerExposure[];
  goals: LedgerGoal[];
  seen: LedgerSeen[];
}

/**
 * The ledger of a person with no folded activation. A ledger is kept while it has exposures, and only then,
 * so a person with no ledger has no folded activation: their first exposure reads back only their goal hits.
 */
export const emptyLedger = (): PersonLedger => ({ exposures: [], goals: [], seen: [] });

/** Whether the ledger adds nothing (its row can go). */
export const isEmptyLedger = (ledger: PersonLedger): boolean => ledger.exposures.length === 0;

const before = (a: { createdMs: number; seq: number }, b: { createdMs: number; seq: number }): boolean =>
  a.createdMs < b.createdMs || (a.createdMs === b.createdMs && a.seq < b.seq);

const byCreated = (a: { createdMs: number; seq: number }, b: { createdMs: number; seq: number }): number =>
  a.createdMs - b.createdMs || a.seq - b.seq;

/**
 * Adds one goal hit to a ledger whose exposures are final: a conversion for the first variation of each group
 * exposed before it (§14.4), and the goal as seen in each campaign of the person. Adds the same to `deltas`.
 */
export const addGoalHit = (ledger: PersonLedger, hit: PersonGoalHit, deltas?: RollupDeltas): void => {
  const day = String(dayOf(hit.createdMs));
  for (const exposure of ledger.exposures) {
    if (!isAttributed(exposure.createdMs, hit.createdMs)) continue;
    // By variation too: after a retention horizon, a group's goal may sit in two variations (final-days.ts).
    let goal = ledger.goals.find(
      (g) =>
        g.campaignId === exposure.campaignId &&
        g.groupId === exposure.groupId &&
        g.variationId === exposure.variationId &&
        g.kind === hit.kind &&
        g.goal === hit.goal,
    );
    const cell = {
      ...variationCell(exposure.campaignId, exposure.groupId, exposure.variationId, ALL_DAYS),
      goalKind: hit.kind,
      goal: hit.goal,
    };
    if (goal === undefined) {
      goal = {
        campaignId: exposure.campaignId,
        groupId: exposure.groupId,
        variationId: exposure.variationId,
        kind: hit.kind,
        goal: hit.goal,
        revenueMicros: 0,
        days: {},
        revenueDays: {},
      };
      ledger.goals.push(goal);
      deltas?.add(cell, 'converters', 1);
    }
    goal.days[day] = (goal.days[day] ?? 0) + 1;
    deltas?.add({ ...cell, day: Number(day) }, 'conversions', 1);
    if (hit.kind === 'transaction') {
      goal.revenueMicros += toMicros(hit.revenue);
      goal.revenueDays[day] = (goal.revenueDays[day] ?? 0) + toMicros(hit.revenue);
      deltas?.add(cell, 'revenueMicros', toMicros(hit.revenue));
    }
  }
  for (const campaignId of new Set(ledger.exposures.map((e) => e.campaignId))) {
    if (ledger.seen.some((s) => s.campaignId === campaignId && s.kind === hit.kind && s.goal === hit.goal))
      continue;
    ledger.seen.push({ campaignId, kind: hit.kind, goal: hit.goal });
    deltas?.add(
      { campaignId, groupId: '', variationId: '', goalKind: hit.kind, goal: hit.goal, day: ALL_DAYS },
      'seen',
      1,
    );
  }
};

/**
 * A person's contribution computed from scratch from all their folded rows, exactly as §14 reads them: the
 * first exposure per group by (created time, seq), then each goal hit in created order.
 */
export const ledgerOf = (
  exposures: readonly PersonExposure[],
  hits: readonly PersonGoalHit[],
): PersonLedger => {
  const ledger = emptyLedger();
  for (const exposure of [...exposures].sort(byCreated)) {
    const known = ledger.exposures.some(
      (e) => e.campaignId === exposure.campaignId && e.groupId === exposure.groupId,
    );
    if (!known) ledger.exposures.push({ ...exposure });
  }
  for (const hit of [...hits].sort(byCreated)) addGoalHit(ledger, hit);
  return ledger;
};

/**
 * Whether an activation leaves the person's contribution as it is: their group already has a first exposure
 * that comes before it. Otherwise (a first exposure in the group, or one older than the stored first) the
 * person is computed again.
 */
export const keepsLedger = (ledger: PersonLedger, activation: PersonExposure): boolean => {
  const first = ledger.exposures.find(
    (e) => e.campaignId === activation.campaignId && e.groupId === activation.groupId,
  );
  return first !== undefined && before(first, activation);
};

/** Adds (`sign` 1) or takes out (`sign` -1) a ledger's whole contribution. */
export const addLedger = (deltas: RollupDeltas, ledger: PersonLedger, sign: 1 | -1): void => {
  for (const e of ledger.exposures)
    deltas.add(variationCell(e.campaignId, e.groupId, e.variationId, ALL_DAYS), 'visitors', sign);
  for (const g of ledger.goals) {
    const cell = {
      ...variationCell(g.campaignId, g.groupId, g.variationId, ALL_DAYS),
      goalKind: g.kind,
      goal: g.goal,
    };
    deltas.add(cell, 'converters', sign);
    deltas.add(cell, 'revenueMicros', sign * g.revenueMicros);
    for (const [day, count] of Object.entries(g.days))
      deltas.add({ ...cell, day: Number(day) }, 'conversions', sign * count);
  }
  for (const s of ledger.seen)
    deltas.add(
      {
        campaignId: s.campaignId,
        groupId: '',
        variationId: '',
        goalKind: s.kind,
        goal: s.goal,
        day: ALL_DAYS,
      },
      'seen',
      sign,
    );
};

// Stored compactly (a person's row is written on each of their folds): arrays in a fixed order.
type StoredExposure = [string, string, string, number, number];
// The revenue per day came with migration 010: a ledger stored before it has seven elements.
type StoredGoal =
  | [string, string, string, string, string, number, Record<string, number>]
  | [string, string, string, string, string, number, Record<string, number>, Record<string, number>];
type StoredSeen = [string, string, string];

/** The stored (jsonb) form of a ledger. */
export interface StoredLedger {
  e: StoredExposure[];
  g: StoredGoal[];
  s: StoredSeen[];
}

/** A ledger in its stored form. */
export const storedLedger = (ledger: PersonLedger): StoredLedger => ({
  e: ledger.exposures.map((x) => [x.campaignId, x.groupId, x.variationId, x.createdMs, x.seq]),
  // Events carry no revenue: their goals stay seven elements long (a ledger is written on each fold).
  g: ledger.goals.map((x): StoredGoal => {
    const goal = [x.campaignId, x.groupId, x.variationId, x.kind, x.goal, x.revenueMicros, x.days] as const;
    return x.kind === 'transaction' ? [...goal, x.revenueDays] : [...goal];
  }),
  s: ledger.seen.map((x) => [x.campaignId, x.kind, x.goal]),
});

const goalKind = (kind: string): Exclude<RollupGoalKind, ''> =>
  kind === 'transaction' ? 'transaction' : 'event';

/**
 * The revenue per day of a ledger stored before it was kept (migration 010): spread over the days in
 * proportion to their conversions, in whole millionths that sum to the total. Exact when the transactions
 * were all of one amount, or all on one side of a retention horizon; an estimate otherwise.
 */
const spreadRevenue = (revenueMicros: number, days: Record<string, number>): Record<string, number> => {
  const entries = Object.entries(days);
  const conversions = entries.reduce((sum, [, count]) => sum + count, 0);
  const spread: Record<string, number> = {};
  if (revenueMicros === 0 || conversions === 0) return spread;
  let given = 0;
  entries.forEach(([day, count], i) => {
    const share =
      i === entries.length - 1 ? revenueMicros - given : Math.round((revenueMicros * count) / conversions);
    given += share;
    if (share !== 0) spread[day] = share;
  });
  return spread;
};

/** A ledger read back from its stored form (written by storedLedger only). */
export const readLedger = (stored: StoredLedger): PersonLedger => ({
  exposures: stored.e.map(([campaignId, groupId, variationId, createdMs, seq]) => ({
    campaignId,
    groupId,
    variationId,
    createdMs,
    seq,
  })),
  goals: stored.g.map(([campaignId, groupId, variationId, kind, goal, revenueMicros, days, revenueDays]) => ({
    campaignId,
    groupId,
    variationId,
    kind: goalKind(kind),
    goal,
    revenueMicros,
    days: { ...days },
    revenueDays: revenueDays === undefined ? spreadRevenue(revenueMicros, days) : { ...revenueDays },
  })),
  seen: stored.s.map(([campaignId, kind, goal]) => ({ campaignId, kind: goalKind(kind), goal })),
});
