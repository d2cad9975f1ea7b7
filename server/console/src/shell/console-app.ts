// The console's shell: signs in (with the operator key, or with a one-time link in the URL fragment), keeps the
// chosen account and environment, and shows the screen of the current hash route under a header and a menu laid
// out as the specification names the settings (Settings > Account, API Key & Settings, Integrations > Remote
// Control API).
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { ConsoleApi, ConsoleApiError, seg, type SessionAnswer } from '../api.js';
import { ContextProvider } from '@lit/context';
import { consoleContext, type ConsoleContext } from '../console-context.js';
import { parseRoute, routeHash, type Route } from '../router.js';
import { consoleStyles } from '../styles.js';
import { shellStyles } from './shell-styles.js';
import type { Account, Environment, Items } from '../types.js';
import '../sign-in/sign-in-view.js';
import '../campaigns/campaigns-view.js';
import '../campaigns/campaign-editor.js';
import '../report/report-view.js';
import '../live/live-view.js';
import '../settings/account-view.js';
import '../settings/environments-view.js';
import '../settings/remote-control-view.js';

const CHOICE_KEY = 'feature-console-choice';

interface Choice {
  accountId?: string;
  envId?: string;
}

const savedChoice = (): Choice => {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CHOICE_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { accountId, envId } = parsed as Record<string, unknown>;
    return {
      ...(typeof accountId === 'string' ? { accountId } : {}),
      ...(typeof envId === 'string' ? { envId } : {}),
    };
  } catch {
    return {};
  }
};

const MENU: ReadonlyArray<{ route: Route; label: string; group?: string }> = [
  { route: { name: 'campaigns' }, label: 'Campaigns' },
  { route: { name: 'live' }, label: 'Live traffic' },
  { route: { name: 'account' }, label: 'Account', group: 'Settings' },
  { route: { name: 'environments' }, label: 'API Key & Settings', group: 'Settings' },
  { route: { name: 'remote-control' }, label: 'Integrations › Remote Control API', group: 'Settings' },
];

/** Which menu entry a route belongs to (a campaign's editor and report sit under Campaigns). */
const menuOf = (route: Route): Route['name'] =>
  route.name === 'campaign' || route.name === 'campaign-new' || route.name === 'report'
    ? 'campaigns'
    : route.name;

/**
 * The whole console.
 * @summary The /admin application.
 */
export class ConsoleApp extends LitElement {
  static override styles = [consoleStyles, shellStyles];
  static override properties = {
    phase: { state: true },
    route: { state: true },
    context: { state: true },
    signInMessage: { state: true },
    notice: { state: true },
    menuOpen: { state: true },
  };

  declare phase: 'loading' | 'signed-out' | 'signed-in';
  declare route: Route;
  declare context: ConsoleContext;
  declare signInMessage: string;
  declare notice: { message: string; kind: 'info' | 'error' } | null;
  declare menuOpen: boolean;

