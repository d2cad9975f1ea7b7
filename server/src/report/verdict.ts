// The verdict of one variation on one goal (PROTOCOL.md §14.8), decided here so that the console, the CLI and
// the remote control API always say the same thing.
import type { AnalysisSettings, Verdict } from 'feature-ts/protocol';
import type { Proportion } from './statistics.js';

/** Fewer visitors than this on either side: not enough data. */
export const MIN_VISITORS = 100;
/** Fewer converting, or non-converting, visitors than this on either side: not enough data. */
export const MIN_OUTCOMES = 10;

/** What a verdict is drawn from. */
export interface VerdictInput {
  /** The variation is its group's reference. */
  reference: boolean;
  /** The goal is the campaign's primary goal. */
  primary: boolean;
  /** The group's split is mismatched (§14.8). */
  sampleRatioMismatch: boolean;
  referenceSide: Proportion;
  variationSide: Proportion;
  /** The fixed-horizon p-value (§14.5). */
  fixedPValue: number | null;
  /** The Holm-adjusted sequential p-value (§14.7). */
  adjustedSequentialPValue: number | null;
  settings: AnalysisSettings;
}

const tooFew = ({ successes, trials }: Proportion): boolean =>
  trials < MIN_VISITORS || successes < MIN_OUTCOMES || trials - successes < MIN_OUTCOMES;

/** The verdict of §14.8's table, read top to bottom. */
export const verdictOf = (input: VerdictInput): Verdict => {
  if (input.reference) return 'reference';
  if (!input.primary) return 'exploratory';
  if (input.sampleRatioMismatch) return 'sample_ratio_mismatch';
  if (tooFew(input.referenceSide) || tooFew(input.variationSide)) return 'not_enough_data';
  const p = input.settings.method === 'sequential' ? input.adjustedSequentialPValue : input.fixedPValue;
  if (p === null || !(p < input.settings.alpha)) return 'inconclusive';
  const difference =
    input.variationSide.successes / input.variationSide.trials -
    input.referenceSide.successes / input.referenceSide.trials;
  return difference > 0 ? 'better' : difference < 0 ? 'worse' : 'inconclusive';
};
