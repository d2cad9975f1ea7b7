// Settings > Integrations > Webhooks (docs/teams.md "Webhooks"): the creation panel, then the chosen
// environment's webhooks with their delivery logs. The list is loaded per environment; a creation or a deletion
// updates it from the server's answer, so no reload is needed.
import { LitElement, css, html, type PropertyValues } from 'lit';
import { seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { routeHash } from '../router.js';
import { consoleStyles } from '../styles.js';
import type { Items, Webhook } from '../types.js';
import './webhook-create-form.js';
import './webhook-list.js';

/**
 * An environment's webhooks: create, read the delivery log, send again, delete.
 * @summary Settings > Integrations > Webhooks.
 */
export class WebhooksView extends LitElement {
  static override styles = [
    consoleStyles,
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
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  declare webhooks: readonly Webhook[];
  declare loading: boolean;
  declare loadError: string;
  /** The environment whose webhooks are loaded (a late answer for another environment is dropped). */
  #loadedFor: string | null = null;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.webhooks = [];
    this.loading = false;
    this.loadError = '';
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('context')) return;
    const envId = this.context.environment?.id ?? null;
    if (envId === this.#loadedFor) return;
    this.#loadedFor = envId;
    this.webhooks = [];
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
    return html`<webhook-list
      .webhooks=${this.webhooks}
      @webhook-deleted=${(event: HTMLElementEventMap['webhook-deleted']) => {
        this.webhooks = this.webhooks.filter((w) => w.id !== event.detail.id);
      }}
    ></webhook-list>`;
  }

  override render() {
    const environment = this.context.environment;
    return html`<p class="breadcrumb muted">Settings › Integrations</p>
      <h1>Webhooks</h1>
      ${
        environment === null
          ? html`<p class="notice warning">
              There is no environment yet.
              <a href=${routeHash({ name: 'environments' })}>Create one</a> first: a webhook is sent the
              changes of one environment.
            </p>`
          : html`<p>
                A webhook POSTs each change of <strong>${environment.name}</strong> (campaigns, panic,
                settings, API key) to a URL of yours, signed, and retries for 24 hours until it answers 2xx.
              </p>
              <webhook-create-form
                @webhook-created=${(event: HTMLElementEventMap['webhook-created']) => {
                  this.webhooks = [...this.webhooks.filter((w) => w.id !== event.detail.id), event.detail];
                }}
              ></webhook-create-form>
              ${this.#list()}`
      } `;
  }
}

customElements.define('webhooks-view', WebhooksView);

declare global {
  interface HTMLElementTagNameMap {
    'webhooks-view': WebhooksView;
  }
}
