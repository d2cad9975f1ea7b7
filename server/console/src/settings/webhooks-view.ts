// Settings > Integrations > Webhooks (docs/teams.md "Webhooks"): the creation panel, then the chosen
// environment's webhooks, each with its URL, its event kinds, its delivery log on demand (read from the server
// only when opened) and Delete, which asks first since what the webhook has not yet sent is given up with it.
// The list is loaded per environment; a creation or a deletion updates it from the server's answer.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { routeHash } from '../router.js';
import { consoleStyles } from '../styles.js';
import type { Items, Webhook } from '../types.js';
import { confirmAction } from '../widgets/confirm.js';
import { stackedTableStyles } from '../widgets/stacked-table.js';
import './webhook-create-form.js';
import './webhook-deliveries.js';

/**
 * An environment's webhooks: create, read the delivery log, send again, delete.
 * @summary Settings > Integrations > Webhooks.
 */
export class WebhooksView extends LitElement {
  static override styles = [
    consoleStyles,
    stackedTableStyles('40rem'),
    css`
      .breadcrumb {
        margin: 0 0 0.25rem;
        font-size: 0.875rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    webhooks: { state: true },
    loading: { state: true },
    loadError: { state: true },
    open: { state: true },
    status: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The webhooks shown, oldest first (as the server lists them). */
  declare webhooks: readonly Webhook[];
  declare loading: boolean;
  declare loadError: string;
  /** The ids of the webhooks whose delivery log is open. */
  declare open: ReadonlySet<string>;
  declare status: string;
  /** The environment whose webhooks are loaded (a late answer for another environment is dropped). */
  #loadedFor: string | null = null;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.webhooks = [];
    this.loading = false;
    this.loadError = '';
    this.open = new Set();
    this.status = '';
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('context')) return;
    const envId = this.context.environment?.id ?? null;
    if (envId === this.#loadedFor) return;
    this.#loadedFor = envId;
    this.webhooks = [];
    this.open = new Set();
    this.status = '';
    if (envId !== null) void this.#load(envId);
  }

  async #load(envId: string): Promise<void> {
    this.loading = true;
    this.loadError = '';
    try {
      const answer = await this.context.api.get<Items<Webhook>>(`/environments/${seg(envId)}/webhooks`);
      if (envId === this.#loadedFor) this.webhooks = answer.items;
    } catch (error) {
      if (envId === this.#loadedFor) this.loadError = error instanceof Error ? error.message : String(error);
    } finally {
      if (envId === this.#loadedFor) this.loading = false;
    }
  }

  #toggle(webhook: Webhook): void {
    const next = new Set(this.open);
    if (!next.delete(webhook.id)) next.add(webhook.id);
    this.open = next;
  }

  async #delete(webhook: Webhook): Promise<void> {
    const sure = await confirmAction(
      `Delete the webhook to ${webhook.url}?`,
      'What it has not yet sent is given up. This cannot be undone.',
      'Delete',
    );
    if (!sure) return;
    try {
      await this.context.api.delete(`/environments/${seg(webhook.env_id)}/webhooks/${seg(webhook.id)}`);
      this.webhooks = this.webhooks.filter((w) => w.id !== webhook.id);
      this.status = `${webhook.url} is deleted.`;
    } catch (error) {
      this.status = `Not deleted: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  #row(webhook: Webhook, index: number) {
    const open = this.open.has(webhook.id);
    const logId = `log-${index}`;
    return html`<tr role="row">
        <th role="rowheader" scope="row" data-label="URL"><code>${webhook.url}</code></th>
        <td role="cell" data-label="Event kinds">
          ${webhook.events.length === 0 ? 'Every event' : html`<code>${webhook.events.join(', ')}</code>`}
        </td>
        <td role="cell" class="whole">
          <div class="row">
            <button
              type="button"
              class="secondary"
              aria-expanded=${open ? 'true' : 'false'}
              aria-controls=${logId}
              @click=${() => this.#toggle(webhook)}
            >
              Deliveries<span class="visually-hidden"> to ${webhook.url}</span>
            </button>
            <button type="button" class="secondary danger" @click=${() => void this.#delete(webhook)}>
              Delete<span class="visually-hidden"> ${webhook.url}</span>
            </button>
          </div>
        </td>
      </tr>
      <tr role="row" class="log" id=${logId} ?hidden=${!open}>
        <td role="cell" colspan="3" class="whole">
          ${
            open
              ? html`<div role="region" aria-label="Deliveries to ${webhook.url}">
                  <webhook-deliveries .webhook=${webhook}></webhook-deliveries>
                </div>`
              : nothing
          }
        </td>
      </tr>`;
  }

  #list() {
    if (this.loading) return html`<p role="status">Loading the webhooks…</p>`;
    if (this.loadError !== '')
      return html`<p class="notice danger" role="alert">
        The webhooks could not be loaded: ${this.loadError}
        <button
          type="button"
          class="secondary"
          @click=${() => this.#loadedFor !== null && void this.#load(this.#loadedFor)}
        >
          Try again
        </button>
      </p>`;
    if (this.webhooks.length === 0) return html`<p>No webhook yet.</p>`;
    return html`<div class="stacks">
      <table role="table" aria-labelledby="webhooks-title">
        <thead role="rowgroup">
          <tr role="row">
            <th role="columnheader" scope="col">URL</th>
            <th role="columnheader" scope="col">Event kinds</th>
            <th role="columnheader" scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          ${this.webhooks.map((webhook, index) => this.#row(webhook, index))}
        </tbody>
      </table>
    </div>`;
  }

  override render() {
    const environment = this.context.environment;
    return html`<p class="breadcrumb muted">Settings › Integrations</p>
      <h1>Webhooks</h1>
      ${
        environment === null
          ? html`<p class="notice warning">
              There is no environment yet:
              <a href=${routeHash({ name: 'environments' })}>create one</a> first.
            </p>`
          : html`<webhook-create-form
                @webhook-created=${(event: HTMLElementEventMap['webhook-created']) => {
                  this.webhooks = [...this.webhooks.filter((w) => w.id !== event.detail.id), event.detail];
                }}
              ></webhook-create-form>
              <section class="card" aria-labelledby="webhooks-title">
                <h2 id="webhooks-title">Webhooks</h2>
                <p class="hint" role="status">${this.status}</p>
                ${this.#list()}
              </section>`
      }`;
  }
}

customElements.define('webhooks-view', WebhooksView);

declare global {
  interface HTMLElementTagNameMap {
    'webhooks-view': WebhooksView;
  }
}
