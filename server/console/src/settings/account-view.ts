// Settings > Account (SPEC.md: "<account_id> is found in the platform under Settings > Account"): the chosen
// account's name and id, which the token URL names, the form that creates an account, and the console's
// sessions (who is signed in is the server's, not an account's, but this is where the console's own settings
// are). Without any account nothing else in the console works, so then the form is the whole screen.
import { LitElement, css, html, nothing } from 'lit';
import { ConsoleApiError } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { routeHash } from '../router.js';
import { consoleStyles } from '../styles.js';
import type { Account } from '../types.js';
import { copyableId, factListStyles } from '../widgets/fact-list.js';
import './console-sessions-card.js';

/**
 * The account's identity and the account creation form.
 * @summary Settings > Account.
 */
export class AccountView extends LitElement {
  static override styles = [
    consoleStyles,
    factListStyles,
    css`
      .first {
        border: 2px solid var(--primary);
      }
      .create {
        max-width: 32rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    nameError: { state: true },
    formError: { state: true },
    busy: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The server's (or the form's) message about the name. */
  declare nameError: string;
  /** A failure that names no field. */
  declare formError: string;
  declare busy: boolean;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.nameError = '';
    this.formError = '';
    this.busy = false;
  }

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const input = form.elements.namedItem('account-name') as HTMLInputElement;
    const name = input.value.trim();
    this.nameError = '';
    this.formError = '';
    if (name === '') {
      this.nameError = 'Enter a name for the account (1 to 100 characters).';
      input.focus();
      return;
    }
    this.busy = true;
    try {
      const created = await this.context.api.post<Account>('/accounts', { name });
      form.reset();
      await this.context.reload({ accountId: created.id });
      this.context.notify(`Account ${created.name} created and chosen.`);
    } catch (error) {
      if (error instanceof ConsoleApiError && error.fields.has('name')) {
        this.nameError = error.fields.get('name') ?? '';
        input.focus();
      } else this.formError = error instanceof Error ? error.message : String(error);
    } finally {
      this.busy = false;
    }
  }

  #form(first: boolean) {
    const invalid = this.nameError !== '';
    return html`<section class="card create ${first ? 'first' : ''}" aria-labelledby="create-title">
      <h2 id="create-title">${first ? 'Create your first account' : 'Create an account'}</h2>
      ${
        first
          ? html`<p>
              An account holds your environments (each with its own API key) and the remote control accesses.
              Start here: create one, then add an environment in API Key &amp; Settings.
            </p>`
          : nothing
      }
      <form novalidate @submit=${(event: SubmitEvent) => void this.#create(event)}>
        <div class="field">
          <label for="account-name">Account name</label>
          <input
            id="account-name"
            name="account-name"
            type="text"
            maxlength="100"
            autocomplete="off"
            aria-invalid=${invalid ? 'true' : 'false'}
            aria-describedby=${invalid ? 'account-name-hint account-name-error' : 'account-name-hint'}
          />
          <p id="account-name-hint" class="hint">Your company or team, e.g. “Shop”. 1 to 100 characters.</p>
          ${invalid ? html`<p id="account-name-error" class="error">${this.nameError}</p>` : nothing}
        </div>
        ${this.formError === '' ? nothing : html`<p class="notice danger" role="alert">${this.formError}</p>`}
        <button type="submit" ?disabled=${this.busy}>Create account</button>
        <span role="status" class="hint">${this.busy ? 'Creating the account…' : ''}</span>
      </form>
    </section>`;
  }

  override render() {
    const account = this.context.account;
    if (account === null)
      return html`<h1>Account</h1>
        <p class="notice warning">There is no account yet: create one to use the console.</p>
        ${this.#form(true)}`;
    const tokenUrl = `${location.origin}/oauth/${encodeURIComponent(account.id)}/token`;
    return html`<h1>Account</h1>
      <section class="card" aria-labelledby="account-title">
        <h2 id="account-title">Chosen account</h2>
        <dl>
          <dt>Account name</dt>
          <dd>${account.name}</dd>
          <dt>Account id</dt>
          <dd>${copyableId(account.id, 'account id', 'account-id')}</dd>
        </dl>
        <p>
          The remote control API's token requests use it: your scripts ask for a token at
          <code>POST /oauth/{account_id}/token</code>, here <code class="mono">${tokenUrl}</code>, with the
          client id and secret of an access made in
          <a href=${routeHash({ name: 'remote-control' })}>Integrations › Remote Control API</a>.
        </p>
      </section>
      ${this.#form(false)}
      <console-sessions-card></console-sessions-card>`;
  }
}

customElements.define('account-view', AccountView);

declare global {
  interface HTMLElementTagNameMap {
    'account-view': AccountView;
  }
}
