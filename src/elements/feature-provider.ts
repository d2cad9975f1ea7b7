import { ContextProvider } from '@lit/context';
import { ReactiveElement, type PropertyValues } from '@lit/reactive-element';
import { CacheMode, Level, Mode, type Decision, type FSSdkStatus } from '../core/index.js';
import { featureClientContext, type FeatureClient } from './client-context.js';
import { emit, reportOnce, type FeatureErrorReason } from './events.js';
import {
  booleanProperty,
  numberOf,
  numberProperty,
  textProperty,
  type PropertiesOf,
} from './element-properties.js';
import { pageVisitorId } from './page-storage.js';
import { ProviderClient } from './provider-client.js';
import { loadQaForcing } from './load-qa-forcing.js';
import { LEVELS, sdkOrigin, type SdkSettings, type VisitorSettings } from './provider-settings.js';

/** Properties whose change restarts the SDK (the others update the visitor). */
const SDK_PROPERTIES = [
  'envId',
  'apiKey',
  'apiUrl',
  'mode',
  'timeout',
  'pollingInterval',
  'logLevel',
  'live',
  'cacheMode',
] as const satisfies ReadonlyArray<keyof FeatureProvider>;

/** JSON text as a value, or null when it does not parse. */
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/**
 * Starts an SDK instance of its own for its subtree: builds the visitor, fetches its flags and provides them to
 * the `<feature-flag>` and `<feature-hit>` elements inside it (through `@lit/context`). Nested providers are
 * independent. A `<script type="application/json">` child holding a decision body (PROTOCOL.md §3) is shown at
 * once, before any request: a server renders it into the page with one decision call.
 *
 * @summary Runs the SDK for the flags and hits inside it.
 * @attr {string} env-id - The environment id (required).
 * @attr {string} api-key - The environment's API key (required).
 * @attr {string} api-url - The server's base URL; default: the origin `/sdk/` was loaded from, else the page's origin.
 * @attr {'api' | 'bucketing'} mode - `api` (default: one decision request per fetch) or `bucketing` (local assignment from the bucketing file).
 * @attr {string} visitor-id - The visitor id; absent: a random id kept in the page's storage, so a reload is the same visitor.
 * @attr {boolean} consent - Present when the visitor consented to tracking; without it no exposure or hit is sent.
 * @attr {boolean} authenticated - Present when `visitor-id` is a signed-in id: setting both follows `authenticate`, removing both `unauthenticate`.
 * @attr {string} context - The visitor context as a JSON object of strings, numbers and booleans (the `context` property takes an object).
 * @attr {number} timeout - Milliseconds to wait for flags before showing defaults; default 2000.
 * @attr {number} polling-interval - Bucketing mode: seconds between bucketing file checks; default 60.
 * @attr {'none' | 'error' | 'warning' | 'info' | 'debug' | 'all'} log-level - SDK log level: `none`, `error`, `warning` (default), `info`, `debug` or `all`.
 * @attr {'on' | 'off'} live - `on` (default: a change made in the console reaches the page as it is made) or `off`.
 * @attr {'local-cache-first' | 'network-first' | 'disabled'} cache-mode - What a returning visitor sees first: `local-cache-first` (default), `network-first` or `disabled` (README: Cache modes).
 * @attr {boolean} qa - Present to let a page URL with `?feature-qa=key:value,…` force flags for that page view: nothing is then sent (README: QA on a live site).
 * @slot - The page content that uses the flags.
 * @fires {CustomEvent<FeatureReadyDetail>} feature-ready - The visitor's flags are settled (from the bootstrap, a cache, a fetch, or the timeout).
 * @fires {CustomEvent<FeatureStatusDetail>} feature-status - The SDK status changed.
 * @fires {CustomEvent<FeatureFlagsChangeDetail>} feature-flags-change - The visitor's flags were fetched again (a live update, another context) and the flags of `keys` changed.
 * @fires {CustomEvent<FeatureErrorDetail>} feature-error - A missing or wrong attribute, or the SDK could not start; the page keeps its defaults.
 */
