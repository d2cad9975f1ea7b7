// The targeting rule builder of one variation group: targeting groups (any may match: OR) of rules (all must
// match: AND). The value input follows the operator and the chosen value type (targeting-values.ts); the key
// fs_all_users is offered as a one-click preset, since it is what "everyone" means to the engine.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { allUsersRule, blankRule, type GroupDraft, type TargetingDraft } from './campaign-draft.js';
import { described, errorSlot, fieldId, valueOf, type FormKit } from './form-kit.js';
import {
  ALL_USERS_KEY,
  COMMON_KEYS,
  KIND_LABELS,
  OPERATORS,
  OPERATOR_LABELS,
  kindsFor,
  type ValueKind,
} from './targeting-values.js';

/** The id of the datalist of common context keys (rendered once by the editor). */
export const KEYS_LIST_ID = 'targeting-keys';

/** The datalist of common context keys, for the key inputs. */
export const keysDatalist = (): TemplateResult =>
  html`<datalist id=${KEYS_LIST_ID}>
    ${COMMON_KEYS.map(([key, what]) => html`<option value=${key}>${what}</option>`)}
  </datalist>`;

const HINTS: Partial<Record<ValueKind, string>> = {
  version: 'A version: 1.2.3, 2.4 (= 2.4.0), v3 or 2.0.0-rc.1.',
  'text-list': 'One per line, or separated by commas. Matches when any item matches (NOT_ operators: none).',
  'number-list':
    'One per line, or separated by commas. Matches when any item matches (NOT_ operators: none).',
  'version-list': 'One per line, or separated by commas. Matches when any version matches (NOT_: none).',
  json: 'Any JSON value, sent as written.',
};

const setOperator = (rule: TargetingDraft, operator: string): void => {
  rule.operator = operator;
  const kinds = kindsFor(operator);
  if (!kinds.includes(rule.kind)) {
    rule.kind = kinds[0] ?? 'text';
    if (rule.kind === 'boolean') rule.text = 'true';
  }
};

const setKind = (rule: TargetingDraft, kind: ValueKind): void => {
  rule.kind = kind;
  if (kind === 'boolean') rule.text = rule.text === 'false' ? 'false' : 'true';
};

const valueInput = (kit: FormKit, rule: TargetingDraft, path: string): TemplateResult => {
  const id = fieldId(path);
  const hint = HINTS[rule.kind];
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  const { invalid, describedBy } = described(kit, path, hintId);
  const onInput = (event: Event): void => {
    rule.text = valueOf(event);
    kit.changed();
  };
  let input: TemplateResult;
  if (rule.kind === 'boolean')
    input = html`<select id=${id} aria-invalid=${invalid} aria-describedby=${describedBy} @change=${onInput}>
      <option value="true" ?selected=${rule.text === 'true'}>true</option>
      <option value="false" ?selected=${rule.text === 'false'}>false</option>
    </select>`;
  else if (rule.kind.endsWith('-list') || rule.kind === 'json')
    input = html`<textarea
      id=${id}
      rows="2"
      spellcheck="false"
      aria-invalid=${invalid}
      aria-describedby=${describedBy}
      .value=${live(rule.text)}
      @input=${onInput}
    ></textarea>`;
  else
    input = html`<input
      id=${id}
      type="text"
      inputmode=${rule.kind === 'number' ? 'decimal' : nothing}
      spellcheck="false"
      placeholder=${rule.kind === 'version' ? '1.2.3' : nothing}
      aria-invalid=${invalid}
      aria-describedby=${describedBy}
      .value=${live(rule.text)}
      @input=${onInput}
    />`;
  return html`<div class="field rule-value">
    <label for=${id}>Value</label>${input}
    ${hint === undefined ? nothing : html`<p id=${hintId} class="hint">${hint}</p>`} ${errorSlot(kit, path)}
  </div>`;
};

