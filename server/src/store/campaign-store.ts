// Campaigns as stored (§13.5): an environment's ordered list, edited one at a time (the remote control API,
// the console) or replaced whole (an import). Each write publishes the environment's new configuration.
import type { BucketingCampaign } from 'feature-ts/protocol';

/** Campaign states (§13.5). */
export type CampaignState = 'active' | 'paused' | 'interrupted';

/** A stored campaign: its bucketing-format body, order, state and tombstone. */
export interface CampaignRecord {
  id: string;
  position: number;
  state: CampaignState;
  description: string;
  body: BucketingCampaign;
  createdMs: number;
  updatedMs: number;
  /** Set when the campaign is deleted; the row stays for reporting. */
  deletedMs: number | null;
}

/** What a campaign is stored with beside its bucketing-format body. */
export interface CampaignOptions {
  description: string;
  state: CampaignState;
}

/** The store's campaigns. */
export interface CampaignStore {
  /**
   * Replaces the environment's campaigns with `campaigns` in that order (an import, §13.9); campaigns not
   * in the list become tombstones. Throws IdConflictError when an id belongs to another object.
   */
  replaceCampaigns(envId: string, campaigns: BucketingCampaign[]): Promise<number>;
  setCampaignState(envId: string, campaignId: string, state: CampaignState): Promise<void>;
  listCampaigns(envId: string, options?: { includeDeleted?: boolean }): Promise<CampaignRecord[]>;
  /** A campaign that is not deleted; null when unknown or deleted. */
  getCampaign(envId: string, campaignId: string): Promise<CampaignRecord | null>;
  /**
   * Adds a campaign after the others (§13.5). Throws IdConflictError when its id, a group's or a variation's
   * id belongs to another object of the environment (deleted campaigns included), or its slug is taken.
   */
  createCampaign(
    envId: string,
    campaign: BucketingCampaign,
    options: CampaignOptions,
  ): Promise<CampaignRecord>;
  /**
   * Replaces a campaign's body and description, keeping its state; with `position`, moves it there (0 is
   * first; past the end is last). Same conflicts as createCampaign; InputError when the campaign is unknown.
   */
  updateCampaign(
    envId: string,
    campaignId: string,
    campaign: BucketingCampaign,
    options: { description: string; position?: number },
  ): Promise<CampaignRecord>;
  /** Deletes a campaign (a tombstone, kept for reports); false when unknown or already deleted. */
  deleteCampaign(envId: string, campaignId: string): Promise<boolean>;
}
