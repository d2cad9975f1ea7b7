// The delivery log of one webhook (docs/teams.md "Webhooks", "Delivery"): its latest 50 deliveries, newest
// first, with what the target last answered, so an operator sees why a delivery failed and sends it again once
// the target is fixed. The log is read when shown and on Refresh; it does not poll.
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { consoleStyles } from '../styles.js';
import type { Items, Webhook, WebhookDelivery } from '../types.js';
import { stackedTableStyles } from '../widgets/stacked-table.js';
import { shortDateTime } from './action-labels.js';
import { DELIVERY_BADGES } from './webhook-labels.js';

/**
 * A webhook's latest deliveries with Send again per delivery and Refresh.
 * @summary Webhook delivery log.
 */
export class WebhookDeliveries extends LitElement {
  static override styles = [consoleStyles, stackedTableStyles('40rem')];
  static override properties = {
    context: { state: true },
    webhook: { attribute: false },
    deliveries: { state: true },
    loading: { state: true },
    status: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The webhook whose deliveries are shown. */
  declare webhook: Webhook | null;
  declare deliveries: readonly WebhookDelivery[] | null;
  declare loading: boolean;
  declare status: string;
  /** The webhook whose log is loaded (a late answer for another is dropped). */
  #loadedFor: string | null = null;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.webhook = null;
    this.deliveries = null;
    this.loading = false;
    this.status = '';
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('webhook')) return;
    const id = this.webhook?.id ?? null;
    if (id === this.#loadedFor) return;
    this.#loadedFor = id;
    this.deliveries = null;
    if (id !== null) void this.#load();
  }

  #path(webhook: Webhook): string {
    return `/environments/${seg(webhook.env_id)}/webhooks/${seg(webhook.id)}/deliveries`;
  }

  async #load(): Promise<void> {
    const webhook = this.webhook;
    if (webhook === null) return;
    this.loading = true;
    this.status = '';
    try {
      const answer = await this.context.api.get<Items<WebhookDelivery>>(this.#path(webhook));
      if (webhook.id !== this.#loadedFor) return;
      this.deliveries = answer.items;
    } catch (error) {
      if (webhook.id === this.#loadedFor)
        this.status = `Not loaded: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      if (webhook.id === this.#loadedFor) this.loading = false;
    }
  }

  async #sendAgain(delivery: WebhookDelivery): Promise<void> {
    const webhook = this.webhook;
    if (webhook === null) return;
    try {
      const queued = await this.context.api.post<WebhookDelivery>(
        `${this.#path(webhook)}/${seg(delivery.id)}/redeliver`,
      );
      if (webhook.id !== this.#loadedFor) return;
      this.deliveries = (this.deliveries ?? []).map((d) => (d.id === queued.id ? queued : d));
      this.status = `${delivery.event_type} is sent again.`;
    } catch (error) {
      this.status = `Not sent again: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  #lastAnswer(delivery: WebhookDelivery) {
    if (delivery.last_error !== null) return html`<span class="error">${delivery.last_error}</span>`;
    if (delivery.last_status === null) return '—';
    return html`HTTP
    ${delivery.last_status}${
      delivery.last_answer === null || delivery.last_answer === ''
        ? nothing
        : html`<br /><code>${delivery.last_answer}</code>`
    }`;
  }

  #row(delivery: WebhookDelivery) {
    return html`<tr role="row">
      <th role="rowheader" scope="row" data-label="Event kind"><code>${delivery.event_type}</code></th>
      <td role="cell" data-label="State">
        <span class="badge ${DELIVERY_BADGES[delivery.state] ?? ''}">${delivery.state}</span>
      </td>
      <td role="cell" data-label="Time">${shortDateTime(delivery.created_at)}</td>
      <td role="cell" data-label="Attempts">${delivery.attempts}</td>
      <td role="cell" data-label="Last answer">${this.#lastAnswer(delivery)}</td>
      <td role="cell" data-label="Next attempt">${shortDateTime(delivery.next_attempt_at)}</td>
      <td role="cell" class="whole">
        <button type="button" class="secondary" @click=${() => void this.#sendAgain(delivery)}>
          Send again<span class="visually-hidden">
            ${delivery.event_type} of ${shortDateTime(delivery.created_at)}</span
          >
        </button>
      </td>
    </tr>`;
  }

  #log() {
    if (this.deliveries === null) return nothing;
    if (this.deliveries.length === 0) return html`<p>No delivery yet.</p>`;
    return html`<div class="stacks">
      <table role="table" aria-labelledby="log-title">
        <thead role="rowgroup">
          <tr role="row">
            <th role="columnheader" scope="col">Event kind</th>
            <th role="columnheader" scope="col">State</th>
            <th role="columnheader" scope="col">Time</th>
            <th role="columnheader" scope="col">Attempts</th>
            <th role="columnheader" scope="col">Last answer</th>
            <th role="columnheader" scope="col">Next attempt</th>
            <th role="columnheader" scope="col"><span class="visually-hidden">Send again</span></th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          ${this.deliveries.map((delivery) => this.#row(delivery))}
        </tbody>
      </table>
    </div>`;
  }

  override render() {
    return html`<div class="row">
        <h3 id="log-title">Latest deliveries</h3>
        <button type="button" class="secondary" ?disabled=${this.loading} @click=${() => void this.#load()}>
          Refresh
        </button>
        <span role="status" class="hint">${this.loading ? 'Loading…' : this.status}</span>
      </div>
      ${this.#log()}`;
  }
}

customElements.define('webhook-deliveries', WebhookDeliveries);

declare global {
  interface HTMLElementTagNameMap {
    'webhook-deliveries': WebhookDeliveries;
  }
}
