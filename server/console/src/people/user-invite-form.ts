// The invitation panel of Team > Users (docs/teams.md "Invitations"): an email and a role, then Invite. The
// one-time link of the answer lives in this element's state until "Done", and nowhere else; a person who
// already signs in gets no link (they simply become a member), which the panel says instead.
import { LitElement, html, nothing } from 'lit';
import { ConsoleApiError, seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { emit } from '../events.js';
import { ROLES } from '../roles.js';
import { consoleStyles } from '../styles.js';
import type { Member, PersonLink } from '../types.js';
import '../settings/secret-once.js';

/**
 * Invites a person to the chosen account and shows their one-time link once.
 * @summary User invitation panel.
 * @fires {CustomEvent<Member>} member-invited - The server made (or re-invited) the member.
 */
export class UserInviteForm extends LitElement {
  static override styles = [consoleStyles];
  static override properties = {
    context: { state: true },
    emailError: { state: true },
    formError: { state: true },
    busy: { state: true },
    link: { state: true },
    status: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  declare emailError: string;
  declare formError: string;
  declare busy: boolean;
  /** The invitation link (a whole URL), on screen until Done. */
  declare link: string | null;
  declare status: string;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.emailError = '';
    this.formError = '';
    this.busy = false;
    this.link = null;
    this.status = '';
  }

  async #invite(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const account = this.context.account;
    if (account === null) return;
    const form = event.target as HTMLFormElement;
    const email = (form.elements.namedItem('invite-email') as HTMLInputElement).value.trim();
    const role = (form.elements.namedItem('invite-role') as HTMLSelectElement).value;
    this.formError = '';
    this.status = '';
    this.emailError = email === '' ? 'Enter the email of the person to invite.' : '';
    if (this.emailError !== '') return this.#focusEmail();
    this.busy = true;
    try {
      // Always a link: a new person chooses a password with it, someone who already has a user answers it
      // signed in. The server answers both alike, so the console cannot tell (nor say) which.
      const answer = await this.context.api.post<{ user: Member; link: PersonLink }>(
        `/accounts/${seg(account.id)}/users`,
        { email, role },
      );
      form.reset();
      this.link = new URL(answer.link.path, location.origin).href;
      emit(this, 'member-invited', answer.user);
    } catch (error) {
      const emailMessage =
        error instanceof ConsoleApiError
          ? [...error.fields].find(([path]) => path.endsWith('email'))?.[1]
          : undefined;
      if (emailMessage === undefined) this.formError = error instanceof Error ? error.message : String(error);
      else {
        this.emailError = `The email ${emailMessage}.`;
        void this.#focusEmail();
      }
    } finally {
      this.busy = false;
    }
  }

  async #focusEmail(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#invite-email')?.focus();
  }

  override render() {
    return html`<section class="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a person</h2>
      ${
        this.link === null
          ? nothing
          : html`<secret-once
              heading="Invitation link"
              .items=${[
                {
                  label: 'Invitation link (valid 7 days, used once)',
                  copyLabel: 'invitation link',
                  testId: 'invitation-link',
                  value: this.link,
                },
              ]}
              @secret-dismissed=${() => {
                this.link = null;
                void this.#focusEmail();
              }}
              ><p>
                Give it to the person: there is no mail server. A new person chooses their password there;
                someone who already signs in to this server signs in and answers it. Until then they are
                listed as an invitation pending, and have no access.
              </p></secret-once
            >`
      }
      <form novalidate @submit=${(event: SubmitEvent) => void this.#invite(event)}>
        <div class="field">
          <label for="invite-email">Email</label>
          <input
            id="invite-email"
            name="invite-email"
            type="email"
            autocomplete="off"
            aria-invalid=${this.emailError === '' ? 'false' : 'true'}
            aria-describedby=${this.emailError === '' ? nothing : 'invite-email-error'}
          />
          ${this.emailError === '' ? nothing : html`<p id="invite-email-error" class="error">${this.emailError}</p>`}
        </div>
        <div class="field">
          <label for="invite-role">Role</label>
          <select id="invite-role" name="invite-role">
            ${ROLES.map((role) => html`<option value=${role} ?selected=${role === 'editor'}>${role}</option>`)}
          </select>
        </div>
        ${this.formError === '' ? nothing : html`<p class="notice danger" role="alert">${this.formError}</p>`}
        <button type="submit" ?disabled=${this.busy}>Invite</button>
        <span role="status" class="hint">${this.busy ? 'Inviting…' : this.status}</span>
      </form>
    </section>`;
  }
}

customElements.define('user-invite-form', UserInviteForm);

declare global {
  interface HTMLElementTagNameMap {
    'user-invite-form': UserInviteForm;
  }
}
