// The time rules every report figure shares (PROTOCOL.md §14.4 and the daily series): the reference
// computation (reference-tally.ts) and the rollups (rollups/) read them from here, so the two cannot drift.

/** A hit created up to this long before the exposure still counts (§14.4: clock and queue jitter). */
export const ATTRIBUTION_SLACK_MS = 1000;

/** The length of a UTC day: day numbers are epoch milliseconds divided by it, rounded down. */
export const DAY_MS = 86_400_000;

/** The UTC day number of an epoch time. */
export const dayOf = (epochMs: number): number => Math.floor(epochMs / DAY_MS);

/**
 * Revenue in millionths of the currency unit: sums of these are exact, so a person moved out of a variation
 * takes out exactly what they put in, and the same rows always add up to the same figure, whatever order they
 * were summed in (a `tr` with more than six decimals is rounded to the millionth).
 */
export const toMicros = (revenue: number): number => Math.round(revenue * 1_000_000);

/** Millionths back to the currency unit. */
export const fromMicros = (micros: number): number => micros / 1_000_000;

/** Whether a hit created at `hitMs` counts for an exposure created at `exposedMs` (§14.4). */
export const isAttributed = (exposedMs: number, hitMs: number): boolean =>
  exposedMs <= hitMs + ATTRIBUTION_SLACK_MS;
