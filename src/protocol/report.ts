/** Figures of one goal for one variation (PROTOCOL.md §14.5). */
export interface GoalFigures {
  conversions: number;
  visitors: number;
  rate: number;
  uplift: number | null;
  p_value: number | null;
  ci95: [number, number] | null;
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

/** A campaign report (PROTOCOL.md §14.5). */
export interface CampaignReport {
  campaign_id: string;
  generated_at: string;
  variation_groups: Array<{ id: string; variations: VariationReport[] }>;
}
