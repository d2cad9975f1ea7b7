// The campaigns of the chosen environment (route #/campaigns), in their stored order, which is the order decisions
// try them: searchable by name, slug, id and flag key, each with its state (changed here through the toggle
// route), traffic, variations and last change, and links to its editor and report; above them, how many pages
// listen to the environment's changes now (a toggle reaches those at once).
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { CampaignState, RemoteCampaign } from 'feature-ts/protocol';
import { ConsoleApiError } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { routeHash } from '../router.js';
import { consoleStyles } from '../styles.js';
import { loadAllCampaigns, matches } from './campaign-list.js';
import { campaignRow } from './campaign-row.js';
import { campaignsPager, pageOf } from './campaigns-pager.js';
import { changeState, stateAnnouncement, stateNotice, undoLabel } from './campaign-state.js';
import { campaignsStyles } from './campaigns-styles.js';
import '../widgets/listening-now.js';
import '../widgets/undo-notice.js';
import { stackedTableStyles } from '../widgets/stacked-table.js';

/** The notice beside a row whose state just changed, and the state its Undo goes back to (null: no Undo). */
interface StateChange {
  campaignId: string;
  message: string;
  undoTo: CampaignState | null;
}

/**
 * The campaigns list.
 * @summary Campaigns of the chosen environment.
 */
export class CampaignsView extends LitElement {
  static override styles = [consoleStyles, stackedTableStyles('42rem'), campaignsStyles];

  static override properties = {
    context: { state: true },
    campaigns: { state: true },
    loadError: { state: true },
    query: { state: true },
    page: { state: true },
    change: { state: true },
    announcement: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The environment's campaigns, or null while loading. */
  declare campaigns: RemoteCampaign[] | null;
  declare loadError: string;
  declare query: string;
  /** The table's page, from 1. */
  declare page: number;
  /** The last state change, told beside its row (with Undo for a few seconds unless it is final). */
  declare change: StateChange | null;
  /** The polite live region's text: the last change in words. */
  declare announcement: string;

  #loadedEnv: string | null = null;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.campaigns = null;
    this.loadError = '';
    this.query = '';
    this.page = 1;
    this.change = null;
    this.announcement = '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('context') && (this.context.environment?.id ?? null) !== this.#loadedEnv)
      void this.#load();
  }

  async #load(): Promise<void> {
    const envId = this.context.environment?.id ?? null;
    this.#loadedEnv = envId;
    this.campaigns = null;
    this.loadError = '';
    this.page = 1;
    this.change = null;
    if (envId === null) return;
    try {
      const campaigns = await loadAllCampaigns(this.context.api, envId);
      if (this.#loadedEnv === envId) this.campaigns = campaigns;
    } catch (error) {
      if (this.#loadedEnv === envId)
        this.loadError = error instanceof ConsoleApiError ? error.message : String(error);
    }
  }

  async #setState(campaign: RemoteCampaign, select: HTMLSelectElement): Promise<void> {
    const before = campaign.state;
    const updated = await changeState(this.context, campaign, select.value as CampaignState);
    if (updated !== null && this.campaigns !== null) {
      this.#replace(updated);
      // Pausing and resuming can be taken back; interrupting was confirmed and is final.
      const undoTo = updated.state === 'interrupted' ? null : before;
      this.change = { campaignId: updated.id, message: stateNotice(updated.state), undoTo };
      this.announcement = `${stateAnnouncement(updated)}${undoTo === null ? '' : ' Undo is beside it for a few seconds.'}`;
    }
    // Cancelled or refused: the select goes back to the stored state.
    else select.value = campaign.state;
    this.requestUpdate();
  }