  readonly #api = new ConsoleApi();
  /** Answers the views' context requests; its value follows `context` (set in willUpdate). */
  readonly #provider = new ContextProvider(this, { context: consoleContext });
  #noticeTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #onHashChange = (): void => {
    this.route = parseRoute(location.hash);
    this.menuOpen = false;
  };

  constructor() {
    super();
    this.phase = 'loading';
    this.route = parseRoute(location.hash);
    this.signInMessage = '';
    this.notice = null;
    this.menuOpen = false;
    this.context = this.#makeContext([], null, [], null);
    this.#api.onSignedOut((why) => {
      this.phase = 'signed-out';
      this.signInMessage =
        why === 'ended-all'
          ? 'Every console session has ended, this one included: sign in again.'
          : 'Your session has ended: sign in again.';
    });
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Before render: the views this render creates or keeps get the new state in the same update.
    if (changed.has('context')) this.#provider.setValue(this.context);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('hashchange', this.#onHashChange);
    void this.#start();
  }

  override disconnectedCallback(): void {
    removeEventListener('hashchange', this.#onHashChange);
    super.disconnectedCallback();
  }

  async #start(): Promise<void> {
    const link = /^#sign-in=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];
    if (link !== undefined) {
      // The token is spent either way: take it out of the address bar and the history at once.
      history.replaceState(null, '', `${location.pathname}${routeHash({ name: 'campaigns' })}`);
      this.route = { name: 'campaigns' };
      try {
        await this.#api.signIn({ sign_in_link: link });
        await this.#signedIn();
        return;
      } catch (error) {
        this.signInMessage =
          error instanceof ConsoleApiError && error.status === 401
            ? 'This sign-in link was already used or has expired: sign in with the operator key, or get a new link with `npx feature-server console`.'
            : error instanceof Error
              ? error.message
              : String(error);
      }
    }
    try {
      const session = await this.#api.readSession();
      if (session === null) {
        this.phase = 'signed-out';
        return;
      }
      await this.#signedIn();
    } catch (error) {
      this.phase = 'signed-out';
      this.signInMessage = error instanceof Error ? error.message : String(error);
    }
  }

  async #signedIn(_session?: SessionAnswer): Promise<void> {
    this.signInMessage = '';
    await this.#reload(savedChoice());
    // A new server with no account yet: the first thing to do is to make one.
    if (this.context.account === null) location.hash = routeHash({ name: 'account' });
    this.phase = 'signed-in';
  }

  async #reload(choose: Choice = {}): Promise<void> {
    const accounts = (await this.#api.get<Items<Account>>('/accounts')).items;
    const accountId = choose.accountId ?? this.context.account?.id;
    const account = accounts.find((a) => a.id === accountId) ?? accounts[0] ?? null;
    const environments =
      account === null
        ? []
        : (await this.#api.get<Items<Environment>>(`/accounts/${seg(account.id)}/environments`)).items;
    const envId = choose.envId ?? this.context.environment?.id;
    const environment = environments.find((e) => e.id === envId) ?? environments[0] ?? null;
    this.context = this.#makeContext(accounts, account, environments, environment);
    try {
      localStorage.setItem(CHOICE_KEY, JSON.stringify({ accountId: account?.id, envId: environment?.id }));
    } catch {
      // Storage refused (private mode): the choice lasts for this page only.
    }
  }

  #makeContext(
    accounts: readonly Account[],
    account: Account | null,
    environments: readonly Environment[],
    environment: Environment | null,
  ): ConsoleContext {
    return {
      api: this.#api,
      accounts,
      account,
      environments,
      environment,
      reload: (choose) => this.#reload(choose),
      notify: (message, kind = 'info') => this.#notify(message, kind),
    };
  }

  #notify(message: string, kind: 'info' | 'error'): void {
    this.notice = { message, kind };
    clearTimeout(this.#noticeTimer);
    this.#noticeTimer = setTimeout(() => (this.notice = null), kind === 'error' ? 10_000 : 5000);
  }

  async #signOut(): Promise<void> {
    try {
      await this.#api.signOut();
    } catch {
      // Already over on the server: signed out all the same.
    }
    this.phase = 'signed-out';
    this.signInMessage = 'Signed out.';
  }

  #choose(event: Event, what: 'account' | 'environment'): void {
    const id = (event.target as HTMLSelectElement).value;
    void this.#reload(what === 'account' ? { accountId: id } : { envId: id }).catch((error: unknown) =>
      this.#notify(error instanceof Error ? error.message : String(error), 'error'),
    );
  }

  #view(): TemplateResult {
    const { route } = this;
    switch (route.name) {
      case 'campaigns':
        return html`<campaigns-view></campaigns-view>`;
      case 'campaign-new':
        return html`<campaign-editor .campaignId=${null}></campaign-editor>`;
      case 'campaign':
        return html`<campaign-editor .campaignId=${route.campaignId}></campaign-editor>`;
      case 'report':
        return html`<report-view .campaignId=${route.campaignId}></report-view>`;
      case 'live':
        return html`<live-view></live-view>`;
      case 'account':
        return html`<account-view></account-view>`;
      case 'environments':
        return html`<environments-view></environments-view>`;
      case 'remote-control':
        return html`<remote-control-view></remote-control-view>`;
    }
  }

  #menu(): TemplateResult {
    const current = menuOf(this.route);
    let group: string | undefined;
    const items: TemplateResult[] = [];
    for (const entry of MENU) {
      if (entry.group !== group && entry.group !== undefined)
        items.push(html`<li class="menu-group" aria-hidden="true">${entry.group}</li>`);
      group = entry.group;
      items.push(
        html`<li>
          <a
            href=${routeHash(entry.route)}
            aria-current=${current === entry.route.name ? 'page' : nothing}
            aria-label=${entry.group === undefined ? nothing : `${entry.group}: ${entry.label}`}
            >${entry.label}</a
          >
        </li>`,
      );
    }
    return html`<nav id="menu" class=${this.menuOpen ? 'open' : ''} aria-label="Console">
      <ul>
        ${items}
      </ul>
    </nav>`;
  }

  override render() {
    if (this.phase === 'loading') return html`<p class="loading" role="status">Loading the console…</p>`;
    if (this.phase === 'signed-out')
      return html`<div class="sign-in">
        <sign-in-view
          .message=${this.signInMessage}
          @signed-in=${() =>
            void this.#signedIn().catch((error: unknown) => {
              this.phase = 'signed-out';
              this.signInMessage = error instanceof Error ? error.message : String(error);
            })}
        ></sign-in-view>
      </div>`;
    const { context } = this;
    return html` <header class="top">
        <button
          type="button"
          class="secondary skip"
          @click=${() => this.renderRoot.querySelector<HTMLElement>('#main')?.focus()}
        >
          Skip to content
        </button>
        <button
          type="button"
          class="secondary menu-toggle"
          aria-controls="menu"
          aria-expanded=${this.menuOpen ? 'true' : 'false'}
          @click=${() => (this.menuOpen = !this.menuOpen)}
        >
          Menu
        </button>
        <span class="brand">feature console</span>
        <div class="choosers">
          <label class="chooser"
            ><span>Account</span>
            <select
              aria-label="Account"
              @change=${(event: Event) => this.#choose(event, 'account')}
              ?disabled=${context.accounts.length === 0}
            >
              ${context.accounts.length === 0 ? html`<option>none yet</option>` : nothing}
              ${context.accounts.map(
                (a) =>
                  html`<option value=${a.id} ?selected=${a.id === context.account?.id}>${a.name}</option>`,
              )}
            </select></label
          >
          <label class="chooser"
            ><span>Environment</span>
            <select
              aria-label="Environment"
              @change=${(event: Event) => this.#choose(event, 'environment')}
              ?disabled=${context.environments.length === 0}
            >
              ${context.environments.length === 0 ? html`<option>none yet</option>` : nothing}
              ${context.environments.map(
                (e) =>
                  html`<option value=${e.id} ?selected=${e.id === context.environment?.id}>
                    ${e.name}${e.panic ? ' (panic)' : ''}
                  </option>`,
              )}
            </select></label
          >
        </div>
        <button type="button" class="secondary" @click=${() => void this.#signOut()}>Sign out</button>
      </header>
      <div class="layout">
        ${this.#menu()}
        <main id="main" tabindex="-1">
          ${
            context.environment?.panic === true
              ? html`<p class="notice danger">
                  Panic mode is on in ${context.environment.name}: every visitor gets the defaults.
                  <a href=${routeHash({ name: 'environments' })}>Turn it off in API Key &amp; Settings</a>.
                </p>`
              : nothing
          }
          ${this.#view()}
        </main>
      </div>
      <div
        class="toast ${this.notice === null ? '' : `shown ${this.notice.kind}`}"
        role="status"
        aria-live="polite"
      >
        ${this.notice?.message ?? ''}
      </div>`;
  }
}

customElements.define('console-app', ConsoleApp);

declare global {
  interface HTMLElementTagNameMap {
    'console-app': ConsoleApp;
  }
}
