// Settings > API Key & Settings (SPEC.md: "start takes envId and apiKey (obtained from the platform settings)"):
// the account's environments with their ids, switches and key rotation, and the form that creates one. An API
// key exists in this page only between the answer that made it and "Done": it is component state, never in
// storage or in the shared context, and a change of account drops it.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { ConsoleApiError, seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { routeHash } from '../router.js';
import { consoleStyles } from '../styles.js';
import type { Environment } from '../types.js';
import './environment-card.js';

/** A key on screen: whose, and why. */
interface ShownKey {
  envId: string;
  apiKey: string;
  reason: 'created' | 'rotated';
}

/**
 * The account's environments and the environment creation form.
 * @summary Settings > API Key & Settings.
 */
export class EnvironmentsView extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .create {
        max-width: 32rem;
      }
      .check {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        font-weight: 400;
        margin: 0 0 0.5rem;
      }
      .check input {
        width: 1.1rem;
        height: 1.1rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    environments: { state: true },
    shown: { state: true },
    nameError: { state: true },
    formError: { state: true },
    busy: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The account's environments, updated at once by the answers of changes. */
  declare environments: readonly Environment[];
  /** The API key shown once, if any. */
  declare shown: ShownKey | null;
  declare nameError: string;
  declare formError: string;
  declare busy: boolean;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.environments = [];
    this.shown = null;
    this.nameError = '';
    this.formError = '';
    this.busy = false;
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('context')) return;
    const before = changed.get('context');
    if (before?.account?.id !== this.context.account?.id) this.shown = null;
    this.environments = this.context.environments;
  }

  #changed(env: Environment): void {
    this.environments = this.environments.map((e) => (e.id === env.id ? env : e));
    // The header's panic notice and environment chooser read the shared context: refresh it.
    void this.context.reload().catch((error: unknown) => this.context.notify(String(error), 'error'));
  }

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const account = this.context.account;
    if (account === null) return;
    const form = event.target as HTMLFormElement;
    const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
    const name = field('env-name').value.trim();
    this.nameError = '';
    this.formError = '';
    if (name === '') {
      this.nameError = 'Enter a name for the environment, e.g. “production” (1 to 100 characters).';
      field('env-name').focus();
      return;
    }
    this.busy = true;
    try {
      const created = await this.context.api.post<Environment & { api_key: string }>(
        `/accounts/${seg(account.id)}/environments`,
        { name, enabledXPC: field('env-xpc').checked, enabled1V1T: field('env-1v1t').checked },
      );
      form.reset();
      const { api_key: apiKey, ...environment } = created;
      this.shown = { envId: environment.id, apiKey, reason: 'created' };
      if (!this.environments.some((e) => e.id === environment.id))
        this.environments = [...this.environments, environment];
      await this.context.reload({ envId: environment.id });
    } catch (error) {
      if (error instanceof ConsoleApiError && error.fields.has('name')) {
        this.nameError = error.fields.get('name') ?? '';
        field('env-name').focus();
      } else this.formError = error instanceof Error ? error.message : String(error);
    } finally {
      this.busy = false;
    }
  }

  #form() {
    const invalid = this.nameError !== '';
    return html`<section class="card create" aria-labelledby="create-env-title">
      <h2 id="create-env-title">Create an environment</h2>
      <p class="hint">
        Each environment (production, staging…) has its own id, API key, campaigns and settings.
      </p>
      <form novalidate @submit=${(event: SubmitEvent) => void this.#create(event)}>
        <div class="field">
          <label for="env-name">Environment name</label>
          <input
            id="env-name"
            name="env-name"
            type="text"
            maxlength="100"
            autocomplete="off"
            aria-invalid=${invalid ? 'true' : 'false'}
            aria-describedby=${invalid ? 'env-name-error' : nothing}
          />
          ${invalid ? html`<p id="env-name-error" class="error">${this.nameError}</p>` : nothing}
        </div>
        <label class="check"
          ><input id="env-xpc" name="env-xpc" type="checkbox" /> Experience continuity (XPC)</label
        >
        <label class="check"
          ><input id="env-1v1t" name="env-1v1t" type="checkbox" /> One visitor, one test (1V1T)</label
        >
        ${this.formError === '' ? nothing : html`<p class="notice danger" role="alert">${this.formError}</p>`}
        <button type="submit" ?disabled=${this.busy}>Create environment</button>
        <span role="status" class="hint">${this.busy ? 'Creating the environment…' : ''}</span>
      </form>
    </section>`;
  }

  override render() {
    const { account } = this.context;
    if (account === null)
      return html`<h1>API Key &amp; Settings</h1>
        <p class="notice warning">
          There is no account yet. <a href=${routeHash({ name: 'account' })}>Create an account</a> first, then
          come back to add its environments.
        </p>`;
    const shown = this.shown;
    return html`<h1>API Key &amp; Settings</h1>
      <p>
        The environments of ${account.name}. An application starts the SDK with an environment's id and API
        key; the switches apply at once to the decisions of that environment.
      </p>
      ${
        this.environments.length === 0
          ? html`<p class="notice">No environment yet: create one below to get its id and API key.</p>`
          : this.environments.map(
              (env) =>
                html`<environment-card
                  .environment=${env}
                  .apiKey=${shown?.envId === env.id ? shown.apiKey : ''}
                  .keyReason=${shown?.envId === env.id ? shown.reason : 'created'}
                  @environment-changed=${(event: HTMLElementEventMap['environment-changed']) => this.#changed(event.detail)}
                  @key-rotated=${(event: HTMLElementEventMap['key-rotated']) =>
                    (this.shown = { ...event.detail, reason: 'rotated' })}
                  @key-dismissed=${() => (this.shown = null)}
                ></environment-card>`,
            )
      }
      ${this.#form()}`;
  }
}

customElements.define('environments-view', EnvironmentsView);

declare global {
  interface HTMLElementTagNameMap {
    'environments-view': EnvironmentsView;
  }
}
