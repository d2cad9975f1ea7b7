// The flags of a variation group as a grid: one row per flag (its key and type, typed once for the whole group),
// one column per variation, and in each cell that variation's value, typed as its row says. A key renamed in its
// row is renamed in every variation; a row added gets a cell in every variation. A cell can be set to "Not set
// (default)" (null: the page shows its default, on purpose); a cell never filled in is marked, and saving warns
// about it (missing-flags.ts). Long text and JSON grow with their content and open in a wide editor.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { GroupDraft, VariationDraft } from './campaign-draft.js';
import {
  addFlagRow,
  flagKeyPath,
  removeFlagRow,
  type FlagCellDraft,
  type FlagRowDraft,
} from './flag-rows.js';
import {
  FLAG_TYPES,
  FLAG_TYPE_LABELS,
  flagPath,
  parseFlagValue,
  retypeText,
  type FlagType,
} from './flag-values.js';
import { described, errorSlot, fieldId, valueOf, type FormKit } from './form-kit.js';
import { cellId } from './missing-flags.js';
import { scrollRegion } from '../widgets/scroll-region.js';
import { editWide } from '../widgets/wide-editor.js';

/** What a column is called: the variation's name, or its place when it has none yet. */
export const variationLabel = (variation: VariationDraft, k: number): string =>
  variation.name.trim() === '' ? `Variation ${k + 1}` : variation.name.trim();

const flagLabel = (row: FlagRowDraft, f: number): string =>
  row.key.trim() === '' ? `flag ${f + 1}` : row.key.trim();

const setText = (cell: FlagCellDraft, text: string): void => {
  cell.text = text;
  cell.state = 'value';
};

const valueControl = (
  kit: FormKit,
  row: FlagRowDraft,
  cell: FlagCellDraft,
  ids: { id: string; path: string; name: string },
): TemplateResult => {
  const { id, path, name } = ids;
  // A JSON or number error shows as it is typed; the server's message for the same path wins when there is one.
  const parsed = cell.state === 'value' ? parseFlagValue(row.type, cell.text) : { ok: true as const };
  const message = kit.error(path) ?? (parsed.ok ? undefined : parsed.error);
  const { describedBy } = described(kit, path);
  const invalid = message === undefined ? 'false' : 'true';
  const aria = message === undefined ? describedBy : `${id}-error`;
  const missing = cell.state === 'missing';
  const onInput = (event: Event): void => {
    setText(cell, valueOf(event));
    kit.changed();
  };
  let control: TemplateResult;
  if (row.type === 'boolean')
    control = html`<select
      id=${id}
      class=${missing ? 'missing' : ''}
      data-path=${path}
      aria-label=${name}
      aria-invalid=${invalid}
      aria-describedby=${aria}
      @change=${onInput}
    >
      ${missing || cell.text === '' ? html`<option value="" selected>Not filled in</option>` : nothing}
      <option value="true" ?selected=${cell.text === 'true'}>true</option>
      <option value="false" ?selected=${cell.text === 'false'}>false</option>
    </select>`;
  else if (row.type === 'number')
    control = html`<input
      id=${id}
      class=${missing ? 'missing' : ''}
      data-path=${path}
      type="text"
      inputmode="decimal"
      spellcheck="false"
      placeholder=${missing ? 'Not filled in' : nothing}
      aria-label=${name}
      aria-invalid=${invalid}
      aria-describedby=${aria}
      .value=${live(cell.text)}
      @input=${onInput}
    />`;
  else
    control = html`<div class="cell-text">
      <textarea
        id=${id}
        class="${row.type} ${missing ? 'missing' : ''}"
        data-path=${path}
        rows="1"
        spellcheck=${row.type === 'json' ? 'false' : 'true'}
        placeholder=${missing ? 'Not filled in' : nothing}
        aria-label=${name}
        aria-invalid=${invalid}
        aria-describedby=${aria}
        .value=${live(cell.text)}
        @input=${onInput}
      ></textarea>
      <button
        type="button"
        class="linklike expand"
        @click=${async () => {
          const text = await editWide(name, cell.text, row.type === 'json');
          if (text === null) return;
          setText(cell, text);
          kit.changed();
        }}
      >
        Expand<span class="visually-hidden"> ${name}</span>
      </button>
    </div>`;
  return html`${control}${message === undefined ? nothing : html`<p id=${`${id}-error`} class="error">${message}</p>`}`;
};

