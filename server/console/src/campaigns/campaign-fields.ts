// The campaign-level fields of the editor: name, description, slug, type (each type explained), the state a new
// campaign starts in, its traffic share (bucket_ranges; custom ranges kept until a share is typed) and, when
// editing, its position in the environment's order.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { CAMPAIGN_TYPES, type CampaignState } from 'feature-ts/protocol';
import type { CampaignDraft } from './campaign-draft.js';
import { TYPE_INFO } from './campaign-list.js';
import { STATE_HINTS, STATE_LABELS } from './campaign-state.js';
import { described, errorSlot, fieldId, valueOf, type FormKit } from './form-kit.js';

const textField = (
  kit: FormKit,
  draft: CampaignDraft,
  field: 'name' | 'slug',
  label: string,
  hint?: string,
): TemplateResult => {
  const hintId = hint === undefined ? undefined : `${fieldId(field)}-hint`;
  const aria = described(kit, field, hintId);
  return html`<div class="field">
    <label for=${fieldId(field)}>${label}</label>
    <input
      id=${fieldId(field)}
      type="text"
      maxlength="256"
      autocomplete="off"
      ?required=${field === 'name'}
      aria-invalid=${aria.invalid}
      aria-describedby=${aria.describedBy}
      .value=${live(draft[field])}
      @input=${(event: Event) => ((draft[field] = valueOf(event)), kit.changed())}
    />
    ${hint === undefined ? nothing : html`<p id=${hintId} class="hint">${hint}</p>`} ${errorSlot(kit, field)}
  </div>`;
};

const typeField = (kit: FormKit, draft: CampaignDraft): TemplateResult => {
  const aria = described(kit, 'type', 'f-type-hint');
  const types: readonly string[] = CAMPAIGN_TYPES.includes(draft.type as (typeof CAMPAIGN_TYPES)[number])
    ? CAMPAIGN_TYPES
    : [...CAMPAIGN_TYPES, draft.type];
  return html`<div class="field">
    <label for="f-type">Campaign type</label>
    <select
      id="f-type"
      aria-invalid=${aria.invalid}
      aria-describedby=${aria.describedBy}
      @change=${(event: Event) => ((draft.type = valueOf(event)), kit.changed())}
    >
      ${types.map((t) => html`<option value=${t} ?selected=${t === draft.type}>${TYPE_INFO[t]?.name ?? t}</option>`)}
    </select>
    <ul id="f-type-hint" class="hint type-hints">
      ${CAMPAIGN_TYPES.map(
        (t) =>
          html`<li class=${t === draft.type ? 'chosen' : ''}>
            <strong>${TYPE_INFO[t]?.name}</strong>: ${TYPE_INFO[t]?.hint}.
          </li>`,
      )}
      <li>The type is reported with each decision; all four are decided alike.</li>
    </ul>
    ${errorSlot(kit, 'type')}
  </div>`;
};

const trafficField = (kit: FormKit, draft: CampaignDraft): TemplateResult => {
  const aria = described(kit, 'bucket_ranges', 'f-bucket_ranges-hint');
  const custom = draft.customRanges;
  return html`<div class="field">
    <label for="f-bucket_ranges">Traffic share (%)</label>
    <input
      id="f-bucket_ranges"
      type="number"
      min="0.01"
      max="100"
      step="any"
      inputmode="decimal"
      aria-invalid=${aria.invalid}
      aria-describedby=${aria.describedBy}
      .value=${live(draft.share)}
      @input=${(event: Event) => {
        draft.share = valueOf(event);
        draft.customRanges = null;
        kit.changed();
      }}
    />
    <p id="f-bucket_ranges-hint" class="hint">
      ${
        custom === null
          ? 'The share of all visitors the campaign applies to (traffic buckets 0 up to this share); the others never get it.'
          : `Custom traffic ranges, kept as they are: ${custom.map(([from, to]) => `${from}–${to} %`).join(', ')}. Typing a share replaces them with 0 up to that share.`
      }
    </p>
    ${errorSlot(kit, 'bucket_ranges')}
    ${custom?.map((_, i) => errorSlot(kit, `bucket_ranges[${i}]`)) ?? nothing}
  </div>`;
};

/** The campaign-level fields; `creating` shows the initial state, `count` (editing) the position. */
export const campaignFields = (
  kit: FormKit,
  draft: CampaignDraft,
  creating: boolean,
  count: number | null,
): TemplateResult => {
  const description = described(kit, 'description');
  const position = described(kit, 'position', 'f-position-hint');
  const state = described(kit, 'state', 'f-state-hint');
  return html`<div class="grid">
      ${textField(kit, draft, 'name', 'Campaign name')}
      ${textField(kit, draft, 'slug', 'Slug (optional)', 'A short unique name to find the campaign by (reports, CLI).')}
    </div>
    <div class="field">
      <label for="f-description">Description</label>
      <textarea
        id="f-description"
        rows="2"
        aria-invalid=${description.invalid}
        aria-describedby=${description.describedBy}
        .value=${live(draft.description)}
        @input=${(event: Event) => ((draft.description = valueOf(event)), kit.changed())}
      ></textarea>
      ${errorSlot(kit, 'description')}
    </div>
    ${typeField(kit, draft)}
    <div class="grid">
      ${
        creating
          ? html`<div class="field">
              <label for="f-state">State on creation</label>
              <select
                id="f-state"
                aria-invalid=${state.invalid}
                aria-describedby=${state.describedBy}
                @change=${(event: Event) => ((draft.state = valueOf(event) as CampaignState), kit.changed())}
              >
                ${(['active', 'paused'] as const).map(
                  (s) => html`<option value=${s} ?selected=${s === draft.state}>${STATE_LABELS[s]}</option>`,
                )}
              </select>
              <p id="f-state-hint" class="hint">${STATE_LABELS[draft.state]}: ${STATE_HINTS[draft.state]}.</p>
              ${errorSlot(kit, 'state')}
            </div>`
          : nothing
      }
      ${trafficField(kit, draft)}
      ${
        creating
          ? nothing
          : html`<div class="field">
              <label for="f-position">Position in the environment's order</label>
              <input
                id="f-position"
                type="number"
                min="1"
                step="1"
                inputmode="numeric"
                aria-invalid=${position.invalid}
                aria-describedby=${position.describedBy}
                .value=${live(draft.position)}
                @input=${(event: Event) => ((draft.position = valueOf(event)), kit.changed())}
              />
              <p id="f-position-hint" class="hint">
                1 is first${count === null ? '' : ` of ${count}`}: decisions try the campaigns in this order.
                Past the end means last.
              </p>
              ${errorSlot(kit, 'position')}
            </div>`
      }
    </div>`;
};
