// One variation group of the editor: its name, its targeting (targeting-editor.ts), its variations, each with
// a name, the reference marker (one per group, radios sharing a name) and an allocation, and the grid of the
// flags they set (flag-grid.ts). The sum of the allocations is spoken as it changes, and says what the rest of
// the group's visitors get; a new variation is named and allocated by new-variation.ts.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { allocatedSum, type CampaignDraft, type GroupDraft, type VariationDraft } from './campaign-draft.js';
import { flagGrid, variationLabel } from './flag-grid.js';
import { described, errorSlot, fieldId, valueOf, type FormKit } from './form-kit.js';
import { addVariation } from './new-variation.js';
import { targetingEditor } from './targeting-editor.js';

// What the last "Add variation" did to the other allocations, said with the sum until an allocation is typed.
const rebalanced = new WeakMap<GroupDraft, string>();

const allocationStatus = (group: GroupDraft, g: number): TemplateResult => {
  const sum = allocatedSum(group);
  const rest = 100 - sum;
  const text =
    sum > 100
      ? `Allocated: ${sum} % of 100 %, ${-rest} % too many: lower the allocations.`
      : rest === 0
        ? `Allocated: ${sum} % of 100 %: every visitor of this group gets a variation.`
        : `Allocated: ${sum} % of 100 %. The other ${rest} % of this group's visitors get no variation: they keep the defaults and are left out of the report.`;
  return html`<p
    class="allocation-sum ${sum > 100 ? 'error' : 'hint'}"
    role="status"
    data-testid=${`allocated-${g}`}
  >
    ${text} ${rebalanced.get(group) ?? ''}
  </p>`;
};

const variationEditor = (
  kit: FormKit,
  group: GroupDraft,
  variation: VariationDraft,
  g: number,
  k: number,
): TemplateResult => {
  const at = `variation_groups[${g}].variations[${k}]`;
  const name = described(kit, `${at}.name`);
  const allocation = described(kit, `${at}.allocation`, `${fieldId(at)}-allocation-hint`);
  const reference = described(kit, `${at}.reference`, `f-reference-hint-${g}`);
  return html`<fieldset class="variation" data-testid=${`variation-${g}-${k}`}>
    <legend>
      ${variationLabel(variation, k)}${variation.reference ? html` <span class="badge reference">Reference</span>` : nothing}
    </legend>
    ${errorSlot(kit, at)} ${errorSlot(kit, `${at}.id`)}
    <div class="variation-fields">
      <div class="field">
        <label for=${fieldId(`${at}.name`)}>Variation name</label>
        <input
          id=${fieldId(`${at}.name`)}
          type="text"
          aria-invalid=${name.invalid}
          aria-describedby=${name.describedBy}
          .value=${live(variation.name)}
          @input=${(event: Event) => ((variation.name = valueOf(event)), kit.changed())}
        />
        ${errorSlot(kit, `${at}.name`)}
      </div>
      <div class="field">
        <label for=${fieldId(`${at}.allocation`)}>Allocation (%)</label>
        <input
          id=${fieldId(`${at}.allocation`)}
          type="number"
          min="0"
          max="100"
          step="1"
          inputmode="numeric"
          aria-invalid=${allocation.invalid}
          aria-describedby=${allocation.describedBy}
          .value=${live(variation.allocation)}
          @input=${(event: Event) => {
            variation.allocation = valueOf(event);
            rebalanced.delete(group);
            kit.changed();
          }}
        />
        <p id=${`${fieldId(at)}-allocation-hint`} class="hint">Share of the group's visitors, 0-100.</p>
        ${errorSlot(kit, `${at}.allocation`)}
      </div>
      <div class="field reference-field">
        <input
          id=${fieldId(`${at}.reference`)}
          type="radio"
          name=${`reference-${g}`}
          aria-invalid=${reference.invalid}
          aria-describedby=${reference.describedBy}
          .checked=${live(variation.reference)}
          @change=${() => {
            for (const v of group.variations) v.reference = v === variation;
            kit.changed();
          }}
        />
        <label for=${fieldId(`${at}.reference`)}>Reference</label>
        ${errorSlot(kit, `${at}.reference`)}
      </div>
    </div>
    ${variation.id === null ? nothing : html`<p class="hint">Id <code>${variation.id}</code></p>`}
    <button
      type="button"
      class="secondary danger"
      ?disabled=${group.variations.length === 1}
      @click=${() => {
        group.variations.splice(k, 1);
        rebalanced.delete(group);
        const first = group.variations[0];
        if (variation.reference && first !== undefined) first.reference = true;
        kit.changed();
      }}
    >
      Remove variation<span class="visually-hidden"> ${k + 1} of group ${g + 1}</span>
    </button>
  </fieldset>`;
};

/** Group `g` (0-based) of the draft. */
export const variationGroupEditor = (
  kit: FormKit,
  draft: CampaignDraft,
  group: GroupDraft,
  g: number,
): TemplateResult => {
  const at = `variation_groups[${g}]`;
  const name = described(kit, `${at}.name`);
  const variations = described(kit, `${at}.variations`);
  return html`<fieldset class="group" data-testid=${`group-${g}`}>
    <legend>Variation group ${g + 1}</legend>
    ${errorSlot(kit, at)} ${errorSlot(kit, `${at}.id`)}
    <div class="field">
      <label for=${fieldId(`${at}.name`)}>Group name</label>
      <input
        id=${fieldId(`${at}.name`)}
        type="text"
        aria-invalid=${name.invalid}
        aria-describedby=${name.describedBy}
        .value=${live(group.name)}
        @input=${(event: Event) => ((group.name = valueOf(event)), kit.changed())}
      />
      ${errorSlot(kit, `${at}.name`)}
    </div>
    ${group.id === null ? nothing : html`<p class="hint">Id <code>${group.id}</code></p>`}
    ${targetingEditor(kit, group, g)}
    <div
      class="variations"
      id=${fieldId(`${at}.variations`)}
      tabindex="-1"
      role="group"
      aria-label=${`Variations of group ${g + 1}`}
      aria-describedby=${variations.describedBy}
    >
      <p class="hint" id=${`f-reference-hint-${g}`}>
        Exactly one variation is the <strong>reference</strong>: the baseline the report compares the others
        with (usually the original).
      </p>
      ${allocationStatus(group, g)} ${errorSlot(kit, `${at}.variations`)}
      <div class="variation-list">
        ${group.variations.map((variation, k) => variationEditor(kit, group, variation, g, k))}
      </div>
    </div>
    <div class="row">
      <button
        type="button"
        class="secondary"
        @click=${() => {
          const note = addVariation(group);
          if (note === '') rebalanced.delete(group);
          else rebalanced.set(group, note);
          kit.changed();
        }}
      >
        Add variation
      </button>
      <button
        type="button"
        class="secondary danger"
        ?disabled=${draft.groups.length === 1}
        @click=${() => (draft.groups.splice(g, 1), kit.changed())}
      >
        Remove variation group<span class="visually-hidden"> ${g + 1}</span>
      </button>
    </div>
    ${flagGrid(kit, group, g)}
  </fieldset>`;
};
