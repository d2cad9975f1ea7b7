// "N pages listening now (this server)": how many pages (and servers) hold a live-update stream (PROTOCOL.md §17)
// of the chosen environment open, so an operator knows that a toggle lands on them at once. Shown in the campaign
// list and the report header, re-read every 5 s while the tab is visible (the report's own pace). The count is
// the answering instance's (GET …/listening says `counted_on: this-instance`), and the text says so. When it
// cannot be read (an older server, a network fault) nothing is shown rather than a stale number.
import { LitElement, css, html, nothing } from 'lit';
import { seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { consoleStyles } from '../styles.js';
import { VisiblePoller } from './visible-poller.js';

/** How often the count is re-read (as the report). */
export const LISTENING_REFRESH_MS = 5000;

/** The text of a count. */
export const listeningText = (count: number): string =>
  `${count} ${count === 1 ? 'page' : 'pages'} listening now (this server)`;

/**
 * The open live-update streams of the chosen environment on this server.
 * @summary Pages listening now.
 */
export class ListeningNow extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      :host {
        display: block;
      }
      p {
        margin: 0 0 0.75rem;
      }
    `,
  ];
  static override properties = { context: { state: true }, count: { state: true } };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The last count read for the environment shown, or null (not read yet, or unreadable). */
  declare count: number | null;

  #envId: string | null = null;
  readonly #poller = new VisiblePoller(this, LISTENING_REFRESH_MS, () => void this.#refresh());

  constructor() {
    super();
    consumeConsoleContext(this);
    this.count = null;
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (!changed.has('context')) return;
    const envId = this.context.environment?.id ?? null;
    if (envId === this.#envId) return;
    this.#envId = envId;
    this.count = null;
    this.#poller.reset();
    void this.#refresh();
  }

  async #refresh(): Promise<void> {
    const envId = this.#envId;
    if (envId === null) return;
    await this.#poller.run(async (current) => {
      let count: number | null = null;
      try {
        count = (await this.context.api.get<{ listening: number }>(`/environments/${seg(envId)}/listening`))
          .listening;
      } catch {
        // Unreadable: show nothing rather than a number that may be stale.
      }
      if (current()) this.count = count;
    });
  }

  override render() {
    if (this.count === null) return nothing;
    return html`<p
      class="hint"
      title="Pages with live updates on get a change within a second. Each server counts its own."
    >
      ${listeningText(this.count)}
    </p>`;
  }
}

customElements.define('listening-now', ListeningNow);

declare global {
  interface HTMLElementTagNameMap {
    'listening-now': ListeningNow;
  }
}
