// The flags a variation sets (modifications.value): rows of key, type and value. The value input follows the
// type (text, number, true/false, JSON checked with JSON.parse as it is typed, or nothing for null), and each
// row's errors show beside it, under the path the server would name (…modifications.value.btnColor).
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { flagKeyPath, type FlagDraft, type VariationDraft } from './campaign-draft.js';
import {
  FLAG_TYPES,
  FLAG_TYPE_LABELS,
  flagPath,
  parseFlagValue,
  retypeText,
  type FlagType,
} from './flag-values.js';
import { described, errorSlot, fieldId, valueOf, type FormKit } from './form-kit.js';

const valueControl = (kit: FormKit, flag: FlagDraft, path: string, rowId: string): TemplateResult => {
  if (flag.type === 'null')
    return html`<p class="hint flag-value">Not set: visitors of this variation get the flag's default.</p>`;
  const id = `${rowId}-value`;
  // A JSON or number error shows as it is typed; the server's message for the same path wins when there is one.
  const parsed = parseFlagValue(flag.type, flag.text);
  const message = kit.error(path) ?? (parsed.ok ? undefined : parsed.error);
  const { describedBy } = described(kit, path);
  const aria = {
    invalid: message === undefined ? 'false' : 'true',
    describedBy: message === undefined ? describedBy : `${id}-error`,
  };
  const onInput = (event: Event): void => {
    flag.text = valueOf(event);
    kit.changed();
  };
  let control: TemplateResult;
  if (flag.type === 'boolean')
    control = html`<select
      id=${id}
      data-path=${path}
      aria-invalid=${aria.invalid}
      aria-describedby=${aria.describedBy}
      @change=${onInput}
    >
      <option value="true" ?selected=${flag.text === 'true'}>true</option>
      <option value="false" ?selected=${flag.text !== 'true'}>false</option>
    </select>`;
  else if (flag.type === 'json')
    control = html`<textarea
      id=${id}
      data-path=${path}
      rows="3"
      spellcheck="false"
      aria-invalid=${aria.invalid}
      aria-describedby=${aria.describedBy}
      .value=${live(flag.text)}
      @input=${onInput}
    ></textarea>`;
  else
    control = html`<input
      id=${id}
      data-path=${path}
      type="text"
      inputmode=${flag.type === 'number' ? 'decimal' : nothing}
      spellcheck=${flag.type === 'string' ? nothing : 'false'}
      aria-invalid=${aria.invalid}
      aria-describedby=${aria.describedBy}
      .value=${live(flag.text)}
      @input=${onInput}
    />`;
  return html`<div class="field flag-value">
    <label for=${id}>Flag value</label>${control}
    ${message === undefined ? nothing : html`<p id=${`${id}-error`} class="error">${message}</p>`}
  </div>`;
};

/** The flag rows of variation `k` of group `g`. */
export const flagValuesEditor = (
  kit: FormKit,
  variation: VariationDraft,
  g: number,
  k: number,
): TemplateResult => {
  const valuePath = `variation_groups[${g}].variations[${k}].modifications.value`;
  return html`<div class="flags" data-testid=${`flags-${g}-${k}`}>
    <p class="subhead">Flags</p>
    ${errorSlot(kit, `variation_groups[${g}].variations[${k}].modifications`)}
    ${errorSlot(kit, `variation_groups[${g}].variations[${k}].modifications.type`)}
    ${errorSlot(kit, valuePath)}
    ${
      variation.flags.length === 0
        ? html`<p class="hint">No flag yet: this variation changes nothing. Add the flags it sets.</p>`
        : nothing
    }
    ${variation.flags.map((flag, f) => {
      const rowId = fieldId(`${valuePath}[flag ${f + 1}]`);
      const keyPath = flagKeyPath(valuePath, f);
      const key = described(kit, keyPath);
      const path = flagPath(valuePath, flag.key.trim());
      return html`<div
        class="flag-row"
        data-testid=${`flag-${g}-${k}-${f}`}
        role="group"
        aria-label=${`Flag ${f + 1}`}
      >
        <div class="field">
          <label for=${fieldId(keyPath)}>Flag key</label>
          <input
            id=${fieldId(keyPath)}
            type="text"
            spellcheck="false"
            autocomplete="off"
            aria-invalid=${key.invalid}
            aria-describedby=${key.describedBy}
            .value=${live(flag.key)}
            @input=${(event: Event) => ((flag.key = valueOf(event)), kit.changed())}
          />
          ${errorSlot(kit, keyPath)}
        </div>
        <div class="field">
          <label for=${`${rowId}-type`}>Flag type</label>
          <select
            id=${`${rowId}-type`}
            @change=${(event: Event) => {
              const type = valueOf(event) as FlagType;
              flag.text = retypeText(flag.type, type, flag.text);
              flag.type = type;
              kit.changed();
            }}
          >
            ${FLAG_TYPES.map((t) => html`<option value=${t} ?selected=${t === flag.type}>${FLAG_TYPE_LABELS[t]}</option>`)}
          </select>
        </div>
        ${valueControl(kit, flag, path, rowId)}
        <button
          type="button"
          class="secondary danger"
          @click=${() => (variation.flags.splice(f, 1), kit.changed())}
        >
          Remove flag<span class="visually-hidden"> ${flag.key === '' ? f + 1 : flag.key}</span>
        </button>
      </div>`;
    })}
    <button
      type="button"
      class="secondary"
      @click=${() => (variation.flags.push({ key: '', type: 'string', text: '' }), kit.changed())}
    >
      Add flag
    </button>
  </div>`;
};
