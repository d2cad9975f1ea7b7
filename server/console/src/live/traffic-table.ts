// The rows of the live traffic screen: a table at desktop widths that folds into one block per row at narrow
// widths (each cell then shows its column name), so nothing scrolls sideways at 360 px. Clicking a visitor id asks
// the screen to filter by it (a `visitor-filter` event), since debugging one visitor is the usual task.
import type { TrafficEntry } from 'feature-ts/protocol';
import { LitElement, css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';
import { type CampaignNames, itemKey, kindLabel, receivedLabel } from './traffic-model.js';

const named = (names: Map<string, string>, id: string): string => {
  const name = names.get(id);
  return name === undefined || name === '' ? id : name;
};

/** What the screen says before any traffic (of the filtered visitor) has arrived, and how to send some. */
export const emptyTraffic = (visitor: string) => {
  const who = visitor === '' ? '' : ` for visitor “${visitor}”`;
  return html`<div class="notice">
    <p><strong>Nothing received yet${who}.</strong></p>
    <p>
      Exposures (a visitor was shown a campaign's variation: a page read one of its flags) and hits (page
      views, events, transactions) sent to this environment appear here within 2 s, newest first.
    </p>
    <p>
      To send some, open the <a href="/" target="_blank">demo page (in a new tab)</a> and click around, or
      open a page of yours that has the tags with this environment's id.
    </p>
  </div>`;
};

/**
 * Traffic rows, newest first, with a raw JSON disclosure each.
 * @summary Live traffic rows.
 * @fires {CustomEvent<{ visitor: string }>} visitor-filter - A visitor id was clicked: show only its traffic.
 */
export class TrafficTable extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .link {
        background: none;
        border: none;
        color: var(--primary);
        padding: 0;
        min-height: 0;
        font-weight: 400;
        text-decoration: underline;
        text-align: left;
        white-space: nowrap;
      }
      .link:hover {
        background: none;
        color: var(--primary-dark);
      }
      tr.fresh > * {
        background: #eef3fd;
      }
      pre {
        margin: 0.25rem 0 0;
        padding: 0.5rem;
        background: var(--soft);
        border-radius: 4px;
        max-width: 36rem;
        overflow-x: auto;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .label {
        display: none;
      }
      @media (max-width: 640px) {
        thead {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip: rect(0 0 0 0);
        }
        table,
        tbody,
        tr,
        td {
          display: block;
        }
        tr {
          border: 1px solid var(--line);
          border-radius: 6px;
          margin-bottom: 0.5rem;
          padding: 0.25rem 0.5rem;
        }
        td {
          border: none;
          padding: 0.15rem 0;
        }
        .link {
          white-space: normal;
          overflow-wrap: anywhere;
        }
        .label {
          display: inline;
          color: var(--muted);
          font-weight: 600;
          margin-right: 0.35rem;
        }
      }
    `,
  ];
  static override properties = {
    items: { attribute: false },
    names: { attribute: false },
    fresh: { attribute: false },
  };

  /** The rows, newest first. */
  declare items: TrafficEntry[];
  /** Names of the environment's campaigns, groups and variations. */
  declare names: CampaignNames;
  /** Keys of the rows the last poll added, marked "new". */
  declare fresh: ReadonlySet<string>;

  constructor() {
    super();
    this.items = [];
    this.names = { campaigns: new Map(), groups: new Map(), variations: new Map() };
    this.fresh = new Set();
  }

  #filter(visitor: string): void {
    emit(this, 'visitor-filter', { visitor });
  }

  #visitor(id: string) {
    return html`<button
      type="button"
      class="link mono"
      title="Show only this visitor's traffic"
      @click=${() => this.#filter(id)}
    >
      ${id}
    </button>`;
  }

  override render() {
    return html`<table>
      <caption class="visually-hidden">
        Traffic received, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Received</th>
          <th scope="col">Kind</th>
          <th scope="col">Visitor</th>
          <th scope="col">Campaign / variation</th>
          <th scope="col">Goal / revenue</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        ${repeat(this.items, itemKey, (item) => this.#row(item))}
      </tbody>
    </table>`;
  }

  #row(item: TrafficEntry) {
    const fresh = this.fresh.has(itemKey(item));
    const other = item.kind === 'activation' ? item.anonymous_id : item.customer_id;
    const raw = item.kind === 'hit' ? item.body : item;
    return html`<tr data-testid="traffic-row" class=${fresh ? 'fresh' : ''}>
      <td>
        <span class="label">Received</span>
        <time datetime=${item.received_at} title=${item.received_at}>${receivedLabel(item.received_at)}</time>
      </td>
      <td>
        <span class="label">Kind</span>${kindLabel(item)}
        ${fresh ? html` <span class="badge">new</span>` : nothing}
      </td>
      <td>
        <span class="label">Visitor</span>${this.#visitor(item.visitor_id)}
        ${
          other === null || other === item.visitor_id
            ? nothing
            : html`<div class="hint">
                ${item.kind === 'activation' ? 'anonymous id' : 'customer id'} ${this.#visitor(other)}
              </div>`
        }
      </td>
      <td>
        <span class="label">Campaign</span>${
          item.kind === 'activation'
            ? html`${named(this.names.campaigns, item.campaign_id)} →
              ${named(this.names.variations, item.variation_id)}`
            : html`<span class="muted">–</span>`
        }
      </td>
      <td>
        <span class="label">Goal</span>${
          item.kind === 'hit' && item.goal !== null
            ? html`${item.goal}${item.revenue === null ? nothing : html` · revenue ${item.revenue}`}`
            : html`<span class="muted">–</span>`
        }
      </td>
      <td>
        <details>
          <summary>Details</summary>
          <pre class="mono">${JSON.stringify(raw, null, 2)}</pre>
        </details>
      </td>
    </tr>`;
  }
}

customElements.define('traffic-table', TrafficTable);

declare global {
  interface HTMLElementTagNameMap {
    'traffic-table': TrafficTable;
  }
}
