// The test provider's client: forced flags and no SDK (no instance, no visitor, no request). The flags inside it
// render the forced variation exactly as a fetched one (templates, types, defaults, `feature-change`); what the
// page would send (an exposure, a hit) goes to `sent`, which the test provider records.
import { atom } from 'nanostores';
import {
  FetchFlagsRequiredStatusReason,
  FlagStatus,
  FSSdkStatus,
  type FlagsSnapshot,
  type HitProtocol,
  type VisitorFlagState,
} from '../../core/index.js';
import type { ExposureDetail, FeatureClient } from '../client-context.js';
import { loadHitBuilders } from '../load-hit-builders.js';

/** What a forced client would have sent: an exposure, or a hit. */
export type SentByPage = { exposure: ExposureDetail } | { hit: HitProtocol };

/** A `FeatureClient` that shows forced flags and sends nothing. */
export class ForcedClient implements FeatureClient {
  readonly $flags = atom<FlagsSnapshot>(new Map());
  readonly $ready = atom(true);
  readonly $flagStatus = atom<VisitorFlagState>({
    status: FlagStatus.FETCHED,
    reason: FetchFlagsRequiredStatusReason.NONE,
  });
  readonly $status = atom<FSSdkStatus>(FSSdkStatus.SDK_INITIALIZED);
  readonly $consent = atom(false);
  readonly #screens = new Set<string>();

  /** `sent` hears each exposure and hit the page would have sent (with consent, as a real client). */
  constructor(private readonly sent: (what: SentByPage) => void) {}

  expose(key: string, _defaultValue: unknown, variationId: string): Promise<ExposureDetail | null> {
    const flag = this.$flags.get().get(key);
    // As the real client: only the variation still shown, and only with consent.
    if (flag?.metadata.variationId !== variationId || !this.$consent.get()) return Promise.resolve(null);
    const { campaignId, variationGroupId, variationName } = flag.metadata;
    const exposure = { key, campaignId, variationGroupId, variationId, variationName };
    this.sent({ exposure });
    return Promise.resolve(exposure);
  }

  /** Nothing to fetch: the flags are the forced ones. */
  fetchFlags(): Promise<void> {
    return Promise.resolve();
  }

  sendHit(hit: HitProtocol): Promise<void> {
    if (this.$consent.get()) this.sent({ hit });
    return Promise.resolve();
  }

  async sendScreenOnce(location: string): Promise<void> {
    if (!this.$consent.get() || this.#screens.has(location)) return;
    this.#screens.add(location);
    this.sent({ hit: (await loadHitBuilders()).screenHit(location) });
  }
}
