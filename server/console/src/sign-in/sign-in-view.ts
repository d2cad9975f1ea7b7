// The sign-in screen: the operator key, sent once to POST /admin/session and never kept (the form is cleared and
// the browser is told not to save it). A sign-in link opens the console without it (shell/console-app.ts).
import { LitElement, html } from 'lit';
import { ConsoleApiError } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';

/**
 * Asks for the operator key and signs in.
 * @summary Console sign-in.
 * @fires {CustomEvent<SessionAnswer>} signed-in - The session was opened.
 */
export class SignInView extends LitElement {
  static override styles = consoleStyles;
  static override properties = {
    context: { state: true },
    message: { type: String },
    error: { state: true },
    busy: { state: true },
  };

  /** The shared state, provided by <console-app> (the form uses its API). */
  declare context: ConsoleContext;
  /** Why the screen is shown (a used link, an ended session). */
  declare message: string;
  declare error: string;
  declare busy: boolean;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.message = '';
    this.error = '';
    this.busy = false;
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
      <form @submit=${(event: SubmitEvent) => void this.#submit(event)} novalidate>
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
        <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Signing in…' : 'Sign in'}</button>
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
