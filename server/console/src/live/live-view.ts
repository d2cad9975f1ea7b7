// Live traffic (#/live): the environment's newest exposures and hits, polled every 2 s while the tab is visible,
// to watch an integration work. Each poll passes the last cursor back so only new rows travel; the status region
// announces how many arrived ("3 new"), never each row, so a screen reader is not flooded.
import type { TrafficAnswer, TrafficCursor, TrafficEntry } from 'feature-ts/protocol';
import { LitElement, css, html, nothing } from 'lit';
import { ConsoleApiError, seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import './traffic-table.js';
import { emptyTraffic } from './traffic-table.js';
import {
  type CampaignNames,
  MAX_ROWS,
  campaignNames,
  hasUnknownCampaign,
  itemKey,
  mergeItems,
  trafficQuery,
} from './traffic-model.js';
import { consoleStyles } from '../styles.js';
import type { RemoteCampaign, RemotePage } from '../types.js';
import { type CurrentCheck, VisiblePoller } from '../widgets/visible-poller.js';

/** How often new traffic is asked for. */
export const LIVE_POLL_MS = 2000;
// The campaign list is re-read for an unknown campaign id at most this often.
const NAMES_TTL_MS = 30_000;

const clock = (): string =>
  new Date().toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });

/**
 * The live traffic screen of the chosen environment.
 * @summary Live traffic view.
 */
