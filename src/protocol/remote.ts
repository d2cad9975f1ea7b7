import type { JsonValue } from './json.js';
import type { AnalysisSettings } from './report.js';

/** Campaign states (PROTOCOL.md §13.5); `interrupted` is final. */
export type CampaignState = 'active' | 'paused' | 'interrupted';

/** A targeting rule in the remote control API's snake_case form. */
export interface RemoteTargeting {
  key: string;
  operator: string;
  value: JsonValue;
}

/** A variation in the remote control API's form. */
export interface RemoteVariation {
  id: string;
  name: string;
  reference: boolean;
  allocation: number;
  modifications: { type: string; value: Record<string, JsonValue> };
}

/** A variation group in the remote control API's form. */
export interface RemoteVariationGroup {
  id: string;
  name: string;
  targeting: { targeting_groups: Array<{ targetings: RemoteTargeting[] }> };
  variations: RemoteVariation[];
}

/** A campaign in the remote control API's form (PROTOCOL.md §13.5). */
export interface RemoteCampaign {
  id: string;
  name: string;
  description: string;
  type: string;
  slug: string | null;
  state: CampaignState;
  variation_groups: RemoteVariationGroup[];
  bucket_ranges: Array<[number, number]>;
  /** The analysis settings (PROTOCOL.md §14.6), every field written: defaults fill what was never set. */
  analysis: AnalysisSettings;
  created_at: string;
  updated_at: string;
  /** Read-only, in the server's answers: what the platform's own SDKs would evaluate differently here. */
  compatibility?: Array<{ code: string; modes: string[]; path: string; message: string }>;
}

/** A page of a remote control listing. */
export interface RemotePage<T> {
  items: T[];
  current_items_count: number;
  current_page: number;
  total_count: number;
  items_per_page: number;
  last_page: number;
}
