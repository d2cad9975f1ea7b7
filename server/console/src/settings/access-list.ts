// The accesses of the account, below the creation panel (SPEC.md: "Accesses can be previewed and revoked in the
// panel below the creation panel"). Only the fields the specification names are shown: name, client id,
// environments, actions, dates and state. Revoking is final, so it asks first.
import { LitElement, css, html, nothing } from 'lit';
import { seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';
import type { Access } from '../types.js';
import { confirmAction } from '../widgets/confirm.js';
import { actionCode, actionLabel, shortDateTime } from './action-labels.js';

/** An access's details as read by Preview, or why they could not be. */
type Preview = { access: Access } | { error: string } | 'loading';

/**
 * The account's accesses with Preview and Revoke.
 * @summary Remote control accesses list.
 * @fires {CustomEvent<Access>} access-changed - An access was revoked (detail: as the server has it now).
 */
export class AccessList extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .table-wrap {
        /* Holds the visually hidden button suffixes (position: absolute): without it they escape the
           scrolling box and widen the page at 360 px. */
        position: relative;
      }
      tbody th {
        background: none;
      }
      td code.id {
        white-space: nowrap;
        overflow-wrap: normal;
      }
      ul.plain {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      td .row {
        flex-wrap: nowrap;
      }
      .preview td {
        background: var(--soft);
      }
      dl.details {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0.25rem 1rem;
        margin: 0;
      }
      dl.details dt {
        font-weight: 600;
      }
      dl.details dd {
        margin: 0;
      }
      @media (max-width: 600px) {
        /* The details span the wide table: keep them at the scrolling box's left edge, one screen wide. */
        .details-box {
          position: sticky;
          left: 0;
          max-width: calc(100vw - 3.5rem);
        }
        dl.details {
          grid-template-columns: 1fr;
        }
        dl.details dd {
          margin: 0 0 0.4rem;
        }
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    accesses: { attribute: false },
    previews: { state: true },
    status: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The accesses shown, newest first. */
  declare accesses: readonly Access[];
  /** The open previews by access id. */
  declare previews: ReadonlyMap<string, Preview>;
  declare status: string;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.accesses = [];
    this.previews = new Map();
    this.status = '';
  }

  #setPreview(id: string, preview: Preview | null): void {
    const next = new Map(this.previews);
    if (preview === null) next.delete(id);
    else next.set(id, preview);
    this.previews = next;
  }

  async #togglePreview(access: Access): Promise<void> {
    if (this.previews.has(access.id)) return this.#setPreview(access.id, null);
    this.#setPreview(access.id, 'loading');
    try {
      const fresh = await this.context.api.get<Access>(`/accesses/${seg(access.id)}`);
      if (this.previews.has(access.id)) this.#setPreview(access.id, { access: fresh });
    } catch (error) {
      if (this.previews.has(access.id))
        this.#setPreview(access.id, { error: error instanceof Error ? error.message : String(error) });
    }
  }

  async #revoke(access: Access): Promise<void> {
    const sure = await confirmAction(
      `Revoke ${access.name}?`,
      'The tokens it issued stop working at once, and it can get no new ones. This cannot be undone.',
      'Revoke the access',
    );
    if (!sure) return;
    try {
      const revoked = await this.context.api.post<Access>(`/accesses/${seg(access.id)}/revoke`);
      this.status = `${revoked.name} is revoked.`;
      if (this.previews.has(access.id)) this.#setPreview(access.id, { access: revoked });
      emit(this, 'access-changed', revoked);
    } catch (error) {
      this.status = `${access.name} was not revoked: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  #environments(access: Access) {
    if (access.environments.length === 0) return 'All environments';
    const names = new Map(this.context.environments.map((e) => [e.id, e.name]));
    return html`<ul class="plain">
      ${access.environments.map((id) => html`<li>${names.get(id) ?? html`<code>${id}</code>`}</li>`)}
    </ul>`;
  }

  #actions(access: Access) {
    return html`<ul class="plain">
      ${access.actions.map((a) => html`<li>${actionLabel(a)} ${actionCode(a)}</li>`)}
    </ul>`;
  }

  #state(access: Access) {
    return access.revoked_at === null
      ? html`<span class="badge active">Active</span>`
      : html`<span class="badge revoked">Revoked</span> at ${shortDateTime(access.revoked_at)}`;
  }

  #preview(access: Access, preview: Preview) {
    if (preview === 'loading') return html`<p role="status">Loading ${access.name}…</p>`;
    if ('error' in preview) return html`<p class="error" role="alert">${preview.error}</p>`;
    const a = preview.access;
    return html`<dl class="details">
      <dt>Access name</dt>
      <dd>${a.name}</dd>
      <dt>Client id</dt>
      <dd><code>${a.client_id}</code></dd>
      <dt>Environments</dt>
      <dd>${this.#environments(a)}</dd>
      <dt>Actions</dt>
      <dd>${this.#actions(a)}</dd>
      <dt>Created</dt>
      <dd>${shortDateTime(a.created_at)}</dd>
      <dt>State</dt>
      <dd>${this.#state(a)}</dd>
      <dt>Client secret</dt>
      <dd>Not shown: it was shown once, when the access was made.</dd>
    </dl>`;
  }

  #row(access: Access) {
    const preview = this.previews.get(access.id);
    const regionId = `preview-${access.id}`;
    return html`<tr>
        <th scope="row">${access.name}</th>
        <td><code class="id">${access.client_id}</code></td>
        <td>${this.#environments(access)}</td>
        <td>${this.#actions(access)}</td>
        <td>${shortDateTime(access.created_at)}</td>
        <td>${this.#state(access)}</td>
        <td>
          <div class="row">
            <button
              type="button"
              class="secondary"
              aria-expanded=${preview === undefined ? 'false' : 'true'}
              aria-controls=${regionId}
              @click=${() => void this.#togglePreview(access)}
            >
              Preview<span class="visually-hidden"> ${access.name}</span>
            </button>
            ${
              access.revoked_at === null
                ? html`<button
                    type="button"
                    class="secondary danger"
                    @click=${() => void this.#revoke(access)}
                  >
                    Revoke<span class="visually-hidden"> ${access.name}</span>
                  </button>`
                : nothing
            }
          </div>
        </td>
      </tr>
      <tr class="preview" id=${regionId} ?hidden=${preview === undefined}>
        <td colspan="7">
          ${
            preview === undefined
              ? nothing
              : html`<div class="details-box" role="region" aria-label="Details of ${access.name}">
                  ${this.#preview(access, preview)}
                </div>`
          }
        </td>
      </tr>`;
  }

  override render() {
    return html`<section class="card" aria-labelledby="accesses-title">
      <h2 id="accesses-title">Accesses</h2>
      <p class="hint" role="status">${this.status}</p>
      ${
        this.accesses.length === 0
          ? html`<p>No access yet: create one above to get a client id and secret.</p>`
          : html`<div class="table-wrap">
              <table>
                <caption class="visually-hidden">
                  Remote control accesses of ${this.context.account?.name ?? 'the account'}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Client id</th>
                    <th scope="col">Environments</th>
                    <th scope="col">Actions</th>
                    <th scope="col">Created</th>
                    <th scope="col">State</th>
                    <th scope="col"><span class="visually-hidden">Preview and revoke</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${this.accesses.map((access) => this.#row(access))}
                </tbody>
              </table>
            </div>`
      }
    </section>`;
  }
}

customElements.define('access-list', AccessList);

declare global {
  interface HTMLElementTagNameMap {
    'access-list': AccessList;
  }
}
