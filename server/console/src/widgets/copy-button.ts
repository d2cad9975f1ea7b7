// A button that copies a value (an id, a key, a secret) and says so where screen readers hear it.
import { LitElement, html } from 'lit';
import { consoleStyles } from '../styles.js';

/**
 * Copies `value` to the clipboard.
 * @summary Copy button with a spoken confirmation.
 */
export class CopyButton extends LitElement {
  static override styles = consoleStyles;
  static override properties = {
    value: { type: String },
    label: { type: String },
    copied: { state: true },
  };

  /** The text copied. */
  declare value: string;
  /** What is copied, for the button's accessible name ("Copy API key"). */
  declare label: string;
  /** What the last click did, shown for a moment. */
  declare copied: string;

  constructor() {
    super();
    this.value = '';
    this.label = 'value';
    this.copied = '';
  }

  async #copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.value);
      this.copied = 'Copied';
    } catch {
      // The clipboard needs a secure context (HTTPS or localhost): the value is on screen to select by hand.
      this.copied = 'Select and copy it by hand';
    }
    setTimeout(() => (this.copied = ''), 2500);
  }

  override render() {
    return html`<button type="button" class="secondary" @click=${() => void this.#copy()}>
        ${this.copied === '' ? 'Copy' : this.copied}<span class="visually-hidden"> ${this.label}</span>
      </button>
      <span role="status" class="visually-hidden"
        >${this.copied === '' ? '' : `${this.label}: ${this.copied}`}</span
      >`;
  }
}

customElements.define('copy-button', CopyButton);

declare global {
  interface HTMLElementTagNameMap {
    'copy-button': CopyButton;
  }
}
