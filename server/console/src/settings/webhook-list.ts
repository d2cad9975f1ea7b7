// The chosen environment's webhooks, below the creation panel: each one's URL and event kinds, its delivery log
// on demand (read from the server only when opened), and Delete, which asks first since what the webhook had
// not yet sent is given up with it.
import { LitElement, css, html, nothing } from 'lit';
import { seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';
import type { Webhook } from '../types.js';
import { confirmAction } from '../widgets/confirm.js';
import { stackedTableStyles } from '../widgets/stacked-table.js';
import { shortDateTime } from './action-labels.js';
import { WEBHOOK_EVENT_LABELS } from './webhook-labels.js';
import './webhook-deliveries.js';

/**
 * The environment's webhooks with their delivery logs and Delete.
 * @summary Webhooks list.
 * @fires {CustomEvent<Webhook>} webhook-deleted - The server deleted a webhook.
 */
export class WebhookList extends LitElement {
  static override styles = [
    consoleStyles,
    stackedTableStyles('40rem'),
    css`
      ul.plain {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      code.url {
        overflow-wrap: anywhere;
      }
      td .row {
        flex-wrap: wrap;
      }
      .log td {
        background: var(--soft);
      }
      @container (max-width: 40rem) {
        /* Cells without a column name (the buttons, the log) take the card's whole width. */
        .stacks tbody td.whole {
          display: block;
        }
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    webhooks: { attribute: false },
    open: { state: true },
    status: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The webhooks shown, oldest first (as the server lists them). */
  declare webhooks: readonly Webhook[];
  /** The ids of the webhooks whose delivery log is open. */
  declare open: ReadonlySet<string>;
  declare status: string;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.webhooks = [];
    this.open = new Set();
    this.status = '';
  }

  #toggle(webhook: Webhook): void {
    const next = new Set(this.open);
    if (!next.delete(webhook.id)) next.add(webhook.id);
    this.open = next;
  }

  async #delete(webhook: Webhook): Promise<void> {
    const sure = await confirmAction(
      `Delete the webhook to ${webhook.url}?`,
      'It is sent no more events, and the deliveries it had not yet made are given up. This cannot be undone.',
      'Delete the webhook',
    );
    if (!sure) return;
    try {
      await this.context.api.delete(`/environments/${seg(webhook.env_id)}/webhooks/${seg(webhook.id)}`);
      this.status = `The webhook to ${webhook.url} is deleted.`;
      emit(this, 'webhook-deleted', webhook);
    } catch (error) {
      this.status = `The webhook was not deleted: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  #events(webhook: Webhook) {
    if (webhook.events.length === 0) return 'Every event';
    const labels = new Map(WEBHOOK_EVENT_LABELS.map(({ kind, label }) => [kind, label]));
    return html`<ul class="plain">
      ${webhook.events.map((kind) => html`<li>${labels.get(kind) ?? kind}</li>`)}
    </ul>`;
  }

  #row(webhook: Webhook, index: number) {
    const open = this.open.has(webhook.id);
    const logId = `log-${index}`;
    return html`<tr>
        <th scope="row" data-label="URL"><code class="url">${webhook.url}</code></th>
        <td data-label="Event kinds">${this.#events(webhook)}</td>
        <td data-label="Created">${shortDateTime(webhook.created_at)}</td>
        <td class="whole">
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
              Delete<span class="visually-hidden"> the webhook to ${webhook.url}</span>
            </button>
          </div>
        </td>
      </tr>
      <tr class="log" id=${logId} ?hidden=${!open}>
        <td colspan="4" class="whole">
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

  override render() {
    return html`<section class="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p class="hint" role="status">${this.status}</p>
      ${
        this.webhooks.length === 0
          ? html`<p>No webhook yet: create one above to be sent this environment's changes.</p>`
          : html`<div class="stacks">
              <table>
                <caption class="visually-hidden">
                  Webhooks of ${this.context.environment?.name ?? 'the environment'}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Event kinds</th>
                    <th scope="col">Created</th>
                    <th scope="col"><span class="visually-hidden">Deliveries and delete</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${this.webhooks.map((webhook, index) => this.#row(webhook, index))}
                </tbody>
              </table>
            </div>`
      }
    </section>`;
  }
}

customElements.define('webhook-list', WebhookList);

declare global {
  interface HTMLElementTagNameMap {
    'webhook-list': WebhookList;
  }
}
