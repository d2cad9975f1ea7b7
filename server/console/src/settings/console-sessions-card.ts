// "End all sessions" (issue #29): signs every browser out of the console at once, on every server instance,
// this one included, and voids the sign-in links not used yet. For a session that may have leaked or a console
// left open somewhere; a leaked operator key needs a new FEATURE_OPERATOR_KEY, which ends its sessions too, so
// the card says so. It asks first: everyone, the operator who clicks included, has to sign in again.
import { LitElement, css, html, nothing } from 'lit';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { consoleStyles } from '../styles.js';
import { confirmAction } from '../widgets/confirm.js';

/**
 * The console's sessions, and the action that ends them all.
 * @summary Settings > Account: console sessions.
 */
export class ConsoleSessionsCard extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      :host {
        display: block;
      }
      .card {
        max-width: 40rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    busy: { state: true },
    failure: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  declare busy: boolean;
  /** Why the last attempt failed, or empty. */
  declare failure: string;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.busy = false;
    this.failure = '';
  }

  async #endAll(): Promise<void> {
    const sure = await confirmAction(
      'End every console session?',
      'Every browser signed in to this console is signed out, on every server, this one included, and sign-in links not used yet stop working. Everyone signs in again with the operator key or a new link.',
      'End all sessions',
    );
    if (!sure) return;
    this.busy = true;
    this.failure = '';
    try {
      // On success the console is signed out at once (the API tells the app), and this card goes with it.
      await this.context.api.endAllSessions();
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Console sessions</h2>
      <p>
        Each browser signed in to this console keeps its session for 8 hours. If one may have leaked, or a
        console was left open somewhere, end them all: every browser, this one included, has to sign in again.
      </p>
      <p class="hint">
        If the operator key itself leaked, start the servers with a new <code>FEATURE_OPERATOR_KEY</code>:
        that refuses the old key and ends every session and sign-in link it opened.
      </p>
      ${
        this.failure === ''
          ? nothing
          : html`<p class="notice danger" role="alert">The sessions were not ended: ${this.failure}</p>`
      }
      <button type="button" class="danger" ?disabled=${this.busy} @click=${() => void this.#endAll()}>
        End all sessions
      </button>
      <span role="status" class="hint">${this.busy ? 'Ending every session…' : ''}</span>
    </section>`;
  }
}

customElements.define('console-sessions-card', ConsoleSessionsCard);

declare global {
  interface HTMLElementTagNameMap {
    'console-sessions-card': ConsoleSessionsCard;
  }
}
