// The console's shell: signs in (with the operator key, or with a one-time link in the URL fragment), keeps the
// chosen account and environment, provides them to every view (@lit/context), and shows the screen of the
// current hash route under a header (console-header.ts) and a menu (console-menu.ts).
import { ContextProvider } from '@lit/context';
import { LitElement, html, type PropertyValues } from 'lit';
import { ConsoleApi, seg, type SessionAnswer } from '../api.js';
import { consoleContext, type ConsoleContext } from '../console-context.js';
import { parseRoute, routeHash, type Route } from '../router.js';
import { consoleStyles } from '../styles.js';
import { shellStyles } from './shell-styles.js';
import type { Account, Environment, Items } from '../types.js';
import '../sign-in/sign-in-view.js';
import '../sign-in/choose-password-view.js';
import { forgetJoinToken, keptJoinToken } from './join-token.js';
import { takePersonLink } from './person-link.js';
import { JOIN_SIGN_IN, joinScreen, type JoinOutcome } from './join-screen.js';
import { consoleHeader } from './console-header.js';
import { panicNotice } from './panic-notice.js';
import { consoleMenu } from './console-menu.js';
import { routeView } from './route-view.js';
import { saveChoice, savedChoice, type Choice } from './saved-choice.js';
import { signInLinkRefusal, takeSignInLink } from './sign-in-link.js';
import { mayAct, type SessionUser } from '../roles.js';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

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
    personLink: { state: true },
    joinToken: { state: true },
    notice: { state: true },
    menuOpen: { state: true },
  };

  declare phase: 'loading' | 'signed-out' | 'signed-in';
  declare route: Route;
  declare context: ConsoleContext;
  declare signInMessage: string;
  /** An invitation or reset link the page was opened with, until the person chose a password. */
  declare personLink: { kind: 'invitation' | 'reset'; token: string } | null;
  /** A join link's token (shell/join-token.ts), until its person answered or left it. */
  declare joinToken: string | null;
  declare notice: { message: string; kind: 'info' | 'error' } | null;
  declare menuOpen: boolean;

  readonly #api = new ConsoleApi();
  /** Who signed in (null: the operator key), for what the views offer. */
  #user: SessionUser | null = null;
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
    this.personLink = null;
    this.joinToken = null;
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
    const opened = await takePersonLink(this.#api, routeHash({ name: 'campaigns' }));
    if (opened.kind !== 'none') this.route = { name: 'campaigns' };
    if (opened.kind === 'password') {
      // Kept here until the password is chosen.
      this.personLink = opened.link;
      this.phase = 'signed-out';
      return;
    }
    // A join link: answered signed in as its person, after a sign-in when there is no session yet.
    this.joinToken = opened.kind === 'join' ? opened.token : keptJoinToken();
    if (this.joinToken !== null) this.signInMessage = JOIN_SIGN_IN;
    if (opened.kind === 'refused') this.signInMessage = opened.message;
    const link = takeSignInLink(routeHash({ name: 'campaigns' }));
    if (link !== null) {
      this.route = { name: 'campaigns' };
      try {
        await this.#signedIn(await this.#api.signIn({ sign_in_link: link }));
        return;
      } catch (error) {
        this.signInMessage = signInLinkRefusal(error);
      }
    }
    try {
      const session = await this.#api.readSession();
      if (session === null) {
        this.phase = 'signed-out';
        return;
      }
      await this.#signedIn(session);
      // Signed in already: a link that opens nothing is said in a notice.
      if (opened.kind === 'refused') this.#notify(opened.message, 'error');
    } catch (error) {
      this.phase = 'signed-out';
      this.signInMessage = messageOf(error);
    }
  }

  async #signedIn(session: SessionAnswer): Promise<void> {
    this.signInMessage = '';
    this.#user = session.user ?? null;
    await this.#reload(savedChoice());
    // A new server with no account yet: the first thing to do is to make one.
    if (this.context.account === null) location.hash = routeHash({ name: 'account' });
    this.phase = 'signed-in';
  }

  /** A sign-in screen signed someone in: the console opens, or the screen says why it could not. */
  #openFor(session: SessionAnswer): void {
    this.#signedIn(session).catch((error: unknown) => {
      this.phase = 'signed-out';
      this.signInMessage = messageOf(error);
    });
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
    saveChoice(account?.id, environment?.id);
  }

  #makeContext(
    accounts: readonly Account[],
    account: Account | null,
    environments: readonly Environment[],
    environment: Environment | null,
  ): ConsoleContext {
    return {
      api: this.#api,
      user: this.#user,
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
    this.signInMessage = this.joinToken === null ? 'Signed out.' : JOIN_SIGN_IN;
  }

  /** The invitation answered or left: the screen goes, and the console shows the account joined. */
  #leaveJoin(joined: JoinOutcome): void {
    forgetJoinToken();
    this.joinToken = null;
    if (joined === null) return;
    this.#notify(joined.message, 'info');
    const show = async () => {
      // The session's roles changed (what the menus offer): read them again, then open the account joined.
      const session = await this.#api.readSession();
      if (session !== null) this.#user = session.user ?? null;
      await this.#reload({ accountId: joined.accountId });
      location.hash = routeHash({ name: 'campaigns' });
    };
    show().catch((error: unknown) => this.#notify(messageOf(error), 'error'));
  }

  #choose(what: 'account' | 'environment', id: string): void {
    void this.#reload(what === 'account' ? { accountId: id } : { envId: id }).catch((error: unknown) =>
      this.#notify(messageOf(error), 'error'),
    );
  }

  override render() {
    if (this.phase === 'loading') return html`<p class="loading" role="status">Loading the console…</p>`;
    if (this.phase === 'signed-out' && this.personLink !== null)
      return html`<div class="sign-in">
        <choose-password-view
          .kind=${this.personLink.kind}
          .token=${this.personLink.token}
          @signed-in=${(event: HTMLElementEventMap['signed-in']) => {
            this.personLink = null;
            this.#openFor(event.detail);
          }}
        ></choose-password-view>
      </div>`;
    if (this.phase === 'signed-out')
      return html`<div class="sign-in">
        <sign-in-view
          .message=${this.signInMessage}
          @signed-in=${(event: HTMLElementEventMap['signed-in']) => this.#openFor(event.detail)}
        ></sign-in-view>
      </div>`;
    if (this.joinToken !== null)
      return joinScreen(this.joinToken, {
        answered: (joined) => this.#leaveJoin(joined),
        signOut: () => void this.#signOut(),
      });
    const { context } = this;
    return html` ${consoleHeader(context, this.menuOpen, {
        skip: () => this.renderRoot.querySelector<HTMLElement>('#main')?.focus(),
        toggleMenu: () => (this.menuOpen = !this.menuOpen),
        choose: (what, id) => this.#choose(what, id),
        signOut: () => void this.#signOut(),
      })}
      <div class="layout">
        ${consoleMenu(this.route, this.menuOpen, (need) => mayAct(this.#user, context.account?.id ?? null, need))}
        <main id="main" tabindex="-1">${panicNotice(context.environment)} ${routeView(this.route)}</main>
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