export class FeatureProvider extends ReactiveElement {
  /** @internal The attribute-backed properties (lit's declarations), one entry per field below. */
  static override properties = {
    envId: textProperty('env-id'),
    apiKey: textProperty('api-key'),
    apiUrl: textProperty('api-url'),
    mode: textProperty('mode'),
    visitorId: textProperty('visitor-id'),
    consent: booleanProperty('consent'),
    authenticated: booleanProperty('authenticated'),
    timeout: numberProperty('timeout'),
    pollingInterval: numberProperty('polling-interval'),
    logLevel: textProperty('log-level'),
    live: textProperty('live'),
    cacheMode: textProperty('cache-mode'),
    qa: booleanProperty('qa'),
    // Not written back: an object set by a script stays a property, the attribute is the page's JSON.
    context: {
      attribute: 'context',
      converter: { fromAttribute: (text: string | null) => (text === null ? {} : parseJson(text)) },
    },
  } satisfies PropertiesOf<FeatureProvider>;

  /** The environment id (`env-id`). */
  declare envId: string | null;
  /** The environment's API key (`api-key`). */
  declare apiKey: string | null;
  /** The server's base URL (`api-url`). */
  declare apiUrl: string | null;
  /** `api` or `bucketing` (`mode`). */
  declare mode: string | null;
  /** The visitor id (`visitor-id`; null: a random id kept in the page's storage). */
  declare visitorId: string | null;
  /** Whether the visitor consented to tracking (`consent`). */
  declare consent: boolean;
  /** Whether `visitorId` is a signed-in id (`authenticated`). */
  declare authenticated: boolean;
  /** Milliseconds to wait for flags before showing defaults (`timeout`). */
  declare timeout: number | undefined;
  /** Bucketing mode: seconds between bucketing file checks (`polling-interval`). */
  declare pollingInterval: number | undefined;
  /** SDK log level name (`log-level`). */
  declare logLevel: string | null;
  /** `on` (null: on) or `off` (`live`). */
  declare live: string | null;
  /** `local-cache-first` (null: the default), `network-first` or `disabled` (`cache-mode`). */
  declare cacheMode: string | null;
  /** Whether a page URL with `?feature-qa=…` may force flags (`qa`). */
  declare qa: boolean;

  /**
   * The visitor context: an object (the `context` attribute holds it as JSON; null when that does not parse).
   */
  declare context: unknown;

