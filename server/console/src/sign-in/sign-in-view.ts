// The sign-in screen: a person's email and password (the browser may offer to save those), or the operator key,
// sent once to POST /admin/session and never kept (the form is cleared and the browser is told not to save it).
// A sign-in link opens the console without either (shell/console-app.ts). An account with single sign-on on
// gets a "Sign in with <name>" link: a plain navigation to its provider, which comes back signed in.
import { LitElement, css, html, nothing } from 'lit';
import { ConsoleApiError, type SingleSignOnOffer } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';

/**
 * Asks for an email and password, or the operator key, and signs in.
 * @summary Console sign-in.
 * @fires {CustomEvent<SessionAnswer>} signed-in - The session was opened.
 */
export class SignInView extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .sso-offers {
        list-style: none;
        padding: 0;
        margin: 0 0 1.5rem;
        display: grid;
        gap: 0.5rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    message: { type: String },
    error: { state: true },
    personError: { state: true },
    busy: { state: true },
    offers: { state: true },
  };

  /** The shared state, provided by <console-app> (the form uses its API). */
  declare context: ConsoleContext;
  /** Why the screen is shown (a used link, an ended session). */
  declare message: string;
  declare error: string;
  declare personError: string;
  declare busy: boolean;
  /** The accounts that offer single sign-on (none until asked, or when asking failed). */
  declare offers: SingleSignOnOffer[];

  constructor() {
    super();
    consumeConsoleContext(this);
    this.message = '';
    this.error = '';
    this.personError = '';
    this.busy = false;
    this.offers = [];
  }

  override firstUpdated(): void {
    // Without the list the other two ways still work: a failure only leaves the buttons out.
    this.context.api.singleSignOnOffers().then(
      (offers) => {
        this.offers = offers;
      },
      () => undefined,
    );
  }

  async #submitPerson(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const email = form.elements.namedItem('email') as HTMLInputElement;
    const password = form.elements.namedItem('password') as HTMLInputElement;
    if (email.value.trim() === '' || password.value === '') {
      this.personError = 'Enter your email and your password.';
      (email.value.trim() === '' ? email : password).focus();
      return;
    }
    this.busy = true;
    this.personError = '';
    try {
      const session = await this.context.api.signIn({ email: email.value.trim(), password: password.value });
      password.value = '';
      emit(this, 'signed-in', session);
    } catch (error) {
      this.personError = error instanceof ConsoleApiError ? error.message : String(error);
      password.select();
    } finally {
      this.busy = false;
    }
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const input = form.elements.namedItem('key') as HTMLInputElement;
    const key = input.value.trim();
    if (key === '') {
      this.error = 'Enter the operator key the server was started with (FEATURE_OPERATOR_KEY).';
      input.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const session = await this.context.api.signIn({ operator_key: key });
      input.value = '';
      emit(this, 'signed-in', session);
    } catch (error) {
      this.error = error instanceof ConsoleApiError ? error.message : String(error);
      input.select();
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<main class="card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to the console</h1>
      ${this.message === '' ? '' : html`<p class="notice warning" role="status">${this.message}</p>`}
      ${
        this.offers.length === 0
          ? ''
          : html`<section aria-labelledby="sso-title">
              <h2 id="sso-title">With single sign-on</h2>
              <ul class="sso-offers">
                ${this.offers.map(
                  (offer) =>
                    html`<li><a class="button" href=${offer.start_path}>Sign in with ${offer.name}</a></li>`,
                )}
              </ul>
            </section>`
      }
      <form
        @submit=${(event: SubmitEvent) => void this.#submitPerson(event)}
        novalidate
        aria-labelledby="person-title"
      >
        <h2 id="person-title">With your email</h2>
        <div class="field">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" spellcheck="false" />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="current-password"
            aria-describedby=${this.personError === '' ? nothing : 'person-error'}
            aria-invalid=${this.personError === '' ? 'false' : 'true'}
          />
          ${
            this.personError === ''
              ? ''
              : html`<p id="person-error" class="error" role="alert">${this.personError}</p>`
          }
        </div>
        <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <form
        @submit=${(event: SubmitEvent) => void this.#submit(event)}
        novalidate
        aria-labelledby="key-title"
      >
        <h2 id="key-title">With the operator key</h2>
        <div class="field">
          <label for="key">Operator key</label>
          <input
            id="key"
            name="key"
            type="password"
            autocomplete="off"
            spellcheck="false"
            aria-describedby="key-hint ${this.error === '' ? '' : 'key-error'}"
            aria-invalid=${this.error === '' ? 'false' : 'true'}
          />
          <p id="key-hint" class="hint">
            The key the server was started with (<code>FEATURE_OPERATOR_KEY</code>). With
            <code>npm start</code>, open the sign-in link it prints, or run
            <code>npx feature-server console</code> for a new one.
          </p>
          ${this.error === '' ? '' : html`<p id="key-error" class="error" role="alert">${this.error}</p>`}
        </div>
        <button type="submit" class="secondary" ?disabled=${this.busy}>
          ${this.busy ? 'Signing in…' : 'Sign in with the key'}
        </button>
      </form>
    </main>`;
  }
}

customElements.define('sign-in-view', SignInView);

declare global {
  interface HTMLElementTagNameMap {
    'sign-in-view': SignInView;
  }
}
