// A campaign's History (#/campaigns/{id}/history, beside its editor and report; docs/teams.md "Audit log"): the
// campaign's entries newest first, each with its readable diff, a page at a time, and on each entry that left a
// campaign "Restore this version", which asks first (naming the time and the person), calls the restore route
// and opens the editor on the campaign as restored, with what happened said under its title. Anyone in the
// account may read it; only an editor or an admin is offered Restore, as the server allows.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import type { RemoteCampaign } from 'feature-ts/protocol';
import { seg } from '../api.js';
import { handOverCreated } from '../campaigns/save-outcome.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { mayAct } from '../roles.js';
import { navigate, routeHash } from '../router.js';
import { shortDateTime } from '../settings/action-labels.js';
import { consoleStyles } from '../styles.js';
import type { AuditEntry, AuditPage } from '../types.js';
import { confirmAction } from '../widgets/confirm.js';
import { auditEntry, auditEntryStyles } from './audit-entry.js';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A campaign's history with restore.
 * @summary The History of a campaign.
 */
export class CampaignHistoryView extends LitElement {
  static override styles = [
    consoleStyles,
    auditEntryStyles,
    css`
      .entries .restore {
        margin-top: 0.5rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    campaignId: { attribute: false },
    name: { state: true },
    entries: { state: true },
    next: { state: true },
    loading: { state: true },
    loadError: { state: true },
    restoreErrors: { state: true },
    busy: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The campaign whose history is shown. */
  declare campaignId: string;
  /** The campaign's name ('' while unknown, or when it was deleted). */
  declare name: string;
  declare entries: readonly AuditEntry[];
  declare next: number | null;
  declare loading: boolean;
  declare loadError: string;
  /** The server's refusal of a restore, by entry seq, said on that entry. */
  declare restoreErrors: ReadonlyMap<number, string>;
  declare busy: boolean;
  #loadedKey = '';

  constructor() {
    super();
    consumeConsoleContext(this);
    this.campaignId = '';
    this.name = '';
    this.entries = [];
    this.next = null;
    this.loading = false;
    this.loadError = '';
    this.restoreErrors = new Map();
    this.busy = false;
  }

  get #base(): string {
    return `/environments/${seg(this.context.environment?.id ?? '')}/campaigns/${seg(this.campaignId)}`;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('context') && !changed.has('campaignId')) return;
    const key = `${this.context.environment?.id ?? ''}/${this.campaignId}`;
    if (key === this.#loadedKey || this.context.environment === null) return;
    this.#loadedKey = key;
    Object.assign(this, { name: '', entries: [], next: null, restoreErrors: new Map() });
    // The name only titles the page: a deleted campaign still has its history.
    this.context.api.get<RemoteCampaign>(this.#base).then(
      (campaign) => key === this.#loadedKey && (this.name = campaign.name),
      () => undefined,
    );
    void this.#load(false);
  }

  async #load(older: boolean): Promise<void> {
    const key = this.#loadedKey;
    this.loading = true;
    this.loadError = '';
    try {
      const cursor = older && this.next !== null ? `&before_seq=${this.next}` : '';
      const page = await this.context.api.get<AuditPage>(`${this.#base}/history?limit=50${cursor}`);
      if (key !== this.#loadedKey) return;
      this.entries = older ? [...this.entries, ...page.items] : page.items;
      this.next = page.next_before_seq;
    } catch (error) {
      if (key === this.#loadedKey) this.loadError = messageOf(error);
    } finally {
      if (key === this.#loadedKey) this.loading = false;
    }
  }

  async #restore(entry: AuditEntry): Promise<void> {
    const when = shortDateTime(entry.at);
    const sure = await confirmAction(
      `Restore the version of ${when} by ${entry.actor.label}?`,
      'The campaign goes back to how this change left it (its variations, targeting, description, state and place), live at once. The restore is a new change in the history: it can be undone the same way.',
      'Restore',
    );
    if (!sure) return;
    this.busy = true;
    this.restoreErrors = new Map();
    try {
      const campaign = await this.context.api.post<RemoteCampaign>(
        `${this.#base}/history/${entry.seq}/restore`,
      );
      handOverCreated(
        campaign.id,
        `Restored the version of ${when} by ${entry.actor.label}: it is live, as ${campaign.state}.`,
      );
      navigate({ name: 'campaign', campaignId: campaign.id });
    } catch (error) {
      this.restoreErrors = new Map([[entry.seq, messageOf(error)]]);
    } finally {
      this.busy = false;
    }
  }

  #restoreControl(entry: AuditEntry) {
    const error = this.restoreErrors.get(entry.seq);
    return html`<div class="restore">
      <button
        type="button"
        class="secondary"
        ?disabled=${this.busy}
        @click=${() => void this.#restore(entry)}
      >
        Restore this version<span class="visually-hidden"> of ${shortDateTime(entry.at)}</span>
      </button>
      ${error === undefined ? nothing : html`<p class="error" role="alert">Not restored: ${error}</p>`}
    </div>`;
  }

  override render() {
    const env = this.context.environment;
    const title = html`<h1>History: ${this.name === '' ? this.campaignId : this.name}</h1>`;
    if (env === null)
      return html`${title}
        <p class="notice">Choose or create an environment first: campaigns belong to an environment.</p>`;
    const mayRestore = mayAct(this.context.user, env.account_id, 'editor');
    return html`${title}
      <p class="row">
        <a href=${routeHash({ name: 'campaign', campaignId: this.campaignId })}
          >Back to the campaign editor</a
        >
        <a href=${routeHash({ name: 'report', campaignId: this.campaignId })}>Report</a>
      </p>
      <h2 id="changes-title">Changes</h2>
      <p class="muted">Every change to this campaign in ${env.name}, newest first.</p>
      ${
        this.entries.length === 0 && !this.loading && this.loadError === ''
          ? html`<p>No change recorded for this campaign yet: its edits will be listed here.</p>`
          : html`<ol class="entries" aria-labelledby="changes-title">
              ${this.entries.map(
                (entry) =>
                  html`<li>
                    ${auditEntry(entry, mayRestore && entry.after !== null ? this.#restoreControl(entry) : nothing)}
                  </li>`,
              )}
            </ol>`
      }
      ${this.loading ? html`<p role="status">Loading the history…</p>` : nothing}
      ${
        this.loadError === ''
          ? nothing
          : html`<p class="notice danger" role="alert">The history could not be loaded: ${this.loadError}</p>`
      }
      ${
        this.next === null || this.loading
          ? nothing
          : html`<button type="button" class="secondary" @click=${() => void this.#load(true)}>Older</button>`
      }`;
  }
}

customElements.define('campaign-history-view', CampaignHistoryView);

declare global {
  interface HTMLElementTagNameMap {
    'campaign-history-view': CampaignHistoryView;
  }
}
