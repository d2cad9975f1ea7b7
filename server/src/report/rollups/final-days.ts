// Days before the retention horizon are final (issue 31). Once FEATURE_RETENTION_DAYS has dropped the months
// before a horizon H (retention-sql.ts), a fold that computes a person or a visit window again from stored rows
// no longer sees the dropped ones, so its result would take their contribution out of the rollups. Instead:
// - the old ledger's contribution to days before H (UTC days of created time) is kept as it is, and the
//   stored rows count only for days from H on;
// - a first exposure in a group created before H stays the person's first exposure there: the rows that
//   could have come before it are gone, and it is what the days before H were counted with;
// - the figures that are not per day follow: a goal's converting visitor and revenue are those of the days
//   kept plus those of the days recomputed, and the goals seen are kept.
// So a late identity link, or a late exposure older than a person's stored first one, changes only days from
// H on. Rows that arrive after the drop with a created time before H, folded one step at a time (a goal hit of
// a person whose exposures are final), still add to their day: nothing there needs a dropped row.
import { dayOf } from '../attribution.js';
import {
  addGoalHit,
  emptyLedger,
  ledgerOf,
  type LedgerGoal,
  type PersonExposure,
  type PersonGoalHit,
  type PersonLedger,
} from './person-ledger.js';
import { windowsOf, type VisitWindows, type WindowActivation } from './visit-ledger.js';

const groupKey = (e: { campaignId: string; groupId: string }): string =>
  JSON.stringify([e.campaignId, e.groupId]);

const before = (days: Record<string, number>, firstDay: number): Record<string, number> =>
  Object.fromEntries(Object.entries(days).filter(([day]) => Number(day) < firstDay));

const sum = (days: Record<string, number>): number =>
  Object.values(days).reduce((total, value) => total + value, 0);

/**
 * A person's ledger computed again from their stored rows (`exposures`, `hits`) after a retention horizon
 * `horizonMs` (0: none, and this is `ledgerOf`), given the ledger stored before (`old`): the days before the
 * horizon and the first exposures before it are the old ledger's, the rest is computed from the rows.
 */
export const ledgerAfterHorizon = (
  old: PersonLedger | undefined,
  exposures: readonly PersonExposure[],
  hits: readonly PersonGoalHit[],
  horizonMs: number,
): PersonLedger => {
  if (horizonMs <= 0) return ledgerOf(exposures, hits);
  const previous = old ?? emptyLedger();
  const firstDay = dayOf(horizonMs);
  const computed = ledgerOf(exposures, []);
  const kept = new Map(
    previous.exposures.filter((e) => e.createdMs < horizonMs).map((e) => [groupKey(e), e] as const),
  );
  const ledger = emptyLedger();
  for (const exposure of previous.exposures)
    if (kept.has(groupKey(exposure))) ledger.exposures.push({ ...exposure });
  for (const exposure of computed.exposures)
    if (!kept.has(groupKey(exposure))) ledger.exposures.push({ ...exposure });
  // The old days of goals whose group the person is still exposed in (a first exposure before H always is).
  const groups = new Set(ledger.exposures.map(groupKey));
  for (const goal of previous.goals) {
    if (!groups.has(groupKey(goal))) continue;
    const days = before(goal.days, firstDay);
    if (sum(days) === 0) continue;
    const revenueDays = before(goal.revenueDays, firstDay);
    const kept: LedgerGoal = { ...goal, days, revenueDays, revenueMicros: sum(revenueDays) };
    ledger.goals.push(kept);
  }
  // The goals seen stay seen (they show a goal's row in the report), in the campaigns still exposed.
  const campaigns = new Set(ledger.exposures.map((e) => e.campaignId));
  for (const seen of previous.seen) if (campaigns.has(seen.campaignId)) ledger.seen.push({ ...seen });
  // The stored goal hits from H on, over the merged first exposures: addGoalHit adds to a kept goal of the
  // same variation, or starts one.
  const sorted = [...hits].sort((a, b) => a.createdMs - b.createdMs || a.seq - b.seq);
  for (const hit of sorted) if (dayOf(hit.createdMs) >= firstDay) addGoalHit(ledger, hit);
  return ledger;
};

/**
 * A visit window chain computed again from a key's stored activations after a retention horizon `horizonMs`
 * (0: none, and this is `windowsOf`), given the chain stored before (`old`): visits of days before the
 * horizon are the old chain's, those from it on the stored rows'.
 */
export const windowsAfterHorizon = (
  old: VisitWindows | null,
  activations: readonly WindowActivation[],
  horizonMs: number,
): VisitWindows | null => {
  const computed = windowsOf(activations);
  if (horizonMs <= 0) return computed;
  const firstDay = dayOf(horizonMs);
  const days = {
    ...before(old?.days ?? {}, firstDay),
    ...Object.fromEntries(Object.entries(computed?.days ?? {}).filter(([day]) => Number(day) >= firstDay)),
  };
  if (Object.keys(days).length === 0) return null;
  // The last window's opening is the rows' when any remain; else the old chain's (it opened before H).
  const openedMs = computed?.openedMs ?? old?.openedMs ?? horizonMs;
  return { openedMs, days };
};
