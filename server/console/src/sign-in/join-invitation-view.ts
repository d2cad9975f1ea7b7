// The screen a join link opens (`/admin/#invite=…` when the server says it asks to join) once its person is
// signed in: an invitation to an account for someone who already has a user, who is never added without saying
// yes. It reads the invitation (the token in a POST body, never in a URL), then asks "Join <account> as <role>?"; signed in as someone else, it says so
// and offers to sign out. The shell keeps the token (shell/join-token.ts) until the person answered or left.
import { LitElement, css, html } from 'lit';
import { ConsoleApiError } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { emit } from '../events.js';
import { consoleStyles } from '../styles.js';
import type { Role } from '../roles.js';

/** What the server says a join link invites to. */
interface JoinInvitation {
  account_id: string;
  account_name: string;
  role: Role;
  expires_at: string;
}

/** Said when the link is another person's (or the operator key's session has no person). */
export const OTHER_PERSON =
  'This invitation is for another person: sign out, then open the link again and sign in as the person it invites.';

/**
 * Reads a join link's invitation, and joins or declines it.
 * @summary Answer an invitation to an account.
 * @fires {CustomEvent<JoinAnsweredDetail>} join-answered - The person joined or declined.
 * @fires {CustomEvent<undefined>} join-left - The person leaves the screen without answering.
 * @fires {CustomEvent<undefined>} sign-out-requested - The link is another person's: sign out.
 */
export class JoinInvitationView extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .answers {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        margin-top: 1rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    token: { type: String },
    invitation: { state: true },
    refusal: { state: true },
    otherPerson: { state: true },
    busy: { state: true },
  };

  /** The shared state, provided by <console-app> (the screen uses its API). */
  declare context: ConsoleContext;
  /** The link's token (taken out of the address bar by the shell). */
  declare token: string;
  declare invitation: JoinInvitation | null;
  /** Why the link answers nothing (used, expired, unknown), as the server says it. */
  declare refusal: string;
  declare otherPerson: boolean;
  declare busy: boolean;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.token = '';
    this.invitation = null;
    this.refusal = '';
    this.otherPerson = false;
    this.busy = true;
  }

  override firstUpdated(): void {
    void this.#peek();
  }

  #refused(error: unknown): void {
    if (error instanceof ConsoleApiError && error.status === 403) this.otherPerson = true;
    else this.refusal = error instanceof Error ? error.message : String(error);
  }

  async #peek(): Promise<void> {
    try {
      this.invitation = await this.context.api.post<JoinInvitation>('/console/join/peek', {
        token: this.token,
      });
    } catch (error) {
      this.#refused(error);
    } finally {
      this.busy = false;
    }
  }

  async #answer(answer: 'join' | 'decline'): Promise<void> {
    const invitation = this.invitation;
    if (invitation === null) return;
    this.busy = true;
    try {
      await this.context.api.post('/console/join', { token: this.token, answer });
      emit(this, 'join-answered', {
        accountId: invitation.account_id,
        accountName: invitation.account_name,
        answer,
      });
    } catch (error) {
      this.invitation = null;
      this.#refused(error);
    } finally {
      this.busy = false;
    }
  }

  #body() {
    if (this.otherPerson)
      return html`<p class="notice danger" role="alert">${OTHER_PERSON}</p>
        <div class="answers">
          <button type="button" @click=${() => emit(this, 'sign-out-requested', undefined)}>Sign out</button>
          <button type="button" class="secondary" @click=${() => emit(this, 'join-left', undefined)}>
            Go to the console
          </button>
        </div>`;
    if (this.refusal !== '')
      return html`<p class="notice warning" role="alert">${this.refusal}</p>
        <button type="button" class="secondary" @click=${() => emit(this, 'join-left', undefined)}>
          Go to the console
        </button>`;
    const invitation = this.invitation;
    if (invitation === null) return html`<p role="status">Reading the invitation…</p>`;
    const expires = new Date(invitation.expires_at).toLocaleDateString();
    return html`<p id="join-question">
        Join <strong>${invitation.account_name}</strong> as <strong>${invitation.role}</strong>?
      </p>
      <p class="hint">
        An admin of ${invitation.account_name} invited you. Until you join, they see only your email. The
        invitation ends on ${expires}.
      </p>
      <div class="answers" role="group" aria-labelledby="join-question">
        <button type="button" ?disabled=${this.busy} @click=${() => void this.#answer('join')}>Join</button>
        <button
          type="button"
          class="secondary"
          ?disabled=${this.busy}
          @click=${() => void this.#answer('decline')}
        >
          Decline
        </button>
      </div>`;
  }

  override render() {
    return html`<main class="card" aria-labelledby="join-title" aria-busy=${this.busy ? 'true' : 'false'}>
      <h1 id="join-title">An invitation to an account</h1>
      ${this.#body()}
    </main>`;
  }
}

customElements.define('join-invitation-view', JoinInvitationView);

declare global {
  interface HTMLElementTagNameMap {
    'join-invitation-view': JoinInvitationView;
  }
}