const cellEditor = (
  kit: FormKit,
  row: FlagRowDraft,
  variation: VariationDraft,
  at: { g: number; f: number; k: number },
): TemplateResult => {
  const { g, f, k } = at;
  const cell = variation.cells[f] ?? (variation.cells[f] = { state: 'missing', text: '' });
  const name = `${flagLabel(row, f)} in ${variationLabel(variation, k)}`;
  const id = cellId(g, f, k);
  const path = flagPath(`variation_groups[${g}].variations[${k}].modifications.value`, row.key.trim());
  // data-variation: the column's name, shown above the cell when the grid is stacked on a narrow screen.
  return html`<td
    data-testid=${`flag-cell-${g}-${f}-${k}`}
    data-variation=${variation.reference ? `${variationLabel(variation, k)} (reference)` : variationLabel(variation, k)}
    class=${`cell-${cell.state}`}
  >
    ${
      cell.state === 'unset'
        ? html`<p class="hint unset-note" id=${id}>Not set: the page shows its default.</p>`
        : valueControl(kit, row, cell, { id, path, name })
    }
    <label class="unset">
      <input
        type="checkbox"
        .checked=${live(cell.state === 'unset')}
        @change=${(event: Event) => {
          const unset = (event.target as HTMLInputElement).checked;
          cell.state = unset ? 'unset' : cell.text === '' ? 'missing' : 'value';
          kit.changed();
        }}
      />
      Not set (default)<span class="visually-hidden">: ${name}</span>
    </label>
  </td>`;
};

const rowHeader = (
  kit: FormKit,
  group: GroupDraft,
  row: FlagRowDraft,
  g: number,
  f: number,
): TemplateResult => {
  const keyPath = flagKeyPath(`variation_groups[${g}]`, f);
  const key = described(kit, keyPath);
  const typeId = `${fieldId(keyPath)}-type`;
  return html`<th scope="row">
    <label class="visually-hidden" for=${fieldId(keyPath)}>Key of flag ${f + 1}</label>
    <input
      id=${fieldId(keyPath)}
      type="text"
      class="flag-key"
      spellcheck="false"
      autocomplete="off"
      placeholder="flag key"
      aria-invalid=${key.invalid}
      aria-describedby=${key.describedBy}
      .value=${live(row.key)}
      @input=${(event: Event) => ((row.key = valueOf(event)), kit.changed())}
    />
    ${errorSlot(kit, keyPath)}
    <div class="row flag-type">
      <label class="visually-hidden" for=${typeId}>Type of flag ${f + 1}</label>
      <select
        id=${typeId}
        @change=${(event: Event) => {
          const type = valueOf(event) as FlagType;
          for (const v of group.variations) {
            const cell = v.cells[f];
            if (cell === undefined) continue;
            cell.text = retypeText(row.type, type, cell.text);
            // Nothing left to keep (a word is no number): the cell is to be filled in again, and says so.
            if (cell.state === 'value' && cell.text === '' && type !== 'string') cell.state = 'missing';
          }
          row.type = type;
          kit.changed();
        }}
      >
        ${FLAG_TYPES.map((t) => html`<option value=${t} ?selected=${t === row.type}>${FLAG_TYPE_LABELS[t]}</option>`)}
      </select>
      <button
        type="button"
        class="secondary danger"
        @click=${() => (removeFlagRow(group.flags, group.variations, f), kit.changed())}
      >
        Remove<span class="visually-hidden"> flag ${flagLabel(row, f)}</span>
      </button>
    </div>
  </th>`;
};

/** The flags grid of group `g` (0-based): its rows, a column per variation, and "Add flag". */
export const flagGrid = (kit: FormKit, group: GroupDraft, g: number): TemplateResult => {
  const at = `variation_groups[${g}]`;
  const table = html`<table class="flag-grid" data-testid=${`flag-grid-${g}`}>
    <caption class="visually-hidden">
      Flags of group ${g + 1}: one row per flag, one column per variation
    </caption>
    <thead>
      <tr>
        <th scope="col" class="flag-col">Flag (key, type)</th>
        ${group.variations.map(
          (v, k) =>
            html`<th scope="col" data-testid=${`flag-col-${g}-${k}`}>
              ${variationLabel(v, k)}${v.reference ? html` <span class="badge reference">Reference</span>` : nothing}
              ${errorSlot(kit, `${at}.variations[${k}].modifications`)}
              ${errorSlot(kit, `${at}.variations[${k}].modifications.type`)}
              ${errorSlot(kit, `${at}.variations[${k}].modifications.value`)}
            </th>`,
        )}
      </tr>
    </thead>
    <tbody>
      ${group.flags.map(
        (row, f) =>
          html`<tr data-testid=${`flag-row-${g}-${f}`}>
            ${rowHeader(kit, group, row, g, f)}
            ${group.variations.map((v, k) => cellEditor(kit, row, v, { g, f, k }))}
          </tr>`,
      )}
    </tbody>
  </table>`;
  return html`<div class="flags" data-testid=${`flags-${g}`}>
    <h3 class="subhead">Flags</h3>
    <p class="hint" id=${`flags-hint-${g}`}>
      One row per flag the variations set, one column per variation. “Not set (default)” leaves the page's own
      default, on purpose (the reference often does).
    </p>
    ${
      group.flags.length === 0
        ? html`<p class="hint">No flag yet: the variations change nothing. Add the flags they set.</p>`
        : scrollRegion(`Flags of group ${g + 1}`, table)
    }
    <button
      type="button"
      class="secondary"
      id=${fieldId(`${at}.flags`)}
      @click=${() => (addFlagRow(group.flags, group.variations), kit.changed())}
    >
      Add flag
    </button>
  </div>`;
};