const ruleRow = (
  kit: FormKit,
  rules: TargetingDraft[],
  rule: TargetingDraft,
  path: string,
  testId: string,
  label: string,
): TemplateResult => {
  const keyPath = `${path}.key`;
  const opPath = `${path}.operator`;
  const key = described(kit, keyPath);
  const op = described(kit, opPath);
  const allUsers = rule.key.trim() === ALL_USERS_KEY;
  const kinds = kindsFor(rule.operator);
  const kindId = `${fieldId(path)}-kind`;
  return html`<div class="rule" data-testid=${testId} role="group" aria-label=${label}>
    <div class="field">
      <label for=${fieldId(keyPath)}>Targeting key</label>
      <input
        id=${fieldId(keyPath)}
        type="text"
        list=${KEYS_LIST_ID}
        spellcheck="false"
        autocomplete="off"
        aria-invalid=${key.invalid}
        aria-describedby=${key.describedBy}
        .value=${live(rule.key)}
        @input=${(event: Event) => {
          rule.key = valueOf(event);
          kit.changed();
        }}
      />
      ${errorSlot(kit, keyPath)}
    </div>
    <div class="field">
      <label for=${fieldId(opPath)}>Operator</label>
      <select
        id=${fieldId(opPath)}
        aria-invalid=${op.invalid}
        aria-describedby=${op.describedBy}
        @change=${(event: Event) => {
          setOperator(rule, valueOf(event));
          kit.changed();
        }}
      >
        ${OPERATORS.map(
          (o) =>
            html`<option value=${o} title=${o} ?selected=${o === rule.operator}>
              ${OPERATOR_LABELS[o as keyof typeof OPERATOR_LABELS]}
            </option>`,
        )}
      </select>
      ${errorSlot(kit, opPath)}
    </div>
    ${
      allUsers || kinds[0] === 'none'
        ? html`<p class="hint rule-note">
            ${allUsers ? 'Matches every visitor: no value needed.' : 'No value: the operator only checks the key.'}
          </p>`
        : html`${
            kinds.length > 1
              ? html`<div class="field">
                  <label for=${kindId}>Value type</label>
                  <select
                    id=${kindId}
                    @change=${(event: Event) => (setKind(rule, valueOf(event) as ValueKind), kit.changed())}
                  >
                    ${kinds.map((k) => html`<option value=${k} ?selected=${k === rule.kind}>${KIND_LABELS[k]}</option>`)}
                  </select>
                </div>`
              : nothing
          }
          ${valueInput(kit, rule, `${path}.value`)}`
    }
    <button
      type="button"
      class="secondary danger small"
      @click=${() => {
        rules.splice(rules.indexOf(rule), 1);
        kit.changed();
      }}
    >
      Remove targeting<span class="visually-hidden">: ${label}</span>
    </button>
  </div>`;
};

/** The targeting of group `g` (0-based). */
export const targetingEditor = (kit: FormKit, group: GroupDraft, g: number): TemplateResult => {
  const base = `variation_groups[${g}].targeting`;
  return html`<fieldset class="targeting" data-testid=${`targeting-${g}`}>
    <legend>Who gets group ${g + 1}</legend>
    <p class="hint" id=${`${fieldId(base)}-hint`}>
      A visitor matches when <strong>any</strong> targeting group matches (OR); a targeting group matches when
      <strong>all</strong> its targetings match (AND). Groups are tried in order: the first that matches wins.
    </p>
    ${errorSlot(kit, base)} ${errorSlot(kit, `${base}.targeting_groups`)}
    ${
      group.targetingGroups.length === 0
        ? html`<p class="notice warning">
            No targeting: nobody gets this group. Add a targeting group, or target all users.
          </p>`
        : nothing
    }
    ${group.targetingGroups.map((rules, j) => {
      const at = `${base}.targeting_groups[${j}]`;
      return html`${j > 0 ? html`<p class="joiner">or</p>` : nothing}
        <fieldset class="targeting-group" data-testid=${`targeting-${g}-${j}`}>
          <legend>Targeting group ${j + 1}</legend>
          ${errorSlot(kit, at)} ${errorSlot(kit, `${at}.targetings`)}
          ${rules.length === 0 ? html`<p class="hint">No targeting yet: this targeting group never matches.</p>` : nothing}
          ${rules.map(
            (rule, r) =>
              html`${r > 0 ? html`<p class="joiner">and</p>` : nothing}
              ${ruleRow(kit, rules, rule, `${at}.targetings[${r}]`, `targeting-${g}-${j}-${r}`, `Targeting ${r + 1} of targeting group ${j + 1}`)}`,
          )}
          <div class="row">
            <button type="button" class="secondary" @click=${() => (rules.push(blankRule()), kit.changed())}>
              Add targeting
            </button>
            <button
              type="button"
              class="secondary danger"
              @click=${() => (group.targetingGroups.splice(j, 1), kit.changed())}
            >
              Remove targeting group<span class="visually-hidden"> ${j + 1}</span>
            </button>
          </div>
        </fieldset>`;
    })}
    <div class="row">
      <button
        type="button"
        class="secondary"
        @click=${() => (group.targetingGroups.push([blankRule()]), kit.changed())}
      >
        Add targeting group
      </button>
      <button
        type="button"
        class="secondary"
        aria-describedby=${`${fieldId(base)}-hint`}
        @click=${() => {
          group.targetingGroups = [[allUsersRule()]];
          kit.changed();
        }}
      >
        Target all users
      </button>
    </div>
  </fieldset>`;
};
