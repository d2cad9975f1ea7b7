// The panel that shows a credential the server gives once (an API key, a client id and secret): highlighted,
// with copy buttons and the warning that it is never shown again. It keeps nothing: the values are properties
// its owner clears on `secret-dismissed`, so once dismissed they are gone from the page's memory.
import { LitElement, css, html } from 'lit';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';
import '../widgets/copy-button.js';
import { factListStyles } from '../widgets/fact-list.js';

/** One value of the panel. */
export interface SecretItem {
  /** Its visible label ("Client secret"). */
  label: string;
  /** What the copy button names ("client secret"). */
  copyLabel: string;
  /** The test id of the element that holds the value. */
  testId: string;
  value: string;
}

/**
 * Shows credentials once, with copy buttons and a dismiss button.
 * @summary Shown-once credentials panel.
 * @slot - More content under the values (a code snippet that uses them).
 * @fires secret-dismissed - The user has stored the values: the owner forgets them.
 */
export class SecretOnce extends LitElement {
  static override styles = [
    consoleStyles,
    factListStyles,
    css`
      section {
        border: 2px solid var(--warn);
        background: #fff8e6;
        border-radius: 8px;
        padding: 1rem;
        margin: 0 0 1rem;
      }
      h2:focus {
        outline: none;
      }
      h2:focus-visible {
        outline: 3px solid #fb8c00;
      }
      .value {
        display: block;
        background: #fff;
        border: 1px solid var(--line);
        border-radius: 6px;
        padding: 0.4rem 0.5rem;
        margin: 0 0 0.35rem;
        user-select: all;
      }
      section > button {
        margin-top: 1rem;
      }
      .warning {
        font-weight: 600;
      }
    `,
  ];
  static override properties = {
    heading: { type: String },
    items: { attribute: false },
    doneLabel: { type: String },
  };

  /** The panel's title. */
  declare heading: string;
  /** The values shown. */
  declare items: readonly SecretItem[];
  /** The dismiss button's text. */
  declare doneLabel: string;

  constructor() {
    super();
    this.heading = '';
    this.items = [];
    this.doneLabel = 'Done';
  }

  override firstUpdated(): void {
    // The panel appears after a click elsewhere (Generate, Create, Rotate): take the focus there so keyboard and
    // screen reader users land on what they must copy now.
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }

  override render() {
    return html`<section aria-labelledby="secret-title">
      <h2 id="secret-title" tabindex="-1">${this.heading}</h2>
      <p class="warning" id="secret-warning">
        <span aria-hidden="true">⚠</span> Copy and store it now: it will never be shown again.
        ${this.items.length > 1 ? 'The console does not keep these values.' : 'The console does not keep it.'}
      </p>
      <dl>
        ${this.items.map(
          (item) =>
            html`<dt>${item.label}</dt>
              <dd>
                <code class="value mono" data-testid=${item.testId}>${item.value}</code>
                <copy-button .value=${item.value} label=${item.copyLabel}></copy-button>
              </dd>`,
        )}
      </dl>
      <slot></slot>
      <button type="button" @click=${() => emit(this, 'secret-dismissed', undefined)}>
        ${this.doneLabel}
      </button>
    </section>`;
  }
}

customElements.define('secret-once', SecretOnce);

declare global {
  interface HTMLElementTagNameMap {
    'secret-once': SecretOnce;
  }
}
