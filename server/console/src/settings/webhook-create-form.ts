// The creation panel of Settings > Integrations > Webhooks (docs/teams.md "Webhooks"): a URL and the event kinds
// to send (none checked: every kind, later ones included), then Create. The signing secret lives in this
// element's state from the answer until "Done", and nowhere else.
import { LitElement, html, nothing } from 'lit';
import { ConsoleApiError, seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { emit } from '../events.js';
import { checkboxChoicesStyles, consoleStyles } from '../styles.js';
import type { Webhook } from '../types.js';
import { WEBHOOK_EVENT_KINDS } from './webhook-labels.js';
import './secret-once.js';

/**
 * Makes a webhook of the chosen environment and shows its signing secret once.
 * @summary Webhook creation panel.
 * @fires {CustomEvent<Webhook>} webhook-created - The server made a webhook (detail: without its secret).
 */
export class WebhookCreateForm extends LitElement {
  static override styles = [consoleStyles, checkboxChoicesStyles];
  static override properties = {
    context: { state: true },
    urlError: { state: true },
    formError: { state: true },
    busy: { state: true },
    secret: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** Why the URL was refused ('' when it was not). */
  declare urlError: string;
  declare formError: string;
  declare busy: boolean;
  /** The new webhook's signing secret, on screen until Done. */
  declare secret: string | null;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.urlError = '';
    this.formError = '';
    this.busy = false;
    this.secret = null;
  }

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const environment = this.context.environment;
    if (environment === null) return;
    const form = event.target as HTMLFormElement;
    const url = (form.elements.namedItem('webhook-url') as HTMLInputElement).value.trim();
    const events = new FormData(form).getAll('event').filter((v) => typeof v === 'string');
    this.formError = '';
    this.urlError = url === '' ? 'Enter the URL to send the events to.' : '';
    if (this.urlError !== '') return this.#focusUrl();
    this.busy = true;
    try {
      const answer = await this.context.api.post<Webhook & { secret: string }>(
        `/environments/${seg(environment.id)}/webhooks`,
        events.length === 0 ? { url } : { url, events },
      );
      const { secret, ...webhook } = answer;
      form.reset();
      this.secret = secret;
      emit(this, 'webhook-created', webhook);
    } catch (error) {
      const urlMessage =
        error instanceof ConsoleApiError
          ? // `/url` from the route's own check, `url` or `body.url` from the schema's.
            [...error.fields].find(([path]) => path.endsWith('url'))?.[1]
          : undefined;
      if (urlMessage === undefined) this.formError = error instanceof Error ? error.message : String(error);
      else {
        // The server says what the URL "must be": the sentence reads with the field's name before it.
        this.urlError = `The URL ${urlMessage}.`;
        void this.#focusUrl();
      }
    } finally {
      this.busy = false;
    }
  }

  async #focusUrl(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#webhook-url')?.focus();
  }

  async #done(): Promise<void> {
    this.secret = null;
    await this.#focusUrl();
  }

  override render() {
    return html`<section class="card" aria-labelledby="create-webhook-title">
      <h2 id="create-webhook-title">Create a webhook</h2>
      ${
        this.secret === null
          ? nothing
          : html`<secret-once
              heading="Signing secret"
              .items=${[
                {
                  label: 'Signing secret',
                  copyLabel: 'signing secret',
                  testId: 'webhook-secret',
                  value: this.secret,
                },
              ]}
              @secret-dismissed=${() => void this.#done()}
            ></secret-once>`
      }
      <form novalidate @submit=${(event: SubmitEvent) => void this.#create(event)}>
        <div class="field">
          <label for="webhook-url">URL</label>
          <input
            id="webhook-url"
            name="webhook-url"
            type="url"
            autocomplete="off"
            aria-invalid=${this.urlError === '' ? 'false' : 'true'}
            aria-describedby=${this.urlError === '' ? 'webhook-url-hint' : 'webhook-url-hint webhook-url-error'}
          />
          <p id="webhook-url-hint" class="hint">e.g. https://hooks.example.com/feature</p>
          ${this.urlError === '' ? nothing : html`<p id="webhook-url-error" class="error">${this.urlError}</p>`}
        </div>
        <fieldset aria-describedby="webhook-events-hint">
          <legend>Event kinds</legend>
          <p id="webhook-events-hint" class="hint">None checked: every kind, later ones included.</p>
          <div class="choices">
            ${WEBHOOK_EVENT_KINDS.map(
              (kind) =>
                html`<label class="check"
                  ><input type="checkbox" name="event" value=${kind} /><code>${kind}</code></label
                >`,
            )}
          </div>
        </fieldset>
        ${this.formError === '' ? nothing : html`<p class="notice danger" role="alert">${this.formError}</p>`}
        <button type="submit" ?disabled=${this.busy}>Create the webhook</button>
        <span role="status" class="hint">${this.busy ? 'Creating…' : ''}</span>
      </form>
    </section>`;
  }
}

customElements.define('webhook-create-form', WebhookCreateForm);

declare global {
  interface HTMLElementTagNameMap {
    'webhook-create-form': WebhookCreateForm;
  }
}
