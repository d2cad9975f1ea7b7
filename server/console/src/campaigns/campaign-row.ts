// One row of the campaigns table: its order (the order decisions try it), name and slug with any compatibility
// warnings, type, state, traffic, variations, last change, and its report link and state select.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { RemoteCampaign } from 'feature-ts/protocol';
import { routeHash } from '../router.js';
import { relativeTime, trafficText, typeName, variationCount } from './campaign-list.js';
import { STATES, STATE_LABELS } from './campaign-state.js';

/**
 * The row of `campaign`; `setState` gets its state select when the user picks another state; `notice` goes under
 * the select (what the last change did, with Undo).
 */
export const campaignRow = (
  campaign: RemoteCampaign,
  order: number,
  setState: (select: HTMLSelectElement) => void,
  notice: TemplateResult | typeof nothing = nothing,
): TemplateResult => {
  const warnings = campaign.compatibility ?? [];
  return html`<tr role="row">
    <td role="cell" class="num" data-label="Order">${order}</td>
    <th role="rowheader" scope="row">
      <a href=${routeHash({ name: 'campaign', campaignId: campaign.id })}>${campaign.name}</a>
      ${campaign.slug === null ? nothing : html`<span class="slug mono">${campaign.slug}</span>`}
      ${
        warnings.length === 0
          ? nothing
          : html`<details>
              <summary>
                ${warnings.length} compatibility ${warnings.length === 1 ? 'warning' : 'warnings'}
              </summary>
              <ul>
                ${warnings.map((w) => html`<li><code>${w.path}</code>: ${w.message}</li>`)}
              </ul>
            </details>`
      }
    </th>
    <td role="cell" data-label="Type">${typeName(campaign.type)}</td>
    <td role="cell" data-label="State">
      <span class="badge ${campaign.state}">${STATE_LABELS[campaign.state]}</span>
    </td>
    <td role="cell" class="num" data-label="Traffic">${trafficText(campaign)}</td>
    <td role="cell" class="num" data-label="Variations">${variationCount(campaign)}</td>
    <td role="cell" data-label="Last change">
      <time datetime=${campaign.updated_at} title=${new Date(campaign.updated_at).toLocaleString()}
        >${relativeTime(campaign.updated_at)}</time
      >
    </td>
    <td role="cell" data-label="Actions">
      <div class="actions">
        <a href=${routeHash({ name: 'report', campaignId: campaign.id })}
          >Report<span class="visually-hidden"> of ${campaign.name}</span></a
        >
        <select
          aria-label=${`State of ${campaign.name}`}
          data-campaign=${campaign.id}
          ?disabled=${campaign.state === 'interrupted'}
          .value=${live(campaign.state)}
          @change=${(event: Event) => setState(event.target as HTMLSelectElement)}
        >
          ${STATES.map((s) => html`<option value=${s} ?selected=${s === campaign.state}>${STATE_LABELS[s]}</option>`)}
        </select>
      </div>
      ${notice}
    </td>
  </tr>`;
};