  readonly #reported = new Set<string>();
  readonly #client = new ProviderClient({
    ready: (detail) => emit(this, 'feature-ready', detail),
    status: (status: FSSdkStatus) => emit(this, 'feature-status', { status }),
    failed: (message) => this.#problem('start-failed', message),
    changed: (keys) => emit(this, 'feature-flags-change', { keys }),
  });
  /** QA forcing asked for this page view: the SDK never starts (qa-forcing.ts). */
  #forcing = false;
  #started = false;
  #closing: ReturnType<typeof setTimeout> | undefined;
  #missing: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.envId = this.apiKey = this.apiUrl = this.mode = this.visitorId = this.logLevel = null;
    this.live = this.cacheMode = null;
    this.consent = this.authenticated = this.qa = false;
    this.context = {};
    // Provided from construction on, so flags inside that upgrade in the same task find it.
    new ContextProvider(this, { context: featureClientContext, initialValue: this.#client });
  }

  /** The client the subtree uses: the visitor's atoms (`$flags`, `$flagStatus`, `$status`, `$ready`). */
  get client(): FeatureClient {
    return this.#client;
  }

  /** Light DOM: the provider wraps the page's own content. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moving the element (disconnect then connect in one task) keeps its SDK running; after a longer absence
    // the update starts it again.
    clearTimeout(this.#closing);
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#closing = setTimeout(() => {
      this.#started = false;
      void this.#client.close();
    });
  }

  /** Starts the SDK, restarts it when an SDK property changed, else updates the visitor. */
  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    if (!this.isConnected) return;
    // QA forcing (qa-forcing.ts; asked by ?feature-qa itself, not utm_feature-qa): its code loads only now,
    // and this page view never starts the SDK.
    const qa = this.qa && new URLSearchParams(location.search).has('feature-qa');
    if (!this.#started && !this.#forcing && qa) {
      this.#forcing = true;
      void loadQaForcing().then(({ forceForQa }) => forceForQa(this, this.#client));
    }
    if (this.#forcing) return;
    const restart = !this.#started || SDK_PROPERTIES.some((name) => changed.has(name));
    const sdk = this.#sdkSettings();
    if (sdk === null) return;
    const who = this.#visitorSettings(sdk.envId);
    if (restart) {
      this.#started = true;
      void this.#client.start(sdk, who, this.#bootstrap());
    } else void this.#client.update(who);
  }

  #sdkSettings(): SdkSettings | null {
    const { envId, apiKey } = this;
    clearTimeout(this.#missing);
    if (!envId || !apiKey) {
      // A page or framework may set them just after connection: flags stay loading (never a wrong default
      // flashed) until the timeout, and only then is the problem reported and the defaults shown.
      const missing = envId ? 'api-key' : 'env-id';
      this.#missing = setTimeout(
        () => {
          this.#problem(
            'missing-attribute',
            `${missing} is missing: copy the environment id and API key from the server ` +
              '(npm start prints them) into env-id and api-key. Flags show their defaults.',
          );
          this.#client.$ready.set(true);
        },
        this.#positive('timeout', this.timeout, 2000),
      );
      return null;
    }
    const mode = this.#oneOf('mode', this.mode, ['api', 'bucketing'], 'api');
    return {
      envId,
      apiKey,
      apiUrl: this.apiUrl ?? sdkOrigin(),
      mode: mode === 'api' ? Mode.DECISION_API : Mode.BUCKETING,
      timeout: this.#positive('timeout', this.timeout, 2000),
      pollingInterval: this.#positive('polling-interval', this.pollingInterval, 60),
      logLevel:
        LEVELS[this.#oneOf('log-level', this.logLevel, Object.keys(LEVELS), 'warning')] ?? Level.WARNING,
      liveUpdates: this.#oneOf('live', this.live, ['on', 'off'], 'on') === 'on',
      cacheMode: this.#oneOf(
        'cache-mode',
        this.cacheMode,
        Object.values(CacheMode),
        CacheMode.LOCAL_CACHE_FIRST,
      ),
    };
  }

  #visitorSettings(envId: string): VisitorSettings {
    const context: Record<string, string | number | boolean> = {};
    const given = this.context === undefined ? {} : this.context;
    if (typeof given !== 'object' || given === null || Array.isArray(given))
      this.#problem(
        'invalid-attribute',
        'context must be a JSON object such as {"plan":"premium"}: it is ignored.',
      );
    else
      for (const [key, value] of Object.entries(given))
        if (typeof value === 'string' || typeof value === 'boolean' || Number.isFinite(value))
          context[key] = value as string | number | boolean;
        else
          this.#problem(
            'invalid-attribute',
            `context.${key} must be a string, a finite number or a boolean.`,
          );
    return {
      visitorId: this.visitorId || pageVisitorId(envId),
      // Only true consents: a property set to text ("true", from a framework) is not a boolean the SDK takes.
      consent: (this.consent as unknown) === true,
      authenticated: (this.authenticated as unknown) === true,
      context,
    };
  }

  /** The decision in a `<script type="application/json">` child, or null. */
  #bootstrap(): Decision | null {
    const script = this.querySelector(':scope > script[type="application/json"]');
    if (script === null) return null;
    const body = parseJson(script.textContent);
    if (typeof body === 'object' && body !== null && Array.isArray((body as Decision).campaigns))
      return body as Decision;
    this.#problem(
      'invalid-bootstrap',
      'the <script type="application/json"> child is not a decision body ({"visitorId":…,"campaigns":[…]}): it is ignored.',
    );
    return null;
  }

  /** `given` when it is one of `allowed` (null: `fallback`), else `fallback`, and the mistake is reported. */
  #oneOf<T extends string>(attribute: string, given: string | null, allowed: readonly T[], fallback: T): T {
    if (given === null || allowed.includes(given as T)) return (given ?? fallback) as T;
    this.#problem(
      'invalid-attribute',
      `${attribute}="${given}" is not one of ${allowed.join(', ')}: ${fallback} is used.`,
    );
    return fallback;
  }

  #positive(name: string, given: number | undefined, fallback: number): number {
    const value = numberOf(given);
    if (value === undefined) return fallback;
    // Whole numbers only: the SDK refuses a fractional timeout or interval, and would not start at all.
    if (Number.isInteger(value) && value > 0) return value;
    this.#problem(
      'invalid-attribute',
      `${name}="${String(value)}" is not a positive whole number: ${fallback} is used.`,
    );
    return fallback;
  }

  #problem(reason: FeatureErrorReason, message: string): void {
    reportOnce(this, this.#reported, reason, message);
  }
}
