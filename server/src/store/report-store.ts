// What a campaign report reads (§14): the rollups, folded from the stored rows (rollups/), and the stored rows
// themselves for the reference tally; and the folds' own controls for the CLI (report --rebuild, upgrades).
import type { CampaignRollups } from './rollups/rollups-sql.js';

/** An activation as the report reads it, with its person resolved (§14.2). */
export interface ReportExposure {
  person: string;
  /** The activation's `vid` and idempotency id: §14.1 counts activations without one once per window. */
  visitorId: string;
  hid: string | null;
  variationGroupId: string;
  variationId: string;
  createdMs: number;
  seq: number;
}

/** A goal hit of an exposed person, as the report reads it. */
export interface ReportConversion {
  person: string;
  kind: 'EVENT' | 'TRANSACTION';
  goal: string;
  revenue: number;
  createdMs: number;
}

/** The store's report reads and rollup folds. */
export interface ReportStore {
  /** Activations of a campaign, persons resolved (§14.2). */
  reportExposures(envId: string, campaignId: string): Promise<ReportExposure[]>;
  /** Goal hits (EVENT and TRANSACTION, reserved actions excluded) of persons exposed to the campaign. */
  reportConversions(envId: string, campaignId: string): Promise<ReportConversion[]>;
  /**
   * A campaign's report rollups (issue 31) with every row stored before the call folded in: a few cells per
   * variation, goal and day, whatever the history's length.
   */
  campaignRollups(envId: string, campaignId: string): Promise<CampaignRollups>;
  /** The revision of a campaign's rollups, every row stored before the call folded in (the report's ETag). */
  campaignRollupRevision(envId: string, campaignId: string): Promise<number>;
  /** Folds every waiting row of every environment; `onProgress` hears the count folded so far. */
  drainRollups(onProgress?: (folded: number) => void): Promise<number>;
  /** Vacuums and analyzes the rollup tables (after a backfill or a rebuild). */
  tidyRollups(): Promise<void>;
  /** How many stored rows wait to be folded into the rollups. */
  pendingRollupCount(): Promise<number>;
  /** Forgets the rollups and marks every stored row to be folded again (report --rebuild); returns how many. */
  resetRollups(): Promise<number>;
}
