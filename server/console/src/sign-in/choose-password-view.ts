// The screen an invitation or reset link opens (`/admin/#invite=…`, `/admin/#reset=…`): the person chooses a
// password (invited: and the name others see), sent once with the link's token to the session routes, which
// set it and sign in. The rule (12 to 1024 characters) is said before sending; the server says it again.
import { LitElement, html, nothing } from 'lit';
import { ConsoleApiError } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';

const MIN = 12;
const MAX = 1024;

/**
 * Asks for a new password with an invitation or reset link, and signs in.
 * @summary Choose a password.
 * @fires {CustomEvent<SessionAnswer>} signed-in - The password is set and the session open.
 */
export class ChoosePasswordView extends LitElement {
  static override styles = consoleStyles;
  static override properties = {
    context: { state: true },
    kind: { type: String },
    token: { type: String },
    error: { state: true },
    busy: { state: true },
  };

  /** The shared state, provided by <console-app> (the form uses its API). */
  declare context: ConsoleContext;
  /** Which link opened the screen. */
  declare kind: 'invitation' | 'reset';
  /** The link's token (from the URL fragment, already taken out of the address bar). */
  declare token: string;
  declare error: string;
  declare busy: boolean;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.kind = 'invitation';
    this.token = '';
    this.error = '';
    this.busy = false;
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const password = form.elements.namedItem('password') as HTMLInputElement;
    const name = form.elements.namedItem('name') as HTMLInputElement | null;
    // Characters as the server counts them (code points).
    const length =
      password.value.length - (password.value.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
    if (length < MIN || length > MAX) {
      this.error = `Choose a password of ${MIN} to ${MAX} characters (a sentence works well).`;
      password.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const session = await this.context.api.useLink(this.kind, {
        token: this.token,
        password: password.value,
        ...(name === null || name.value.trim() === '' ? {} : { name: name.value.trim() }),
      });
      password.value = '';
      emit(this, 'signed-in', session);
    } catch (error) {
      this.error = error instanceof ConsoleApiError ? error.message : String(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const invited = this.kind === 'invitation';
    return html`<main class="card" aria-labelledby="choose-title">
      <h1 id="choose-title">${invited ? 'Welcome: choose your password' : 'Choose a new password'}</h1>
      <form @submit=${(event: SubmitEvent) => void this.#submit(event)} novalidate>
        ${
          invited
            ? html`<div class="field">
                <label for="name">Your name</label>
                <input id="name" name="name" type="text" autocomplete="name" maxlength="100" />
                <p class="hint">What the others in your account see beside your changes.</p>
              </div>`
            : nothing
        }
        <div class="field">
          <label for="password">${invited ? 'Password' : 'New password'}</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            aria-describedby="password-hint ${this.error === '' ? '' : 'password-error'}"
            aria-invalid=${this.error === '' ? 'false' : 'true'}
          />
          <p id="password-hint" class="hint">
            ${MIN} to ${MAX} characters.${invited ? '' : ' Your other sessions end when it is set.'}
          </p>
          ${this.error === '' ? '' : html`<p id="password-error" class="error" role="alert">${this.error}</p>`}
        </div>
        <button type="submit" ?disabled=${this.busy}>
          ${this.busy ? 'Saving…' : invited ? 'Set my password and sign in' : 'Set it and sign in'}
        </button>
      </form>
    </main>`;
  }
}

customElements.define('choose-password-view', ChoosePasswordView);

declare global {
  interface HTMLElementTagNameMap {
    'choose-password-view': ChoosePasswordView;
  }
}
