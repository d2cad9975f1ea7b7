// Team > Single sign-on (docs/teams.md "Single sign-on"): the chosen account's OpenID provider, and how groups
// and email domains map to roles. The client secret is write-only (answers say "(set)"): it is shown as Set
// with a Replace that reveals an input, and an empty input keeps the stored one. The server's refusal (such as
// an issuer it cannot discover) is said next to the field it names and above Save. Only an admin of the account
// (or the operator key) may see or change it: anyone else is told so, and nothing is asked of the server.
import { LitElement, css, html, type PropertyValues } from 'lit';
import { ConsoleApiError, seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { mayAct } from '../roles.js';
import { consoleStyles } from '../styles.js';
import type { SsoSettings } from '../types.js';
import { confirmAction } from '../widgets/confirm.js';
import { ssoForm, type SsoDraft } from './sso-form.js';
import type { MapRow } from './sso-role-rows.js';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * An account's single sign-on settings: read, save, replace the secret, delete.
 * @summary Team > Single sign-on.
 */
export class SsoSettingsView extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .breadcrumb {
        margin: 0 0 0.25rem;
        font-size: 0.875rem;
      }
      .map select {
        width: auto;
      }
      .map input {
        flex: 1 1 10rem;
        width: auto;
        min-width: 0;
      }
      code {
        overflow-wrap: anywhere;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    settings: { state: true },
    loading: { state: true },
    loadError: { state: true },
    draft: { state: true },
    groupRows: { state: true },
    domainRows: { state: true },
    replacingSecret: { state: true },
    saveError: { state: true },
    fieldErrors: { state: true },
    status: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The stored settings (null: none yet, the server answered 404). */
  declare settings: SsoSettings | null;
  declare loading: boolean;
  declare loadError: string;
  /** The text fields and the switch as edited. */
  declare draft: SsoDraft;
  declare groupRows: readonly MapRow[];
  declare domainRows: readonly MapRow[];
  /** Whether the secret input is shown (always when nothing is stored). */
  declare replacingSecret: boolean;
  declare saveError: string;
  /** The server's messages by field path (`issuer`, `group_roles[0].group`…). */
  declare fieldErrors: ReadonlyMap<string, string>;
  declare status: string;
  /** The account whose settings are loaded (a late answer for another account is dropped). */
  #loadedFor: string | null = null;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.settings = null;
    this.loading = false;
    this.loadError = '';
    this.saveError = '';
    this.fieldErrors = new Map();
    this.status = '';
    this.#fill(null);
  }

  get #isAdmin(): boolean {
    return mayAct(this.context.user, this.context.account?.id ?? null, 'admin');
  }

  get #path(): string {
    return `/accounts/${seg(this.#loadedFor ?? '')}/sso`;
  }

  /** Puts `settings` (null: the defaults of a first save) into the form. */
  #fill(settings: SsoSettings | null): void {
    this.settings = settings;
    this.draft = {
      name: settings?.name ?? '',
      issuer: settings?.issuer ?? '',
      client_id: settings?.client_id ?? '',
      groups_claim: settings?.groups_claim ?? 'groups',
      enabled: settings?.enabled ?? true,
    };
    this.groupRows = (settings?.group_roles ?? []).map((r) => ({ key: r.group, role: r.role }));
    this.domainRows = (settings?.domain_roles ?? []).map((r) => ({ key: r.domain, role: r.role }));
    this.replacingSecret = settings === null;
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('context')) return;
    const accountId = this.#isAdmin ? (this.context.account?.id ?? null) : null;
    if (accountId === this.#loadedFor) return;
    this.#loadedFor = accountId;
    this.#fill(null);
    this.saveError = '';
    this.fieldErrors = new Map();
    this.status = '';
    if (accountId !== null) void this.#load(accountId);
  }

  async #load(accountId: string): Promise<void> {
    this.loading = true;
    this.loadError = '';
    try {
      const answer = await this.context.api.get<SsoSettings>(this.#path);
      if (accountId === this.#loadedFor) this.#fill(answer);
    } catch (error) {
      if (accountId !== this.#loadedFor) return;
      if (error instanceof ConsoleApiError && error.status === 404) this.#fill(null);
      else this.loadError = messageOf(error);
    } finally {
      if (accountId === this.#loadedFor) this.loading = false;
    }
  }

  async #save(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const secret = (form.querySelector<HTMLInputElement>('#sso-secret')?.value ?? '').trim();
    const body = {
      ...this.draft,
      name: this.draft.name.trim(),
      issuer: this.draft.issuer.trim(),
      client_id: this.draft.client_id.trim(),
      groups_claim: this.draft.groups_claim.trim(),
      ...(secret === '' ? {} : { client_secret: secret }),
      group_roles: this.groupRows.map((r) => ({ group: r.key.trim(), role: r.role })),
      domain_roles: this.domainRows.map((r) => ({ domain: r.key.trim(), role: r.role })),
    };
    this.saveError = '';
    this.fieldErrors = new Map();
    this.status = '';
    try {
      this.#fill(await this.context.api.put<SsoSettings>(this.#path, body));
      this.status = 'Single sign-on is saved.';
    } catch (error) {
      this.saveError = messageOf(error);
      if (error instanceof ConsoleApiError) this.fieldErrors = error.fields;
    }
  }

  async #delete(): Promise<void> {
    const sure = await confirmAction(
      `Remove single sign-on from ${this.context.account?.name ?? 'this account'}?`,
      'Its people sign in with their email and password again; sessions already open stay open.',
      'Remove',
    );
    if (!sure) return;
    try {
      await this.context.api.delete(this.#path);
      this.#fill(null);
      this.status = 'Single sign-on is removed.';
    } catch (error) {
      this.status = `Not removed: ${messageOf(error)}`;
    }
  }

  #form() {
    return ssoForm({
      settings: this.settings,
      draft: this.draft,
      replacingSecret: this.replacingSecret,
      saveError: this.saveError,
      fieldErrors: this.fieldErrors,
      rows: (kind) => (kind === 'group' ? this.groupRows : this.domainRows),
      setRows: (kind, rows) => (kind === 'group' ? (this.groupRows = rows) : (this.domainRows = rows)),
      edit: (change) => (this.draft = { ...this.draft, ...change }),
      replaceSecret: () => (this.replacingSecret = true),
      save: (event) => void this.#save(event),
      remove: () => void this.#delete(),
    });
  }

  override render() {
    const account = this.context.account;
    const head = html`<p class="breadcrumb muted">Team</p>
      <h1>Single sign-on</h1>`;
    if (account === null)
      return html`${head}
        <p class="notice warning">There is no account yet.</p>`;
    if (!this.#isAdmin)
      return html`${head}
        <p class="notice">Only an admin of ${account.name} can see and change its single sign-on.</p>`;
    if (this.loading)
      return html`${head}
        <p role="status">Loading the settings…</p>`;
    if (this.loadError !== '')
      return html`${head}
        <p class="notice danger" role="alert">
          The settings could not be loaded: ${this.loadError}
          <button
            type="button"
            class="secondary"
            @click=${() => this.#loadedFor !== null && void this.#load(this.#loadedFor)}
          >
            Try again
          </button>
        </p>`;
    return html`${head}
      ${
        this.settings === null
          ? html`<p>
              ${account.name} has no single sign-on yet. With it, people sign in through your OpenID provider
              (Okta, Entra ID, Keycloak…) instead of a password, and their groups or email domain give them
              their role here.
            </p>`
          : html`<p class="muted">How the people of ${account.name} sign in through your OpenID provider.</p>`
      }
      <p class="hint" role="status">${this.status}</p>
      ${this.#form()}`;
  }
}

customElements.define('sso-settings-view', SsoSettingsView);

declare global {
  interface HTMLElementTagNameMap {
    'sso-settings-view': SsoSettingsView;
  }
}
