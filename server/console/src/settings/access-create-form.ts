// The creation panel of Settings > Integrations > Remote Control API (SPEC.md "Remote control access"): an
// access name, environments (none: all of them, later ones included), at least one action, then Generate. The
// client secret lives in this element's state from the answer until "Done", and nowhere else.
import { LitElement, html, nothing } from 'lit';
import { ACTIONS } from 'feature-ts/protocol';
import { ConsoleApiError, seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { emit } from '../events.js';
import { checkboxChoicesStyles, consoleStyles } from '../styles.js';
import type { Access } from '../types.js';
import { ACTION_LABELS, actionCode } from './action-labels.js';
import './secret-once.js';
import './token-curl.js';

/** The credentials on screen once. */
interface Generated {
  name: string;
  accountId: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Makes a remote control access and shows its credentials once.
 * @summary Remote control access creation panel.
 * @fires {CustomEvent<Access>} access-created - The server made an access (detail: without its secret).
 */
export class AccessCreateForm extends LitElement {
  static override styles = [consoleStyles, checkboxChoicesStyles];
  static override properties = {
    context: { state: true },
    errors: { state: true },
    formError: { state: true },
    busy: { state: true },
    generated: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** Messages by field: `name`, `environments`, `actions`. */
  declare errors: ReadonlyMap<string, string>;
  declare formError: string;
  declare busy: boolean;
  declare generated: Generated | null;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.errors = new Map();
    this.formError = '';
    this.busy = false;
    this.generated = null;
  }

  /** The form's message for a field; the server's `environments[0]` shows at the environments. */
  #fieldErrors(fields: ReadonlyMap<string, string>): Map<string, string> {
    const mine = new Map<string, string>();
    for (const [path, message] of fields) {
      const field = /^(name|actions|environments)\b/.exec(path)?.[1];
      if (field !== undefined && !mine.has(field)) mine.set(field, message);
    }
    return mine;
  }

  async #generate(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const account = this.context.account;
    if (account === null) return;
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const name = (form.elements.namedItem('access-name') as HTMLInputElement).value.trim();
    const environments = data.getAll('environment').filter((v) => typeof v === 'string');
    const actions = data.getAll('action').filter((v) => typeof v === 'string');
    const errors = new Map<string, string>();
    if (name === '') errors.set('name', 'Enter a name that says who uses the access, e.g. “checkout-bot”.');
    if (actions.length === 0) errors.set('actions', 'Choose at least one action.');
    this.errors = errors;
    this.formError = '';
    if (errors.size > 0) {
      void this.#focusFirstError();
      return;
    }
    this.busy = true;
    try {
      const created = await this.context.api.post<Access & { client_secret: string }>(
        `/accounts/${seg(account.id)}/accesses`,
        { name, actions, environments },
      );
      const { client_secret: clientSecret, ...access } = created;
      form.reset();
      this.generated = {
        name: access.name,
        accountId: access.account_id,
        clientId: access.client_id,
        clientSecret,
      };
      emit(this, 'access-created', access);
    } catch (error) {
      const fields =
        error instanceof ConsoleApiError ? this.#fieldErrors(error.fields) : new Map<string, string>();
      this.errors = fields;
      if (fields.size === 0) this.formError = error instanceof Error ? error.message : String(error);
      else void this.#focusFirstError();
    } finally {
      this.busy = false;
    }
  }

  async #focusFirstError(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }

  #error(field: string) {
    const message = this.errors.get(field);
    return message === undefined ? nothing : html`<p id="${field}-error" class="error">${message}</p>`;
  }

  #described(field: string, hint?: string): string {
    return [hint, this.errors.has(field) ? `${field}-error` : undefined].filter(Boolean).join(' ');
  }

  override render() {
    const environments = this.context.environments;
    const invalid = (field: string) => (this.errors.has(field) ? 'true' : 'false');
    return html`<section class="card" aria-labelledby="create-access-title">
      <h2 id="create-access-title">Create an access</h2>
      <p class="hint">
        Scripts and tools (CI, a back office) get tokens with an access's client id and secret, and act on the
        campaigns with the actions it allows.
      </p>
      ${
        this.generated === null
          ? nothing
          : html`<secret-once
              heading="Credentials of ${this.generated.name}"
              .items=${[
                {
                  label: 'Client id',
                  copyLabel: 'client id',
                  testId: 'client-id',
                  value: this.generated.clientId,
                },
                {
                  label: 'Client secret',
                  copyLabel: 'client secret',
                  testId: 'client-secret',
                  value: this.generated.clientSecret,
                },
              ]}
              @secret-dismissed=${() => void this.#done()}
            >
              <token-curl
                .request=${{
                  origin: location.origin,
                  accountId: this.generated.accountId,
                  clientId: this.generated.clientId,
                  clientSecret: this.generated.clientSecret,
                }}
              ></token-curl>
            </secret-once>`
      }
      <form novalidate @submit=${(event: SubmitEvent) => void this.#generate(event)}>
        <div class="field">
          <label for="access-name">Access name</label>
          <input
            id="access-name"
            name="access-name"
            type="text"
            maxlength="100"
            autocomplete="off"
            aria-invalid=${invalid('name')}
            aria-describedby=${this.#described('name', 'access-name-hint')}
          />
          <p id="access-name-hint" class="hint">Who or what uses it, e.g. “checkout-bot”.</p>
          ${this.#error('name')}
        </div>
        <fieldset aria-describedby=${this.#described('environments', 'environments-hint')}>
          <legend>Environments</legend>
          <p id="environments-hint" class="hint">
            None checked: all environments of the account, including ones created later.
          </p>
          ${
            environments.length === 0
              ? html`<p class="hint">
                  The account has no environment yet: the access will cover all of them.
                </p>`
              : html`<div class="choices">
                  ${environments.map(
                    (env) =>
                      html`<label class="check"
                        ><input
                          type="checkbox"
                          name="environment"
                          value=${env.id}
                          aria-invalid=${invalid('environments')}
                        />
                        <span>${env.name} <code class="hint">${env.id}</code></span></label
                      >`,
                  )}
                </div>`
          }
          ${this.#error('environments')}
        </fieldset>
        <fieldset aria-describedby=${this.#described('actions', 'actions-hint')}>
          <legend>Actions</legend>
          <p id="actions-hint" class="hint">What its tokens may do. Choose at least one.</p>
          <div class="choices">
            ${ACTIONS.map(
              (action) =>
                html`<label class="check"
                  ><input type="checkbox" name="action" value=${action} aria-invalid=${invalid('actions')} />
                  <span>${ACTION_LABELS[action]} ${actionCode(action)}</span></label
                >`,
            )}
          </div>
          ${this.#error('actions')}
        </fieldset>
        ${this.formError === '' ? nothing : html`<p class="notice danger" role="alert">${this.formError}</p>`}
        <button type="submit" ?disabled=${this.busy}>Generate</button>
        <span role="status" class="hint">${this.busy ? 'Generating the credentials…' : ''}</span>
      </form>
    </section>`;
  }

  async #done(): Promise<void> {
    this.generated = null;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#access-name')?.focus();
  }
}

customElements.define('access-create-form', AccessCreateForm);

declare global {
  interface HTMLElementTagNameMap {
    'access-create-form': AccessCreateForm;
  }
}