  /** Undo: the same toggle route, back to the state before the change. */
  async #undo(change: StateChange): Promise<void> {
    const campaign = this.campaigns?.find((c) => c.id === change.campaignId);
    if (campaign === undefined || change.undoTo === null) return;
    // The button goes at once, so a second click cannot send a second request.
    this.change = { ...change, message: 'Undoing…', undoTo: null };
    const updated = await changeState(this.context, campaign, change.undoTo);
    if (updated === null) {
      // Refused (told through notify): the row shows the state the server keeps.
      this.change = null;
      return;
    }
    this.#replace(updated);
    this.change = { campaignId: updated.id, message: `Undone. ${stateNotice(updated.state)}`, undoTo: null };
    this.announcement = stateAnnouncement(updated, true);
    // The Undo button is gone: the focus goes to the state it restored, not to the page's start.
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`select[data-campaign="${CSS.escape(updated.id)}"]`)?.focus();
  }

  #replace(updated: RemoteCampaign): void {
    if (this.campaigns !== null)
      this.campaigns = this.campaigns.map((c) => (c.id === updated.id ? { ...c, ...updated } : c));
  }

  #notice(campaign: RemoteCampaign): TemplateResult | typeof nothing {
    const change = this.change;
    if (change === null || change.campaignId !== campaign.id) return nothing;
    return html`<undo-notice
      .message=${change.message}
      .undoLabel=${undoLabel(campaign, change.undoTo)}
      @undo=${() => void this.#undo(change)}
      @notice-expired=${() => {
        if (this.change === change) this.change = null;
      }}
    ></undo-notice>`;
  }

  #table(campaigns: RemoteCampaign[]): TemplateResult {
    const all = campaigns.length;
    const shown = campaigns.map((c, i) => ({ c, order: i + 1 })).filter(({ c }) => matches(c, this.query));
    const paged = pageOf(shown, this.page);
    return html`<p role="status" class="muted">
        ${
          this.query.trim() === ''
            ? `${all} ${all === 1 ? 'campaign' : 'campaigns'}, in the order decisions try them.`
            : `${shown.length} of ${all} campaigns match “${this.query.trim()}”.`
        }
      </p>
      ${
        shown.length === 0
          ? html`<p class="notice">
              No campaign matches “${this.query.trim()}”: search by name, slug, id or flag key.
              <button type="button" class="secondary" @click=${() => (this.query = '')}>
                Clear the search
              </button>
            </p>`
          : html`<div class="table-wrap stacks">
                <table role="table">
                  <caption class="visually-hidden">
                    Campaigns of ${this.context.environment?.name ?? ''}
                  </caption>
                  <thead role="rowgroup">
                    <tr role="row">
                      <th role="columnheader" scope="col" class="num">Order</th>
                      <th role="columnheader" scope="col">Name</th>
                      <th role="columnheader" scope="col">Type</th>
                      <th role="columnheader" scope="col">State</th>
                      <th role="columnheader" scope="col" class="num">Traffic</th>
                      <th role="columnheader" scope="col" class="num">Variations</th>
                      <th role="columnheader" scope="col">Last change</th>
                      <th role="columnheader" scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody role="rowgroup">
                    ${paged.rows.map(({ c, order }) =>
                      campaignRow(c, order, (select) => void this.#setState(c, select), this.#notice(c)),
                    )}
                  </tbody>
                </table>
              </div>
              ${campaignsPager(paged, (page) => (this.page = page))}`
      }`;
  }

  #body(): TemplateResult {
    if (this.context.environment === null)
      return html`<p class="notice">
        There is no environment yet: create one in
        <a href=${routeHash({ name: 'environments' })}>API Key &amp; Settings</a>, then come back to create
        its campaigns.
      </p>`;
    if (this.loadError !== '')
      return html`<div class="notice danger" role="alert">
        <p>The campaigns could not be loaded: ${this.loadError}</p>
        <button type="button" class="secondary" @click=${() => void this.#load()}>Try again</button>
      </div>`;
    if (this.campaigns === null) return html`<p role="status">Loading the campaigns…</p>`;
    if (this.campaigns.length === 0)
      return html`<div class="card">
        <h2>No campaign yet</h2>
        <p>
          A campaign decides what each visitor gets: it targets visitors (by their context: device, plan,
          id…), splits them between variations, and each variation sets flag values your application reads.
          Use it for an A/B test, a feature toggle, a progressive deployment or a personalisation.
        </p>
        <a class="button" href=${routeHash({ name: 'campaign-new' })}>New campaign</a>
      </div>`;
    return this.#table(this.campaigns);
  }

  override render() {
    const env = this.context.environment;
    return html`<div class="spread title">
        <h1>Campaigns${env === null ? nothing : html` <span class="env">in ${env.name}</span>`}</h1>
        ${env === null ? nothing : html`<a class="button" href=${routeHash({ name: 'campaign-new' })}>New campaign</a>`}
      </div>
      ${env === null ? nothing : html`<listening-now></listening-now>`}
      ${
        env === null
          ? nothing
          : html`<div class="field toolbar">
              <label for="search">Search campaigns</label>
              <input
                id="search"
                type="search"
                aria-describedby="search-hint"
                .value=${live(this.query)}
                @input=${(event: Event) => {
                  this.query = (event.target as HTMLInputElement).value;
                  this.page = 1;
                }}
              />
              <p id="search-hint" class="hint">By name, slug, id or flag key.</p>
            </div>`
      }
      ${this.#body()}
      <p class="visually-hidden" role="status" data-testid="state-announcement">${this.announcement}</p>`;
  }
}

customElements.define('campaigns-view', CampaignsView);

declare global {
  interface HTMLElementTagNameMap {
    'campaigns-view': CampaignsView;
  }
}
