// How an application starts the SDK for an environment: the two ways the README shows (`Feature.start` in code,
// the three custom elements in a page). The API key goes in only while the console shows it once; otherwise a
// placeholder says where it goes, so a snippet copied later never carries a key.
import { LitElement, css, html } from 'lit';
import { consoleStyles } from '../styles.js';
import '../widgets/copy-button.js';

/** The placeholder used when the key is not on screen. */
export const KEY_PLACEHOLDER = 'YOUR_API_KEY';

/**
 * The SDK start snippets for one environment.
 * @summary SDK quick-start snippets.
 */
export class SdkSnippet extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      pre {
        background: var(--soft);
        border: 1px solid var(--line);
        border-radius: 6px;
        padding: 0.6rem;
        margin: 0 0 0.5rem;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      h3 {
        font-size: 0.95rem;
        margin: 0.5rem 0 0.35rem;
      }
    `,
  ];
  static override properties = {
    envId: { type: String },
    apiKey: { attribute: false },
  };

  /** The environment id. */
  declare envId: string;
  /** The API key while it is shown once, else empty. */
  declare apiKey: string;

  constructor() {
    super();
    this.envId = '';
    this.apiKey = '';
  }

  override render() {
    const key = this.apiKey === '' ? KEY_PLACEHOLDER : this.apiKey;
    const code = `import { Feature } from 'feature-ts';\n\nawait Feature.start('${this.envId}', '${key}');`;
    const markup = [
      `<script type="module" src="${location.origin}/sdk/elements.js"></script>`,
      `<feature-provider env-id="${this.envId}" api-key="${key}" consent>`,
      `  <feature-flag key="btnText" default="Add to cart">`,
      `    <feature-hit type="event" action="add_to_cart">…</feature-hit>`,
      `  </feature-flag>`,
      `</feature-provider>`,
    ].join('\n');
    return html`<p class="hint">
        ${
          this.apiKey === ''
            ? html`Replace <code>${KEY_PLACEHOLDER}</code> with the environment's API key (rotate it to get a
                new one if it is lost).`
            : 'The snippets carry the new key only while it is shown here.'
        }
      </p>
      <h3>In code</h3>
      <pre><code>${code}</code></pre>
      <copy-button .value=${code} label="code snippet"></copy-button>
      <h3>In a page (custom elements)</h3>
      <pre><code>${markup}</code></pre>
      <copy-button .value=${markup} label="page snippet"></copy-button>`;
  }
}

customElements.define('sdk-snippet', SdkSnippet);

declare global {
  interface HTMLElementTagNameMap {
    'sdk-snippet': SdkSnippet;
  }
}
