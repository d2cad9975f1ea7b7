// The single sign-on form (sso-settings-view.ts): the provider's fields, the client secret (Set with a Replace
// while one is stored), the group and email domain rows (sso-role-rows.ts), the switch, the redirect URI to
// register, and Save and Remove. A template over what the view holds, not an element: the view owns the draft,
// loads and saves; the form only draws it and hands every edit back.
import { html, nothing, type TemplateResult } from 'lit';
import type { SsoSettings } from '../types.js';
import '../widgets/copy-button.js';
import { roleRows, type MapKind, type MapRow } from './sso-role-rows.js';

/** The text fields and the switch as edited. */
export interface SsoDraft {
  name: string;
  issuer: string;
  client_id: string;
  groups_claim: string;
  enabled: boolean;
}

/** What the form shows, and what its inputs and buttons do. */
export interface SsoFormState {
  /** The stored settings (null: none yet). */
  settings: SsoSettings | null;
  draft: SsoDraft;
  /** Whether the secret input is shown (always when nothing is stored). */
  replacingSecret: boolean;
  saveError: string;
  /** The server's messages by field path (`issuer`, `group_roles[0].group`…). */
  fieldErrors: ReadonlyMap<string, string>;
  /** The rows of `kind` as they are now (read when an event runs, not when the rows were drawn). */
  rows: (kind: MapKind) => readonly MapRow[];
  setRows: (kind: MapKind, rows: readonly MapRow[]) => void;
  /** Changes these fields of the draft as it is when the event runs (two inputs before a render both count). */
  edit: (change: Partial<SsoDraft>) => void;
  replaceSecret: () => void;
  save: (event: Event) => void;
  remove: () => void;
}

/** A text input bound to `draft[field]`, with the server's message about it under it. */
const text = (
  form: SsoFormState,
  field: 'name' | 'issuer' | 'client_id' | 'groups_claim',
  label: string,
  hint: string,
): TemplateResult => {
  const id = `sso-${field}`;
  const error = form.fieldErrors.get(field);
  return html`<div class="field">
    <label for=${id}>${label} <span class="hint">${hint}</span></label>
    <input
      id=${id}
      type=${field === 'issuer' ? 'url' : 'text'}
      .value=${form.draft[field]}
      aria-invalid=${error === undefined ? 'false' : 'true'}
      aria-describedby=${error === undefined ? nothing : `${id}-error`}
      @input=${(e: Event) => form.edit({ [field]: (e.target as HTMLInputElement).value })}
    />
    ${error === undefined ? nothing : html`<p id="${id}-error" class="error">${error}</p>`}
  </div>`;
};

const secret = (form: SsoFormState): TemplateResult => {
  const error = form.fieldErrors.get('client_secret');
  if (!form.replacingSecret)
    return html`<div class="field">
      <p class="row" id="sso-secret-label">
        <strong>Client secret</strong> Set
        <button type="button" class="secondary" @click=${() => form.replaceSecret()}>
          Replace<span class="visually-hidden"> the client secret</span>
        </button>
      </p>
    </div>`;
  return html`<div class="field">
    <label for="sso-secret"
      >Client secret
      <span class="hint"
        >${form.settings === null ? 'as the provider issued it' : 'empty keeps the stored one'}</span
      ></label
    >
    <input
      id="sso-secret"
      type="password"
      autocomplete="off"
      aria-invalid=${error === undefined ? 'false' : 'true'}
      aria-describedby=${error === undefined ? nothing : 'sso-secret-error'}
    />
    ${error === undefined ? nothing : html`<p id="sso-secret-error" class="error">${error}</p>`}
  </div>`;
};

/** The rows of `kind`, edited in place. */
const map = (form: SsoFormState, kind: MapKind): TemplateResult =>
  roleRows(
    kind,
    () => form.rows(kind),
    form.fieldErrors,
    (next) => form.setRows(kind, next),
  );

/** The form of the single sign-on settings. */
export const ssoForm = (form: SsoFormState): TemplateResult => {
  const stored = form.settings;
  return html`<form class="card" aria-labelledby="sso-title" novalidate @submit=${(e: Event) => form.save(e)}>
    <h2 id="sso-title">Provider</h2>
    ${text(form, 'name', 'Button name', 'the sign-in says "Sign in with <name>"')}
    ${text(form, 'issuer', 'Issuer URL', 'exactly as its /.well-known/openid-configuration names it')}
    ${text(form, 'client_id', 'Client id', '')} ${secret(form)}
    ${text(form, 'groups_claim', 'Groups claim', 'the ID token claim that holds the groups')}
    <p class="hint">The highest role among the matching groups and email domain wins; no match, no entry.</p>
    ${map(form, 'group')} ${map(form, 'domain')}
    <div class="field">
      <label class="row"
        ><input
          type="checkbox"
          .checked=${form.draft.enabled}
          @change=${(e: Event) => form.edit({ enabled: (e.target as HTMLInputElement).checked })}
        />
        Offer single sign-on at the sign-in</label
      >
    </div>
    ${
      stored === null
        ? nothing
        : html`<div class="field">
            <p><strong>Redirect URI</strong> <span class="hint">register it at the provider</span></p>
            <p class="row">
              <code>${stored.redirect_uri}</code>
              <copy-button .value=${stored.redirect_uri} label="redirect URI"></copy-button>
            </p>
          </div>`
    }
    ${form.saveError === '' ? nothing : html`<p class="error" role="alert">Not saved: ${form.saveError}</p>`}
    <div class="row">
      <button type="submit">Save</button>
      ${
        stored === null
          ? nothing
          : html`<button type="button" class="secondary danger" @click=${() => form.remove()}>
              Remove single sign-on
            </button>`
      }
    </div>
  </form>`;
};
