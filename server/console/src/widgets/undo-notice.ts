// A short notice placed in the page's flow beside what it is about (so it covers nothing), with an Undo button for
// a few seconds. The time stops while the pointer is over it or the focus is in it, so a user who reaches for
// Undo (by mouse or keyboard) is never beaten by the clock (WCAG 2.2.1); its owner hears `undo` and
// `notice-expired` and decides what the notice becomes.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';

/** How long a notice stays, in milliseconds, unless the user is in it. */
export const UNDO_MS = 8000;

/** Runs `run` after `ms` milliseconds; returns what cancels it. The notice's clock, replaced in tests. */
export type Schedule = (run: () => void, ms: number) => () => void;

const timeout: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/**
 * A notice with an optional Undo button that expires after `duration` unless the user is in it.
 * @summary In-flow notice with Undo.
 * @fires undo - The user asked to undo the change.
 * @fires notice-expired - The notice's time is up (its owner removes it).
 */
export class UndoNotice extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      :host {
        display: block;
      }
      p {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.25rem 0.5rem;
        margin: 0;
        padding: 0.25rem 0.5rem;
        border-left: 4px solid var(--primary);
        background: #eef3fd;
        border-radius: 4px;
        font-size: 0.875rem;
      }
      button {
        min-height: 1.9rem;
        padding: 0.15rem 0.6rem;
      }
    `,
  ];
  static override properties = {
    message: { type: String },
    undoLabel: { attribute: false },
    duration: { type: Number },
    schedule: { attribute: false },
  };

  /** What happened, in a few words. */
  declare message: string;
  /** The Undo button's accessible name, starting with "Undo"; empty: nothing to undo (no button). */
  declare undoLabel: string;
  /** How long the notice stays, in milliseconds. */
  declare duration: number;
  /** The clock the notice expires on. */
  declare schedule: Schedule;

  #cancel: (() => void) | null = null;
  /** Whether the pointer is over the notice or the focus inside it: the clock stops then. */
  #hovered = false;
  #focused = false;

  constructor() {
    super();
    this.message = '';
    this.undoLabel = '';
    this.duration = UNDO_MS;
    this.schedule = timeout;
    this.addEventListener('mouseenter', () => this.#hold('hovered', true));
    this.addEventListener('mouseleave', () => this.#hold('hovered', false));
    this.addEventListener('focusin', () => this.#hold('focused', true));
    this.addEventListener('focusout', () => this.#hold('focused', false));
  }

  override disconnectedCallback(): void {
    this.#stop();
    super.disconnectedCallback();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // A new message is a new notice: its full time starts now.
    if (changed.has('message') || changed.has('duration') || changed.has('schedule')) this.#start();
  }

  #hold(what: 'hovered' | 'focused', on: boolean): void {
    if (what === 'hovered') this.#hovered = on;
    else this.#focused = on;
    if (this.#hovered || this.#focused) this.#stop();
    else this.#start();
  }

  #start(): void {
    this.#stop();
    if (!this.isConnected || this.#hovered || this.#focused) return;
    this.#cancel = this.schedule(() => {
      this.#cancel = null;
      emit(this, 'notice-expired', undefined);
    }, this.duration);
  }

  #stop(): void {
    this.#cancel?.();
    this.#cancel = null;
  }

  override render() {
    return html`<p>
      <span>${this.message}</span>
      ${
        this.undoLabel === ''
          ? nothing
          : html`<button
              type="button"
              class="secondary"
              aria-label=${this.undoLabel}
              @click=${() => emit(this, 'undo', undefined)}
            >
              Undo
            </button>`
      }
    </p>`;
  }
}

customElements.define('undo-notice', UndoNotice);

declare global {
  interface HTMLElementTagNameMap {
    'undo-notice': UndoNotice;
  }
}