export class LiveView extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      form {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: end;
      }
      form .field {
        flex: 1 1 16rem;
        margin: 0;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    items: { state: true },
    fresh: { state: true },
    names: { state: true },
    visitor: { state: true },
    paused: { state: true },
    loaded: { state: true },
    announcement: { state: true },
    error: { state: true },
    fieldError: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  declare items: TrafficEntry[];
  declare fresh: ReadonlySet<string>;
  declare names: CampaignNames;
  /** The applied visitor filter ('' for everyone). */
  declare visitor: string;
  declare paused: boolean;
  /** Whether the first page has arrived. */
  declare loaded: boolean;
  /** What the status region says. */
  declare announcement: string;
  declare error: string;
  /** The server's message about the visitor id, shown under the input. */
  declare fieldError: string;

  #envId = '';
  #cursor: TrafficCursor | null = null;
  #namesAt = 0;
  readonly #poller = new VisiblePoller(this, LIVE_POLL_MS, () => void this.#poll());

  constructor() {
    super();
    consumeConsoleContext(this);
    this.items = [];
    this.fresh = new Set();
    this.names = campaignNames([]);
    this.visitor = '';
    this.paused = false;
    this.loaded = false;
    this.announcement = '';
    this.error = '';
    this.fieldError = '';
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (!changed.has('context')) return;
    const envId = this.context.environment?.id ?? '';
    if (envId === this.#envId) return;
    this.#envId = envId;
    this.names = campaignNames([]);
    this.#namesAt = 0;
    this.#restart();
  }

  /** Forgets the rows and reads the newest page again (new environment or filter). */
  #restart(): void {
    this.#poller.reset();
    this.#cursor = null;
    this.items = [];
    this.fresh = new Set();
    this.loaded = false;
    this.error = '';
    void this.#poll(true);
  }

  async #loadNames(): Promise<void> {
    const env = this.context.environment;
    if (env === null) return;
    this.#namesAt = Date.now();
    try {
      const page = await this.context.api.get<RemotePage<RemoteCampaign>>(
        `/environments/${seg(env.id)}/campaigns?items_per_page=100`,
      );
      if (env.id === this.#envId) this.names = campaignNames(page.items);
    } catch {
      // Names are a convenience: the rows show ids without them.
    }
  }

  async #poll(force = false): Promise<void> {
    const env = this.context.environment;
    if (env === null || (this.paused && !force)) return;
    await this.#poller.run((current) => this.#read(env.id, current));
  }

  async #read(envId: string, current: CurrentCheck): Promise<void> {
    const first = this.#cursor === null;
    try {
      if (this.#namesAt === 0) void this.#loadNames();
      const answer = await this.context.api.get<TrafficAnswer>(
        `/environments/${seg(envId)}/traffic?${trafficQuery(this.#cursor, this.visitor)}`,
      );
      if (!current()) return;
      this.#cursor = answer.cursor;
      const { items, added } = mergeItems(this.items, answer.items);
      this.items = items;
      this.loaded = true;
      this.error = '';
      this.fieldError = '';
      if (first) {
        this.fresh = new Set();
        this.announcement = items.length === 0 ? 'No traffic yet' : `Showing the ${items.length} newest rows`;
      } else if (added > 0) {
        this.fresh = new Set(answer.items.map(itemKey));
        this.announcement = `${added} new at ${clock()}`;
      }
      if (hasUnknownCampaign(answer.items, this.names) && Date.now() - this.#namesAt > NAMES_TTL_MS)
        void this.#loadNames();
    } catch (error) {
      if (!current()) return;
      const message = error instanceof ConsoleApiError ? error.message : 'The traffic could not be read.';
      const field = error instanceof ConsoleApiError ? error.fields.get('visitor') : undefined;
      if (field === undefined) this.error = `${message} Trying again every 2 s.`;
      else this.fieldError = field;
      this.loaded = true;
    }
  }

  #apply(visitor: string): void {
    this.visitor = visitor.trim();
    this.fieldError = '';
    this.#restart();
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    const input = this.renderRoot.querySelector<HTMLInputElement>('#visitor-id');
    this.#apply(input?.value ?? '');
  }

  #onVisitor(event: HTMLElementEventMap['visitor-filter']): void {
    const input = this.renderRoot.querySelector<HTMLInputElement>('#visitor-id');
    if (input !== null) {
      input.value = event.detail.visitor;
      // The clicked button is replaced by the filtered rows: keep keyboard users at the filter they just set.
      input.focus();
    }
    this.#apply(event.detail.visitor);
  }

  #togglePause(): void {
    this.paused = !this.paused;
    this.announcement = this.paused ? 'Paused: new traffic is not fetched' : 'Resumed';
    if (!this.paused) void this.#poll();
  }

  override render() {
    const env = this.context.environment;
    if (env === null)
      return html`<h1>Live traffic</h1>
        <p class="notice">Choose or create an environment first: traffic is sent to an environment.</p>`;
    return html`
      <h1>Live traffic <span class="muted">in ${env.name}</span></h1>
      <p class="hint">
        The ${MAX_ROWS} newest exposures and hits this environment received, newest first, checked every 2 s
        while this tab is visible.
      </p>
      <div class="card">
        <form @submit=${this.#onSubmit}>
          <div class="field">
            <label for="visitor-id">Visitor id</label>
            <input
              id="visitor-id"
              type="search"
              autocomplete="off"
              .value=${this.visitor}
              aria-describedby="visitor-hint${this.fieldError === '' ? '' : ' visitor-error'}"
              aria-invalid=${this.fieldError === '' ? 'false' : 'true'}
            />
          </div>
          <button type="submit">Apply filter</button>
          ${
            this.visitor === ''
              ? nothing
              : html`<button type="button" class="secondary" @click=${() => this.#apply('')}>
                  Clear filter
                </button>`
          }
          <button type="button" class="secondary" @click=${this.#togglePause}>
            ${this.paused ? 'Resume' : 'Pause'}
          </button>
        </form>
        <p class="hint" id="visitor-hint">
          Exact id: an exposure's visitor or anonymous id, a hit's visitor or customer id. Empty shows
          everyone.
        </p>
        ${this.fieldError === '' ? nothing : html`<p class="error" id="visitor-error">${this.fieldError}</p>`}
      </div>
      <p class="row">
        <span role="status">${this.announcement}</span>
        ${this.visitor === '' ? nothing : html`<span class="badge">Visitor ${this.visitor}</span>`}
        ${this.paused ? html`<span class="badge paused">Paused</span>` : nothing}
      </p>
      ${this.error === '' ? nothing : html`<p class="notice danger">${this.error}</p>`} ${this.#rows()}
    `;
  }

  #rows() {
    if (!this.loaded) return html`<p class="muted">Loading the traffic…</p>`;
    if (this.items.length === 0) return emptyTraffic(this.visitor);
    return html`<traffic-table
      .items=${this.items}
      .names=${this.names}
      .fresh=${this.fresh}
      @visitor-filter=${this.#onVisitor}
    ></traffic-table>`;
  }
}

customElements.define('live-view', LiveView);

declare global {
  interface HTMLElementTagNameMap {
    'live-view': LiveView;
  }
}
