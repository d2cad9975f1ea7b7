// The group → role and email domain → role rows of the single sign-on form (sso-form.ts): each row's
// value, its role and a Remove, then an Add. The server's message about a row is said under it.
import { html, nothing, type TemplateResult } from 'lit';
import { ROLES, type Role } from '../roles.js';

/** One row being edited: the group (or email domain) and the role it gives. */
export interface MapRow {
  key: string;
  role: Role;
}

/** Which rows: `group_roles` or `domain_roles`. */
export type MapKind = 'group' | 'domain';

/**
 * The rows of `kind` in a fieldset. `current` reads the rows when an event runs (two events before the next
 * render must not undo each other); `set` stores the edited rows; `errors` are the server's messages by path.
 */
export const roleRows = (
  kind: MapKind,
  current: () => readonly MapRow[],
  errors: ReadonlyMap<string, string>,
  set: (next: readonly MapRow[]) => void,
): TemplateResult => {
  const edit = (index: number, change: Partial<MapRow>) =>
    set(current().map((r, i) => (i === index ? { ...r, ...change } : r)));
  const what = kind === 'group' ? 'group' : 'email domain';
  return html`<fieldset class="map">
    <legend>${kind === 'group' ? 'Groups → roles' : 'Email domains → roles'}</legend>
    ${current().map((row, index) => {
      const id = `${kind}-${index}`;
      const error = errors.get(`${kind}_roles[${index}].${kind}`) ?? errors.get(`${kind}_roles[${index}]`);
      return html`<div class="field">
        <div class="row">
          <label class="visually-hidden" for=${id}
            >${kind === 'group' ? 'Group' : 'Email domain'} ${index + 1}</label
          >
          <input
            id=${id}
            type="text"
            .value=${row.key}
            placeholder=${kind === 'group' ? 'feature-admins' : 'example.com'}
            aria-invalid=${error === undefined ? 'false' : 'true'}
            aria-describedby=${error === undefined ? nothing : `${id}-error`}
            @input=${(e: Event) => edit(index, { key: (e.target as HTMLInputElement).value })}
          />
          <label class="visually-hidden" for="${id}-role">Role of ${what} ${index + 1}</label>
          <select
            id="${id}-role"
            @change=${(e: Event) => edit(index, { role: (e.target as HTMLSelectElement).value as Role })}
          >
            ${ROLES.map((r) => html`<option value=${r} ?selected=${r === row.role}>${r}</option>`)}
          </select>
          <button
            type="button"
            class="secondary danger"
            @click=${() => set(current().filter((_, i) => i !== index))}
          >
            Remove<span class="visually-hidden"> ${what} ${index + 1}</span>
          </button>
        </div>
        ${error === undefined ? nothing : html`<p id="${id}-error" class="error">${error}</p>`}
      </div>`;
    })}
    <button type="button" class="secondary" @click=${() => set([...current(), { key: '', role: 'viewer' }])}>
      Add ${kind === 'group' ? 'a group' : 'an email domain'}
    </button>
  </fieldset>`;
};
