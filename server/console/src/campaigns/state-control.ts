// The campaign editor's state control: the select of a stored campaign, changed at once through the toggle route
// (campaign-state.ts), and under it, in the page's flow so it covers nothing, what the last change did. After a
// pause or a resume that is the list's <undo-notice>, whose Undo goes back through the same route for a few
// seconds; interrupting was confirmed and stays final, so its notice has no Undo. A refusal is said there too,
// never in the shell's floating notice, which would cover the form.
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { CampaignState, RemoteCampaign } from 'feature-ts/protocol';
import type { ConsoleContext } from '../console-context.js';
import {
  STATES,
  STATE_HINTS,
  STATE_LABELS,
  changeState,
  stateAnnouncement,
  stateNotice,
  undoLabel,
} from './campaign-state.js';
import '../widgets/undo-notice.js';

/** The notice under the control, and the state its Undo goes back to (null: no Undo). */
interface StateChange {
  message: string;
  undoTo: CampaignState | null;
}

/** What the control needs from the editor that holds it. */
export interface StateControlAccess {
  /** The shared state now (its api and environment). */
  context: () => ConsoleContext;
  /** The campaign as stored now, or null while there is none. */
  campaign: () => RemoteCampaign | null;
  /** The server stored a new state: the editor shows `updated`. */
  changed: (updated: RemoteCampaign) => void;
}

/**
 * The state select of the campaign the host edits, with what its last change did and an Undo for a few seconds
 * after a pause or a resume. It keeps that state itself and asks the host to render when it changes.
 */
export class StateControl {
  readonly #host: ReactiveControllerHost & { readonly renderRoot: ParentNode };
  readonly #access: StateControlAccess;
  #change: StateChange | null = null;
  /** What screen readers hear: the last change in words, or why it was refused. */
  #said: { message: string; kind: 'info' | 'error' } | null = null;
  /** Bumped by `reset`: an answer that arrives for a campaign no longer shown is dropped. */
  #generation = 0;

  constructor(
    host: ReactiveControllerHost & { readonly renderRoot: ParentNode },
    access: StateControlAccess,
  ) {
    this.#host = host;
    this.#access = access;
  }

  /** Forgets the last change (another campaign is shown). */
  reset(): void {
    this.#generation += 1;
    this.#change = null;
    this.#said = null;
    this.#host.requestUpdate();
  }

  /** The shared state with `notify` kept here: a refusal is said under the control. */
  #context(): ConsoleContext {
    return {
      ...this.#access.context(),
      notify: (message, kind = 'info') => this.#show(this.#change, { message, kind }),
    };
  }

  #show(change: StateChange | null, said: { message: string; kind: 'info' | 'error' } | null): void {
    this.#change = change;
    this.#said = said;
    this.#host.requestUpdate();
  }

  async #set(select: HTMLSelectElement): Promise<void> {
    const campaign = this.#access.campaign();
    if (campaign === null) return;
    const generation = this.#generation;
    this.#show(null, null);
    const updated = await changeState(this.#context(), campaign, select.value as CampaignState);
    if (generation !== this.#generation) return;
    // Cancelled or refused: the select goes back to the stored state.
    if (updated === null) {
      select.value = campaign.state;
      return;
    }
    this.#access.changed(updated);
    // Pausing and resuming can be taken back; interrupting was confirmed and is final.
    const undoTo = updated.state === 'interrupted' ? null : campaign.state;
    this.#show(
      { message: stateNotice(updated.state), undoTo },
      {
        message: `${stateAnnouncement(updated)}${undoTo === null ? '' : ' Undo is under it for a few seconds.'}`,
        kind: 'info',
      },
    );
  }

  /** Undo: the same toggle route, back to the state before the change. */
  async #undo(change: StateChange): Promise<void> {
    const campaign = this.#access.campaign();
    if (campaign === null || change.undoTo === null) return;
    const generation = this.#generation;
    // The button goes at once, so a second click cannot send a second request.
    this.#show({ message: 'Undoing…', undoTo: null }, this.#said);
    const updated = await changeState(this.#context(), campaign, change.undoTo);
    if (generation !== this.#generation) return;
    if (updated === null) {
      // Refused (said under the control by notify): the select keeps the state the server has.
      if (this.#change?.message === 'Undoing…') this.#show(null, this.#said);
      return;
    }
    this.#access.changed(updated);
    this.#show(
      { message: `Undone. ${stateNotice(updated.state)}`, undoTo: null },
      { message: stateAnnouncement(updated, true), kind: 'info' },
    );
    // The Undo button is gone: the focus goes to the state it restored, not to the page's start.
    await this.#host.updateComplete;
    this.#host.renderRoot.querySelector<HTMLElement>('#campaign-state')?.focus();
  }

  #notice(campaign: RemoteCampaign): TemplateResult | typeof nothing {
    const change = this.#change;
    if (change === null) return nothing;
    return html`<undo-notice
      class="state-notice"
      .message=${change.message}
      .undoLabel=${undoLabel(campaign, change.undoTo)}
      @undo=${() => void this.#undo(change)}
      @notice-expired=${() => {
        if (this.#change === change) this.#show(null, this.#said);
      }}
    ></undo-notice>`;
  }

  /** The control for `campaign`: its select, its hint, and what its last change did, in the flow under it. */
  render(campaign: RemoteCampaign): TemplateResult {
    const said = this.#said;
    return html`<div class="field">
      <label for="campaign-state">Campaign state</label>
      <select
        id="campaign-state"
        aria-describedby="campaign-state-hint"
        ?disabled=${campaign.state === 'interrupted'}
        .value=${live(campaign.state)}
        @change=${(event: Event) => void this.#set(event.target as HTMLSelectElement)}
      >
        ${STATES.map((s) => html`<option value=${s} ?selected=${s === campaign.state}>${STATE_LABELS[s]}</option>`)}
      </select>
      <p id="campaign-state-hint" class="hint">
        <span class="badge ${campaign.state}">${STATE_LABELS[campaign.state]}</span>
        ${STATE_HINTS[campaign.state]}. Changes apply at once, without saving.
      </p>
      ${this.#notice(campaign)}
      <!-- Always there, so screen readers hear each change; seen only for a refusal (the notice shows the rest). -->
      <p
        class=${said?.kind === 'error' ? 'state-note error' : 'visually-hidden'}
        role="status"
        data-testid="state-note"
      >
        ${said?.message ?? ''}
      </p>
    </div>`;
  }
}
