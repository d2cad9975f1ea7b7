// The time rules every report figure shares (PROTOCOL.md §14.4 and the daily series): the reference
// computation (reference-tally.ts) and the rollups (rollups/) read them from here, so the two cannot drift.

/** A hit created up to this long before the exposure still counts (§14.4: clock and queue jitter). */
export const ATTRIBUTION_SLACK_MS = 1000;

/** The length of a UTC day: day numbers are epoch milliseconds divided by it, rounded down. */
export const DAY_MS = 86_400_000;

/** The UTC day number of an epoch time. */
export const dayOf = (epochMs: number): number => Math.floor(epochMs / DAY_MS);

/** Whether a hit created at `hitMs` counts for an exposure created at `exposedMs` (§14.4). */
export const isAttributed = (exposedMs: number, hitMs: number): boolean =>
  exposedMs <= hitMs + ATTRIBUTION_SLACK_MS;
