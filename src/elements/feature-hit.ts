import { ContextConsumer } from '@lit/context';
import { Event as EventHit, EventCategory } from '../core/index.js';
import { featureClientContext, type FeatureClient } from './client-context.js';
import { reportOnce } from './events.js';
import { FeatureElement } from './feature-element.js';

const CATEGORIES: Record<string, EventCategory> = {
  action_tracking: EventCategory.Action_Tracking,
  user_engagement: EventCategory.User_Engagement,
};

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
 * @attr type - `screen` or `event` (default).
 * @attr location - Screen: the screen name; default the page's path.
 * @attr action - Event: the action, the goal's name in reports (required).
 * @attr category - Event: `action_tracking` (default) or `user_engagement`.
 * @attr label - Event: a label.
 * @attr value - Event: a non-negative integer value.
 * @attr on - Event: the DOM events that send it, separated by spaces; default `click`.
 * @slot - The content whose events send the hit.
 * @fires {CustomEvent<FeatureErrorDetail>} feature-error - The hit's configuration is invalid (reported once).
 */
export class FeatureHit extends FeatureElement {
  static readonly observedAttributes = ['type', 'location', 'action', 'category', 'label', 'value', 'on'];

  /** `screen` or `event` (default) (`type`). */
  get type(): string | null {
    return this.getAttribute('type');
  }
  set type(value: string | null) {
    this.setText('type', value);
  }

  /** Screen: the screen name (`location`). */
  get location(): string | null {
    return this.getAttribute('location');
  }
  set location(value: string | null) {
    this.setText('location', value);
  }

  /** Event: the action (`action`). */
  get action(): string | null {
    return this.getAttribute('action');
  }
  set action(value: string | null) {
    this.setText('action', value);
  }

  /** Event: `action_tracking` or `user_engagement` (`category`). */
  get category(): string | null {
    return this.getAttribute('category');
  }
  set category(value: string | null) {
    this.setText('category', value);
  }

  /** Event: a label (`label`). */
  get label(): string | null {
    return this.getAttribute('label');
  }
  set label(value: string | null) {
    this.setText('label', value);
  }

  /** Event: DOM event names, separated by spaces (`on`). */
  get on(): string | null {
    return this.getAttribute('on');
  }
  set on(value: string | null) {
    this.setText('on', value);
  }

  /** Event: a non-negative integer (`value`). */
  get value(): number | undefined {
    return this.numberOf('value');
  }
  set value(value: number | undefined) {
    this.setText('value', value);
  }

  readonly #reported = new Set<string>();
  #client: FeatureClient | undefined;
  #listening: string[] = [];
  readonly #onEvent = (): void => void this.send();

  constructor() {
    super();
    new ContextConsumer(this, {
      context: featureClientContext,
      subscribe: true,
      callback: (client) => {
        this.#client = client;
        this.requestUpdate();
      },
    });
  }

  /** Sends the hit now (what an event in `on` does). Resolves once it is queued, or at once when invalid. */
  async send(): Promise<void> {
    const client = this.#client;
    if (client === undefined) return;
    if ((this.type ?? 'event') === 'screen') return client.sendScreenOnce(this.location ?? location.pathname);
    const category = CATEGORIES[this.category ?? 'action_tracking'];
    const hit = new EventHit({
      category: category ?? EventCategory.Action_Tracking,
      action: this.action ?? '',
      ...(this.label === null ? {} : { label: this.label }),
      ...(this.value === undefined ? {} : { value: this.value }),
    });
    const problem =
      category === undefined
        ? `category="${this.category ?? ''}" is not action_tracking or user_engagement`
        : hit.validate();
    if (problem !== null) {
      reportOnce(this, this.#reported, 'invalid-hit', `no hit is sent: ${problem}.`);
      return;
    }
    const flag = this.closest('feature-flag') as ExposingFlag | null;
    // Not yet upgraded (its module not loaded): there is no exposure to report first.
    if (typeof flag?.reportExposure === 'function') await flag.reportExposure();
    await client.sendHit(hit);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#listen([]);
  }

  protected update(): void {
    const type = this.type ?? 'event';
    if (type !== 'screen' && type !== 'event') {
      reportOnce(this, this.#reported, 'invalid-hit', `type="${type}" is not screen or event.`);
      this.#listen([]);
      return;
    }
    if (type === 'screen') {
      this.#listen([]);
      if (this.#client !== undefined) void this.send();
    } else this.#listen((this.on ?? 'click').split(/\s+/).filter((name) => name !== ''));
  }

  #listen(names: string[]): void {
    for (const name of this.#listening) this.removeEventListener(name, this.#onEvent);
    this.#listening = names;
    for (const name of names) this.addEventListener(name, this.#onEvent);
  }
}
