// One environment in Settings > API Key & Settings: its id, its account settings (XPC, 1V1T) and panic switch,
// which change at once, and its API key rotation. A new key (made here by rotation, or by the view when the
// environment was created) is the owner's state, handed in as `apiKey` and forgotten on `key-dismissed`.
import { LitElement, css, html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { ConsoleApiError, seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import type { Environment } from '../types.js';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';
import { confirmAction } from '../widgets/confirm.js';
import { copyableId, factListStyles } from '../widgets/fact-list.js';
import './secret-once.js';
import './sdk-snippet.js';

/** The switches of an environment: the PATCH body field each one sets, and its label. */
const SWITCHES = [
  {
    field: 'enabledXPC',
    label: 'Experience continuity (XPC)',
    hint: 'A visitor keeps their variations after signing in.',
  },
  {
    field: 'enabled1V1T',
    label: 'One visitor, one test (1V1T)',
    hint: 'A visitor is in at most one campaign at a time.',
  },
] as const;

type SwitchField = (typeof SWITCHES)[number]['field'] | 'panic';

/**
 * An environment's settings, switches and key.
 * @summary One environment of Settings > API Key & Settings.
 * @fires {CustomEvent<Environment>} environment-changed - The server accepted a change; detail: the environment now.
 * @fires {CustomEvent<KeyRotatedDetail>} key-rotated - A new API key was made: the owner shows it once.
 * @fires key-dismissed - The user stored the key shown: the owner forgets it.
 */
export class EnvironmentCard extends LitElement {
  static override styles = [
    consoleStyles,
    factListStyles,
    css`
      h2:focus:not(:focus-visible) {
        outline: none;
      }
      .switch {
        display: flex;
        gap: 0.5rem;
        align-items: flex-start;
        margin: 0 0 0.6rem;
      }
      .switch input {
        width: 1.15rem;
        height: 1.15rem;
        margin: 0.2rem 0 0;
        flex: none;
      }
      .switch label {
        display: inline;
        margin: 0 0.5rem 0 0;
      }
      .status {
        min-height: 1.5em;
      }
      details summary {
        cursor: pointer;
        font-weight: 600;
        margin: 0 0 0.5rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    environment: { attribute: false },
    apiKey: { attribute: false },
    keyReason: { attribute: false },
    status: { state: true },
    busy: { state: true },
  };

  /** The shared state, provided by <console-app> (the card uses its API). */
  declare context: ConsoleContext;
  /** The environment shown. */
  declare environment: Environment;
  /** Its new API key while shown once, else empty. */
  declare apiKey: string;
  /** Why there is a key to show. */
  declare keyReason: 'created' | 'rotated';
  /** The last change's outcome, spoken by the status region. */
  declare status: string;
  /** A change is on its way to the server. */
  declare busy: boolean;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.apiKey = '';
    this.keyReason = 'created';
    this.status = '';
    this.busy = false;
  }

  async #set(field: SwitchField, input: HTMLInputElement, label: string): Promise<void> {
    const env = this.environment;
    const on = input.checked;
    if (field === 'panic' && on) {
      // Not on until confirmed: the switch shows the real state while the question is open.
      input.checked = false;
      const sure = await confirmAction(
        `Turn panic mode on in ${env.name}?`,
        'Every visitor gets the default values of every flag: no campaign runs in this environment until you ' +
          'turn panic mode off. Applications see it at their next decision or bucketing file.',
        'Turn panic mode on',
      );
      if (!sure) {
        this.status = 'Panic mode left off.';
        return;
      }
    }
    this.busy = true;
    this.status = `Saving ${label}…`;
    try {
      const changed = await this.context.api.patch<Environment>(`/environments/${seg(env.id)}`, {
        [field]: on,
      });
      this.status = `Saved: ${label} is ${on ? 'on' : 'off'} in ${changed.name}.`;
      emit(this, 'environment-changed', changed);
    } catch (error) {
      this.status = `Not saved: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      // Re-rendering puts each switch back to the state the environment has (live() reads the DOM).
      this.busy = false;
    }
  }

  async #rotate(): Promise<void> {
    const env = this.environment;
    const sure = await confirmAction(
      `Rotate the API key of ${env.name}?`,
      'The old key stops working at once: every application that starts the SDK with it fails until it uses ' +
        'the new key. The new key is shown once.',
      'Rotate the key',
    );
    if (!sure) return;
    this.busy = true;
    this.status = 'Rotating the API key…';
    try {
      const answer = await this.context.api.post<{ id: string; api_key: string }>(
        `/environments/${seg(env.id)}/rotate-key`,
      );
      this.status = 'A new API key was made: the old one no longer works.';
      emit(this, 'key-rotated', { envId: answer.id, apiKey: answer.api_key });
    } catch (error) {
      this.status = `The key was not rotated: ${error instanceof ConsoleApiError ? error.message : String(error)}`;
    } finally {
      this.busy = false;
    }
  }

  async #dismissed(): Promise<void> {
    emit(this, 'key-dismissed', undefined);
    // The panel that held the focus is gone: put the focus back at the top of this environment.
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }

  #switch(field: SwitchField, label: string, hint: string, on: boolean) {
    const id = `${field}-${this.environment.id}`;
    return html`<div class="switch">
      <input
        id=${id}
        type="checkbox"
        role="switch"
        .checked=${live(on)}
        aria-describedby="${id}-hint"
        @change=${(event: Event) => void this.#set(field, event.target as HTMLInputElement, label)}
      />
      <div>
        <label for=${id}>${label}</label>
        <span class="badge ${on ? (field === 'panic' ? 'interrupted' : 'active') : 'muted'}"
          >${on ? 'On' : 'Off'}</span
        >
        <p id="${id}-hint" class="hint">${hint}</p>
      </div>
    </div>`;
  }

  override render() {
    const env = this.environment;
    return html`<section class="card" aria-labelledby="env-${env.id}">
      <h2 id="env-${env.id}" tabindex="-1">
        ${env.name} ${env.panic ? html`<span class="badge interrupted">Panic mode on</span>` : nothing}
      </h2>
      <dl>
        <dt>Environment id</dt>
        <dd>${copyableId(env.id, 'environment id', 'env-id')}</dd>
      </dl>
      ${
        this.apiKey === ''
          ? nothing
          : html`<secret-once
              heading=${this.keyReason === 'created' ? `API key of ${env.name}` : `New API key of ${env.name}`}
              doneLabel="Done, I have stored it"
              .items=${[{ label: 'API key', copyLabel: 'API key', testId: 'api-key', value: this.apiKey }]}
              @secret-dismissed=${() => this.#dismissed()}
            >
              <sdk-snippet envId=${env.id} .apiKey=${this.apiKey}></sdk-snippet>
            </secret-once>`
      }
      <h3>Settings</h3>
      ${SWITCHES.map((s) => this.#switch(s.field, s.label, s.hint, env.settings[s.field] === true))}
      ${this.#switch(
        'panic',
        'Panic mode',
        'On: every visitor gets the defaults and no campaign runs. Asks before turning on.',
        env.panic,
      )}
      <p class="status hint" role="status">${this.status}</p>
      <h3>API key</h3>
      <p class="hint">
        The key is shown only when made. Lost it? Rotate it: the old key stops working at once.
      </p>
      <button
        type="button"
        class="secondary danger"
        ?disabled=${this.busy}
        @click=${() => void this.#rotate()}
      >
        Rotate API key<span class="visually-hidden"> of ${env.name}</span>
      </button>
      ${
        this.apiKey === ''
          ? html`<details>
              <summary>Start the SDK with this environment</summary>
              <sdk-snippet envId=${env.id} .apiKey=${''}></sdk-snippet>
            </details>`
          : nothing
      }
    </section>`;
  }
}

customElements.define('environment-card', EnvironmentCard);

declare global {
  interface HTMLElementTagNameMap {
    'environment-card': EnvironmentCard;
  }
}
