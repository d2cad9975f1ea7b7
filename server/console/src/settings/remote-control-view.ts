// Settings > Integrations > Remote Control API (SPEC.md "Authentication" 2 and 6): the creation panel, then the
// account's accesses below it. The list is loaded per account; a creation or a revocation updates it from the
// server's answer, so no reload is needed.
import { LitElement, css, html, type PropertyValues } from 'lit';
import { seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { routeHash } from '../router.js';
import { consoleStyles } from '../styles.js';
import type { Access, Items } from '../types.js';
import './access-create-form.js';
import './access-list.js';

/**
 * Remote control accesses: create, preview, revoke.
 * @summary Settings > Integrations > Remote Control API.
 */
export class RemoteControlView extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .breadcrumb {
        margin: 0 0 0.25rem;
        font-size: 0.875rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    accesses: { state: true },
    loading: { state: true },
    loadError: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  declare accesses: readonly Access[];
  declare loading: boolean;
  declare loadError: string;
  /** The account whose accesses are loaded (a late answer for another account is dropped). */
  #loadedFor: string | null = null;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.accesses = [];
    this.loading = false;
    this.loadError = '';
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('context')) return;
    const accountId = this.context.account?.id ?? null;
    if (accountId === this.#loadedFor) return;
    this.#loadedFor = accountId;
    this.accesses = [];
    if (accountId !== null) void this.#load(accountId);
  }

  async #load(accountId: string): Promise<void> {
    this.loading = true;
    this.loadError = '';
    try {
      const answer = await this.context.api.get<Items<Access>>(`/accounts/${seg(accountId)}/accesses`);
      if (accountId !== this.#loadedFor) return;
      // Newest first: the one just made is at the top, under the panel that made it.
      this.accesses = [...answer.items].sort((a, b) =>
        (b.created_at ?? '').localeCompare(a.created_at ?? ''),
      );
    } catch (error) {
      if (accountId === this.#loadedFor)
        this.loadError = error instanceof Error ? error.message : String(error);
    } finally {
      if (accountId === this.#loadedFor) this.loading = false;
    }
  }

  #created(access: Access): void {
    this.accesses = [access, ...this.accesses.filter((a) => a.id !== access.id)];
  }

  #changed(access: Access): void {
    this.accesses = this.accesses.map((a) => (a.id === access.id ? access : a));
  }

  #list() {
    if (this.loading) return html`<p role="status">Loading the accesses…</p>`;
    if (this.loadError !== '')
      return html`<p class="notice danger" role="alert">
        The accesses could not be loaded: ${this.loadError}
        <button
          type="button"
          class="secondary"
          @click=${() => this.#loadedFor !== null && void this.#load(this.#loadedFor)}
        >
          Try again
        </button>
      </p>`;
    return html`<access-list
      .accesses=${this.accesses}
      @access-changed=${(event: HTMLElementEventMap['access-changed']) => this.#changed(event.detail)}
    ></access-list>`;
  }

  override render() {
    const account = this.context.account;
    return html`<p class="breadcrumb muted">Settings › Integrations</p>
      <h1>Remote Control API</h1>
      ${
        account === null
          ? html`<p class="notice warning">
              There is no account yet. <a href=${routeHash({ name: 'account' })}>Create an account</a> first:
              an access belongs to an account.
            </p>`
          : html`<p>
                An access lets a script get tokens at <code>POST /oauth/${account.id}/token</code> with its
                client id and secret, and act on the campaigns of its environments with its actions. The
                account id is in <a href=${routeHash({ name: 'account' })}>Settings › Account</a>.
              </p>
              <access-create-form
                @access-created=${(event: HTMLElementEventMap['access-created']) => this.#created(event.detail)}
              ></access-create-form>
              ${this.#list()}`
      } `;
  }
}

customElements.define('remote-control-view', RemoteControlView);

declare global {
  interface HTMLElementTagNameMap {
    'remote-control-view': RemoteControlView;
  }
}
