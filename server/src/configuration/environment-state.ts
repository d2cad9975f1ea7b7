// What one server instance holds in memory per environment (issue 7): the compiled configuration the engine
// evaluates, the bucketing file and account settings as bytes with their ETag and Last-Modified, the API key
// digest, and the index of every variation the environment ever had (activations are checked against it).
import { createHash } from 'node:crypto';
import { compileFile, type CompiledFile } from 'feature-ts/engine';
import type { BucketingFile } from 'feature-ts/protocol';
import type { EnvironmentRecord } from '../store/account-store.js';
import type { EnvironmentConfiguration } from '../store/configuration-store.js';
import { withoutAnalysis } from '../validation/analysis-settings.js';

/** A served document: its bytes and strong ETag (identity encoding: the server does not compress). */
export interface ServedDocument {
  bytes: Buffer;
  etag: string;
}

/** The in-memory state of one environment. */
export interface EnvironmentState {
  environment: EnvironmentRecord;
  compiled: CompiledFile;
  bucketing: ServedDocument;
  accountSettings: ServedDocument;
  /** variation group id → variation id → campaign id, deleted campaigns included. */
  variationOwners: Map<string, Map<string, string>>;
  /** Reasons the engine gave for malformed parts, logged once per build. */
  reasons: string[];
  /**
   * Every flag key a variation of an active campaign sets, in campaign order, each once: what OFREP's bulk
   * answer lists as disabled in panic (§18), when the decision itself holds no campaign.
   */
  flagKeys: readonly string[];
}

/** The flag keys the campaigns' variations set, each once, in order. */
const flagKeysOf = (file: BucketingFile): string[] => {
  const keys = new Set<string>();
  for (const campaign of file.campaigns)
    for (const group of campaign.variationGroups)
      for (const variation of group.variations) {
        const value: unknown = variation.modifications.value;
        if (typeof value === 'object' && value !== null && !Array.isArray(value))
          for (const key of Object.keys(value)) keys.add(key);
      }
  return [...keys];
};

/** A JSON answer as served: its bytes and a strong ETag of them. */
export const servedDocument = (value: unknown): ServedDocument => {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8');
  return { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"` };
};

/** Builds an environment's in-memory state from its stored configuration. */
export const buildEnvironmentState = (configuration: EnvironmentConfiguration): EnvironmentState => {
  const { environment } = configuration;
  const file: BucketingFile = {
    panic: environment.panic,
    // A campaign's analysis settings (§14.6) are the report's: SDKs would only download them.
    campaigns: configuration.campaigns.map((c) => withoutAnalysis(c.body)),
    accountSettings: environment.accountSettings,
  };
  const compiled = compileFile(file);
  const variationOwners = new Map<string, Map<string, string>>();
  for (const owner of configuration.variations) {
    let group = variationOwners.get(owner.variationGroupId);
    if (group === undefined) {
      group = new Map();
      variationOwners.set(owner.variationGroupId, group);
    }
    group.set(owner.variationId, owner.campaignId);
  }
  return {
    environment,
    compiled,
    bucketing: servedDocument(file),
    accountSettings: servedDocument({ accountSettings: environment.accountSettings }),
    variationOwners,
    reasons: compiled.reasons.slice(),
    flagKeys: Object.freeze(flagKeysOf(file)),
  };
};
