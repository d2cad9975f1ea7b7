// The interface a <feature-provider> gives its subtree, and the @lit/context key it travels under. Elements
// and framework code reach a provider only through this: a DOM protocol (a bubbling, composed
// `context-request` event), so tags from separately loaded bundles still find each other.
import { createContext } from '@lit/context';
import type { ReadableAtom } from 'nanostores';
import type { FlagsSnapshot, FSSdkStatus, HitProtocol, VisitorFlagState } from '../core/index.js';

/** What an exposure reported: the flag and the variation the visitor saw. */
export interface ExposureDetail {
  /** The flag key. */
  key: string;
  /** The campaign of the variation. */
  campaignId: string;
  /** The variation group (the activation's `caid`). */
  variationGroupId: string;
  /** The variation seen. */
  variationId: string;
  /** Its name. */
  variationName: string;
}

/**
 * A provider's client: its visitor's state as nanostores atoms, and the few calls the elements make. The atoms
 * belong to the provider, not to one visitor, so they stay the same when the visitor is rebuilt (another
 * `visitor-id`) or the SDK restarts (another `env-id`): a framework binds them once.
 */
export interface FeatureClient {
  /** The visitor's current flags (server-rendered, kept or fetched); empty until some are known. */
  readonly $flags: ReadableAtom<FlagsSnapshot>;
  /**
   * True once the flags to show are settled: known from a bootstrap script, the page's copy, the visitor cache
   * or a fetch, or the provider's timeout passed (defaults are then shown). Before that, flags show nothing
   * wrong: their loading content, `aria-busy="true"`.
   */
  readonly $ready: ReadableAtom<boolean>;
  /** The visitor's flag status and fetch reason (SPEC.md). */
  readonly $flagStatus: ReadableAtom<VisitorFlagState>;
  /** The SDK status of the provider's own instance. */
  readonly $status: ReadableAtom<FSSdkStatus>;
  /** Whether the visitor consented: exposures and hits wait for it (nothing is sent without). */
  readonly $consent: ReadableAtom<boolean>;
  /**
   * Reports that the visitor saw `variationId` of flag `key` (read with `defaultValue`'s type). Waits for the
   * visitor when the SDK is still starting; reports nothing when the visitor's flag now holds another
   * variation (what was seen is gone), consent is false, or the types differ. Resolves with what was reported.
   */
  expose(key: string, defaultValue: unknown, variationId: string): Promise<ExposureDetail | null>;
  /**
   * Fetches the visitor's flags again, as a live update does (a page that knows of a change may call it);
   * resolves once they are applied. Flags whose variation changed re-render, and `feature-flags-change` says which.
   */
  fetchFlags(): Promise<void>;
  /** Sends a hit for the visitor (consent and validation as `visitor.sendHit`). */
  sendHit(hit: HitProtocol): Promise<void>;
  /** Sends a Screen hit for `location` once per page view and provider. */
  sendScreenOnce(location: string): Promise<void>;
}

/** The context key of `FeatureClient`. */
export const featureClientContext = createContext<FeatureClient | undefined>(Symbol.for('feature-ts.client'));
