// What an instance serves an environment from (§2.5): its configuration, rebuilt in memory on every change
// it hears of, and the stamps that catch a missed notification (configuration/environment-cache.ts).
import type { EnvironmentRecord } from './account-store.js';
import type { CampaignRecord } from './campaign-store.js';
import type { ListenInterruption } from './sql/sql.js';

/** Which campaign and variation group a variation belongs (or belonged) to. */
export interface VariationOwner {
  variationGroupId: string;
  variationId: string;
  campaignId: string;
}

/** The parts of an environment row that change with every publication (§2.5) or key rotation. */
export interface ConfigurationStamp {
  id: string;
  configTime: number;
  apiKeyDigest: Uint8Array;
}

/** Everything needed to serve one environment: rebuilt in memory on every change. */
export interface EnvironmentConfiguration {
  environment: EnvironmentRecord;
  /** Active, not deleted, in stored order. */
  campaigns: CampaignRecord[];
  /** Every variation the environment ever had, deleted campaigns' included. */
  variations: VariationOwner[];
}

/** The store's environment configurations and their change notifications. */
export interface ConfigurationStore {
  /** What the in-memory configuration of an environment is built from; null for an unknown one. */
  loadConfiguration(envId: string): Promise<EnvironmentConfiguration | null>;
  /**
   * Subscribes to configuration changes of any environment (from any process on the same database).
   * Changes made while the subscription is interrupted are not reported: `onInterruption` hears of the break.
   */
  onConfigurationChange(
    listener: (envId: string) => void,
    onInterruption?: (event: ListenInterruption) => void,
  ): Promise<() => Promise<void>>;
  /** What identifies the served version of each environment: a cheap check for missed notifications. */
  configurationStamps(envIds: readonly string[]): Promise<ConfigurationStamp[]>;
  /**
   * The environment whose API key has this SHA-256 digest, or null. Keys are 32 random bytes, so a key names
   * one environment (OFREP, PROTOCOL.md §18, authenticates by the key alone).
   */
  environmentIdByKeyDigest(apiKeyDigest: Uint8Array): Promise<string | null>;
}
