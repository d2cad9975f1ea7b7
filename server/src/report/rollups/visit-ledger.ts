// Visits of activations without an idempotency id (§14.1, visit-window.ts) for the rollups: one window chain
// per (vid, variation group, variation), kept with the visits it counted per day (table rollup_visit_windows).
// An activation created at or after the chain's last opening extends it in one step (`extendWindows`); one
// created earlier may reshape the chain, which is then computed again from the key's stored rows
// (`windowsOf`) and its old visits replaced.
import { dayOf } from '../attribution.js';
import { VISIT_WINDOW_MS } from '../visit-window.js';

/** The window chain of one (vid, variation group, variation). */
export interface VisitWindows {
  /** When the chain's last window opened. */
  openedMs: number;
  /** Visits counted per UTC day. */
  days: Record<string, number>;
}

/** An activation without an idempotency id, as the chain reads it. */
export interface WindowActivation {
  createdMs: number;
  seq: number;
}

const byCreated = (a: WindowActivation, b: WindowActivation): number =>
  a.createdMs - b.createdMs || a.seq - b.seq;

const count = (days: Record<string, number>, createdMs: number): void => {
  const day = String(dayOf(createdMs));
  days[day] = (days[day] ?? 0) + 1;
};

/** The chain of a key computed from all its activations (none: null). */
export const windowsOf = (activations: readonly WindowActivation[]): VisitWindows | null => {
  let chain: VisitWindows | null = null;
  for (const activation of [...activations].sort(byCreated)) {
    if (chain !== null && activation.createdMs < chain.openedMs + VISIT_WINDOW_MS) continue;
    chain ??= { openedMs: activation.createdMs, days: {} };
    chain.openedMs = activation.createdMs;
    count(chain.days, activation.createdMs);
  }
  return chain;
};

/**
 * Extends a key's chain with new activations (at least one); returns the chain and the visits it gained per
 * day, or 'recompute' when one of them was created before the chain's last opening (the key must be computed
 * again from all its rows).
 */
export const extendWindows = (
  chain: VisitWindows | null,
  activations: readonly WindowActivation[],
): { chain: VisitWindows; visits: Record<string, number> } | 'recompute' => {
  const next: VisitWindows | null =
    chain === null ? null : { openedMs: chain.openedMs, days: { ...chain.days } };
  const visits: Record<string, number> = {};
  let current = next;
  for (const activation of [...activations].sort(byCreated)) {
    if (current !== null && activation.createdMs < current.openedMs) return 'recompute';
    if (current !== null && activation.createdMs < current.openedMs + VISIT_WINDOW_MS) continue;
    current ??= { openedMs: activation.createdMs, days: {} };
    current.openedMs = activation.createdMs;
    count(current.days, activation.createdMs);
    count(visits, activation.createdMs);
  }
  if (current === null) throw new RangeError('extendWindows needs at least one activation');
  return { chain: current, visits };
};
