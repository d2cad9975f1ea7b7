/** A campaign's primary goal (PROTOCOL.md §14.6): an event action or a transaction affiliation. */
export interface PrimaryGoal {
  type: 'event' | 'transaction';
  name: string;
}

/** How the report decides its verdicts (PROTOCOL.md §14.6). */
export type AnalysisMethod = 'sequential' | 'fixed';

/** A campaign's analysis settings (PROTOCOL.md §14.6); absent fields take {@link ANALYSIS_DEFAULTS}. */
export interface AnalysisSettings {
  primary_goal: PrimaryGoal | null;
  method: AnalysisMethod;
  alpha: number;
  expected_visitors: number;
}

/** The settings a campaign without `analysis` reads with (PROTOCOL.md §14.6). */
export const ANALYSIS_DEFAULTS: Readonly<AnalysisSettings> = Object.freeze({
  primary_goal: null,
  method: 'sequential',
  alpha: 0.05,
  expected_visitors: 5000,
});

/** The bounds of the analysis settings (PROTOCOL.md §14.6). */
export const ANALYSIS_LIMITS = {
  minAlpha: 0.001,
  maxAlpha: 0.2,
  minExpectedVisitors: 100,
  maxExpectedVisitors: 100_000_000,
} as const;

/** Verdicts of PROTOCOL.md §14.8, decided by the server. */
export const VERDICTS = [
  'reference',
  'exploratory',
  'sample_ratio_mismatch',
  'not_enough_data',
  'better',
  'worse',
  'inconclusive',
] as const;

/** One verdict (PROTOCOL.md §14.8). */
export type Verdict = (typeof VERDICTS)[number];

/** The always-valid figures of a comparison (PROTOCOL.md §14.7); null where §14.5's are. */
export interface SequentialFigures {
  p_value: number | null;
  interval: [number, number] | null;
  adjusted_p_value: number | null;
}

/** Figures of one goal for one variation (PROTOCOL.md §14.5, §14.7, §14.8). */
export interface GoalFigures {
  conversions: number;
  visitors: number;
  rate: number;
  uplift: number | null;
  /** Fixed-horizon: valid only when read once, at a sample size fixed in advance. */
  p_value: number | null;
  /** Fixed-horizon, as `p_value`. */
  ci95: [number, number] | null;
  /** Valid however often the report is read. */
  sequential: SequentialFigures;
  verdict: Verdict;
}

/** Figures of one transaction goal: adds revenue. */
export interface TransactionGoalFigures extends GoalFigures {
  revenue: number;
}

/** One variation's row of a campaign report. */
export interface VariationReport {
  id: string;
  name: string;
  reference: boolean;
  visits: number;
  visitors: number;
  events: Record<string, GoalFigures>;
  transactions: Record<string, TransactionGoalFigures>;
}

/** The sample-ratio test of a variation group (PROTOCOL.md §14.8). */
export interface SampleRatio {
  p_value: number;
  mismatch: boolean;
  expected: number[];
  observed: number[];
}

/** One variation group of a report. */
export interface VariationGroupReport {
  id: string;
  /** Null below 2 allocated variations or 100 visitors. */
  srm: SampleRatio | null;
  variations: VariationReport[];
}

/** A campaign report (PROTOCOL.md §14.5-§14.8). */
export interface CampaignReport {
  campaign_id: string;
  generated_at: string;
  /** The analysis settings in force, defaults filled in. */
  analysis: AnalysisSettings;
  variation_groups: VariationGroupReport[];
}
