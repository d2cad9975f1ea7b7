// Two parts of the campaign editor kept out of its element: the error summary of a refused save (every message
// with its field path, a button to the field when it has an input) and the state control of a stored campaign.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { RemoteCampaign } from 'feature-ts/protocol';
import { STATES, STATE_HINTS, STATE_LABELS } from './campaign-state.js';

/**
 * The summary of a refused save: `summary` holds [path, message] pairs ('' for no path); `placed` says which
 * paths have an input, which `goTo` focuses.
 */
export const errorSummary = (
  summary: ReadonlyArray<readonly [string, string]>,
  placed: ReadonlySet<string>,
  goTo: (path: string) => void,
): TemplateResult | typeof nothing => {
  if (summary.length === 0) return nothing;
  return html`<div id="error-summary" class="notice danger" role="alert" tabindex="-1">
    <h2>The campaign was not saved</h2>
    <ul>
      ${summary.map(
        ([path, message]) =>
          html`<li>
            ${path === '' ? nothing : html`<code>${path}</code>: `}${message}
            ${
              path !== '' && placed.has(path)
                ? html`<button type="button" class="linklike" @click=${() => goTo(path)}>
                    Go to the field
                  </button>`
                : nothing
            }
          </li>`,
      )}
    </ul>
  </div>`;
};

/** The state select of a stored campaign (changed at once through the toggle route by `onChange`). */
export const stateControl = (
  campaign: RemoteCampaign,
  onChange: (select: HTMLSelectElement) => void,
): TemplateResult =>
  html`<div class="field">
    <label for="campaign-state">Campaign state</label>
    <select
      id="campaign-state"
      aria-describedby="campaign-state-hint"
      ?disabled=${campaign.state === 'interrupted'}
      .value=${live(campaign.state)}
      @change=${(event: Event) => onChange(event.target as HTMLSelectElement)}
    >
      ${STATES.map((s) => html`<option value=${s} ?selected=${s === campaign.state}>${STATE_LABELS[s]}</option>`)}
    </select>
    <p id="campaign-state-hint" class="hint">
      <span class="badge ${campaign.state}">${STATE_LABELS[campaign.state]}</span>
      ${STATE_HINTS[campaign.state]}. Changes apply at once, without saving.
    </p>
  </div>`;
