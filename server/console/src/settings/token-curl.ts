// The `curl` command that gets a remote control token with an access's client credentials (PROTOCOL.md §13.3:
// `POST /oauth/{accountId}/token`, client credentials grant, form-encoded), shown beside a new access's secret so
// the first token is one paste away. The values are the server's own origin and the access's real id and secret.
import { LitElement, css, html } from 'lit';
import { consoleStyles } from '../styles.js';
import '../widgets/copy-button.js';

/** `value` as one shell word: single-quoted, with any single quote closed, escaped and reopened. */
export const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** What the token request needs: where the server is, the access's account, and its credentials. */
export interface TokenRequest {
  /** The server's origin, as the browser reached it (`location.origin`). */
  origin: string;
  accountId: string;
  clientId: string;
  clientSecret: string;
}

/**
 * A `curl` command that asks for a token: form-encoded, with the credentials in the body (`--data-urlencode`,
 * so any character survives), no scope (the whole access) and no `expires_in` (the server's 1 hour).
 */
export const tokenCurl = ({ origin, accountId, clientId, clientSecret }: TokenRequest): string =>
  [
    `curl ${shellQuote(`${origin}/oauth/${encodeURIComponent(accountId)}/token`)}`,
    `  -d grant_type=client_credentials`,
    `  --data-urlencode ${shellQuote(`client_id=${clientId}`)}`,
    `  --data-urlencode ${shellQuote(`client_secret=${clientSecret}`)}`,
  ].join(' \\\n');

/**
 * The token request of a new access as a command to copy.
 * @summary Ready-to-copy token request of an access.
 */
export class TokenCurl extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      h3 {
        font-size: 1rem;
        margin: 0.75rem 0 0.35rem;
      }
      .hint code {
        white-space: nowrap;
      }
      pre {
        background: #fff;
        border: 1px solid var(--line);
        border-radius: 6px;
        padding: 0.6rem;
        margin: 0 0 0.5rem;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
    `,
  ];
  static override properties = { request: { attribute: false } };

  /** The request shown; its secret is only held while the owner shows it. */
  declare request: TokenRequest;

  constructor() {
    super();
    this.request = { origin: '', accountId: '', clientId: '', clientSecret: '' };
  }

  override render() {
    const command = tokenCurl(this.request);
    return html`<h3>Get a token</h3>
      <p class="hint">
        Run this in a terminal: the answer's <code>access_token</code> goes in
        <code>Authorization: Bearer …</code> of the remote control API for an hour (add
        <code>?expires_in=</code> seconds to the address for another lifetime). It carries the secret: copy it
        now, like the secret.
      </p>
      <pre><code class="mono" data-testid="token-curl">${command}</code></pre>
      <copy-button .value=${command} label="token request (curl)"></copy-button>`;
  }
}

customElements.define('token-curl', TokenCurl);

declare global {
  interface HTMLElementTagNameMap {
    'token-curl': TokenCurl;
  }
}
