import { ReactiveElement, type PropertyValues } from '@lit/reactive-element';
import { ClientController } from './client-controller.js';
import { numberProperty, textProperty, type PropertiesOf } from './element-properties.js';
import { reportOnce } from './events.js';
import { loadHitBuilders } from './load-hit-builders.js';

/** The part of `<feature-flag>` a hit inside it uses: found by tag, so this module does not import that class. */
interface ExposingFlag extends Element {
  reportExposure?: () => Promise<void>;
}

/**
 * Sends a hit for the provider's visitor, declaratively. `type="screen"` sends a Screen hit once per page view
 * (`location`, default the page's path). `type="event"` sends an Event hit on each DOM event named in `on`
 * (default `click`) from its content. Consent and validation are the SDK's: nothing is sent without consent,
 * and an invalid configuration is reported once, not per click.
 *
 * Inside a `<feature-flag>`, an interaction proves the variation was seen: the flag's exposure is reported
 * first (if it was not yet), then the hit, so the report credits the conversion to what the visitor saw.
 *
 * @summary Sends a Screen or Event hit from markup.
 * @attr {'screen' | 'event'} type - `screen` or `event` (default).
 * @attr {string} location - Screen: the screen name; default the page's path.
 * @attr {string} action - Event: the action, the goal's name in reports (required).
 * @attr {'action_tracking' | 'user_engagement'} category - Event: `action_tracking` (default) or `user_engagement`.
 * @attr {string} label - Event: a label.
 * @attr {number} value - Event: a non-negative integer value.
 * @attr {string} on - Event: the DOM events that send it, separated by spaces; default `click`.
 * @slot - The content whose events send the hit.
 * @fires {CustomEvent<FeatureErrorDetail>} feature-error - The hit's configuration is invalid (reported once).
 */
export class FeatureHit extends ReactiveElement {
  /** @internal The attribute-backed properties (lit's declarations), one entry per field below. */
  static override properties = {
    type: textProperty('type'),
    location: textProperty('location'),
    action: textProperty('action'),
    category: textProperty('category'),
    label: textProperty('label'),
    value: numberProperty('value'),
    on: textProperty('on'),
  } satisfies PropertiesOf<FeatureHit>;

  /** `screen` or `event` (default) (`type`). */
  declare type: string | null;
  /** Screen: the screen name (`location`). */
  declare location: string | null;
  /** Event: the action (`action`). */
  declare action: string | null;
  /** Event: `action_tracking` or `user_engagement` (`category`). */
  declare category: string | null;
  /** Event: a label (`label`). */
  declare label: string | null;
  /** Event: a non-negative integer (`value`). */
  declare value: number | undefined;
  /** Event: DOM event names, separated by spaces (`on`). */
  declare on: string | null;

  readonly #reported = new Set<string>();
  /** A screen waiting for consent is sent once it is given: the update that follows sends it. */
  readonly #client = new ClientController(this, ['$consent']);
  #listening: string[] = [];
  readonly #onEvent = (): void => void this.send();

  constructor() {
    super();
    this.type = this.location = this.action = this.category = this.label = this.on = null;
  }

  /** Sends the hit now (what an event in `on` does). Resolves once it is queued, or at once when invalid. */
  async send(): Promise<void> {
    const client = this.#client.value;
    if (client === undefined) return;
    if ((this.type ?? 'event') === 'screen') return client.sendScreenOnce(this.location ?? location.pathname);
    const { hit, problem } = (await loadHitBuilders()).eventHit(this);
    if (problem !== null) {
      reportOnce(this, this.#reported, 'invalid-hit', `no hit is sent: ${problem}.`);
      return;
    }
    const flag = this.closest('feature-flag') as ExposingFlag | null;
    // Not yet upgraded (its module not loaded): there is no exposure to report first.
    if (typeof flag?.reportExposure === 'function') await flag.reportExposure();
    await client.sendHit(hit);
  }

  /** Light DOM: the hit wraps the page's own content, which the page's CSS styles. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Listen again after a move (disconnecting stopped it).
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#listen([]);
  }

  /** Listens to the events in `on`, or sends the screen. */
  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    if (!this.isConnected) return;
    const type = this.type ?? 'event';
    if (type !== 'screen' && type !== 'event') {
      reportOnce(this, this.#reported, 'invalid-hit', `type="${type}" is not screen or event.`);
      this.#listen([]);
      return;
    }
    if (type === 'screen') {
      this.#listen([]);
      if (this.#client.value !== undefined) void this.send();
    } else this.#listen((this.on ?? 'click').split(/\s+/).filter((name) => name !== ''));
  }

  #listen(names: string[]): void {
    for (const name of this.#listening) this.removeEventListener(name, this.#onEvent);
    this.#listening = names;
    for (const name of names) this.addEventListener(name, this.#onEvent);
  }
}
