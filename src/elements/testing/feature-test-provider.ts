import { ContextProvider } from '@lit/context';
import { ReactiveElement, type PropertyValues } from '@lit/reactive-element';
import { FSSdkStatus, type FlagsSnapshot, type HitProtocol } from '../../core/index.js';
import { changedKeys } from '../changed-keys.js';
import { featureClientContext, type ExposureDetail, type FeatureClient } from '../client-context.js';
import { booleanProperty, textProperty, type PropertiesOf } from '../element-properties.js';
import { emit, reportOnce } from '../events.js';
import { ForcedClient, type SentByPage } from './forced-client.js';
import { FORCED_VARIATION, forcedFlags, parseForcedValues, type ForcedValues } from '../forced-flags.js';

/** `feature-test-hit` detail: a hit the page sent (a test provider records it instead of sending it). */
export interface FeatureTestHitDetail {
  hit: HitProtocol;
}

declare global {
  interface HTMLElementEventMap {
    'feature-test-hit': CustomEvent<FeatureTestHitDetail>;
  }
  interface DocumentEventMap {
    'feature-test-hit': CustomEvent<FeatureTestHitDetail>;
  }
}

/**
 * The `<feature-provider>` of a page's own tests (`feature-ts/testing` registers it under that tag): it shows the
 * flags it is given and starts no SDK, so nothing is requested or sent, and no server is needed. The flags and
 * hits inside it are the real elements: they render the forced variation, and send `feature-change`,
 * `feature-exposed` (with `consent`, once seen, as on a live page) and `feature-error` as they would. The
 * provider sends `feature-status`, `feature-ready` (source `forced`), `feature-flags-change` when `flags`
 * changes, and `feature-test-hit` for each hit the page would have sent, which `hits` also keeps.
 * `env-id`, `api-key` and the other attributes of the live provider are accepted and ignored.
 */
export class FeatureTestProvider extends ReactiveElement {
  /** @internal The attribute-backed properties (lit's declarations), one entry per field below. */
  static override properties = {
    flags: { attribute: 'flags' },
    variation: textProperty('variation'),
    consent: booleanProperty('consent'),
    visitorId: textProperty('visitor-id'),
  } satisfies PropertiesOf<FeatureTestProvider>;

  /**
   * The forced flags: an object of flag key → value, or as the `flags` attribute gives it, a JSON object
   * (`{"headline":"B"}`) or `key:value` pairs (`headline:B,discount:10`). Null: no flag, every default shows.
   */
  declare flags: ForcedValues | string | null;
  /** The variation the forced flags belong to, by name and id (`variation`; default `forced`). */
  declare variation: string | null;
  /** Whether the visitor consented: without it, as on a live page, no exposure or hit is recorded. */
  declare consent: boolean;
  /** The visitor id `feature-ready` names (`visitor-id`; default `test-visitor`). */
  declare visitorId: string | null;

  readonly #sent: SentByPage[] = [];
  readonly #client = new ForcedClient((what) => {
    this.#sent.push(what);
    if ('hit' in what)
      this.dispatchEvent(
        new CustomEvent('feature-test-hit', { detail: what, bubbles: true, composed: true }),
      );
  });
  readonly #reported = new Set<string>();
  #started = false;

  constructor() {
    super();
    this.flags = this.variation = this.visitorId = null;
    this.consent = false;
    new ContextProvider(this, { context: featureClientContext, initialValue: this.#client });
  }

  /** The client the subtree uses, with the forced flags as `$flags`. */
  get client(): FeatureClient {
    return this.#client;
  }

  /** The hits the page sent so far, in order (Event and Screen hits, as `visitor.sendHit` takes them). */
  get hits(): readonly HitProtocol[] {
    return this.#sent.flatMap((what) => ('hit' in what ? [what.hit] : []));
  }

  /** The exposures the page reported so far, in order (each also sent as `feature-exposed` by its flag). */
  get exposures(): readonly ExposureDetail[] {
    return this.#sent.flatMap((what) => ('exposure' in what ? [what.exposure] : []));
  }

  /** Light DOM: the provider wraps the page's own content. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  /** Shows the forced flags; a change after the first sends `feature-flags-change` with the keys it changed. */
  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    this.#client.$consent.set((this.consent as unknown) === true);
    if (this.#started && !changed.has('flags') && !changed.has('variation')) return;
    const before = this.#client.$flags.get();
    const after = this.#forced();
    this.#client.$flags.set(after);
    if (!this.#started) {
      this.#started = true;
      emit(this, 'feature-status', { status: FSSdkStatus.SDK_INITIALIZED });
      emit(this, 'feature-ready', { visitorId: this.visitorId ?? 'test-visitor', source: 'forced' });
      return;
    }
    const keys = changedKeys(before, after);
    if (keys.length > 0) emit(this, 'feature-flags-change', { keys });
  }

  #forced(): FlagsSnapshot {
    const given = this.flags;
    let values: ForcedValues = {};
    if (typeof given === 'string') {
      const { values: parsed, problem } = parseForcedValues(given);
      if (problem === null) values = parsed;
      else reportOnce(this, this.#reported, 'invalid-attribute', `flags: ${problem}. No flag is forced.`);
    } else if (typeof given === 'object' && given !== null && !Array.isArray(given)) values = given;
    else if (given !== null)
      reportOnce(this, this.#reported, 'invalid-attribute', 'flags must be an object of flag key → value.');
    return forcedFlags(values, this.variation || FORCED_VARIATION);
  }
}
