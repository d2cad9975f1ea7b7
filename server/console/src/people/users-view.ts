// Team > Users (docs/teams.md "People and roles"): the chosen account's members with their role, since when and
// their last sign-in; invite (user-invite-form.ts), change a role in place (the server's refusal, such as
// demoting the last admin, is said under the select, which goes back to the stored role), remove after a
// confirmation, and make a password reset link, shown once. Only an admin of the account (or the operator key)
// may do any of it: anyone else is told so and offered nothing, as the server would refuse them.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { mayAct, ROLES, type Role } from '../roles.js';
import { shortDateTime } from '../settings/action-labels.js';
import { consoleStyles } from '../styles.js';
import type { Items, Member, PersonLink } from '../types.js';
import { confirmAction } from '../widgets/confirm.js';
import { stackedTableStyles } from '../widgets/stacked-table.js';
import '../settings/secret-once.js';
import './user-invite-form.js';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * An account's people: invite, change role, remove, reset link.
 * @summary Team > Users.
 */
export class UsersView extends LitElement {
  static override styles = [
    consoleStyles,
    stackedTableStyles('48rem'),
    css`
      .breadcrumb {
        margin: 0 0 0.25rem;
        font-size: 0.875rem;
      }
      td select {
        width: auto;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    members: { state: true },
    loading: { state: true },
    loadError: { state: true },
    roleErrors: { state: true },
    resetLink: { state: true },
    status: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  declare members: readonly Member[];
  declare loading: boolean;
  declare loadError: string;
  /** The server's refusal of a role change, by member id, said under their select. */
  declare roleErrors: ReadonlyMap<string, string>;
  /** A reset link just made (a whole URL) and whose it is, on screen until Done. */
  declare resetLink: { email: string; url: string } | null;
  declare status: string;
  /** The account whose members are loaded (a late answer for another account is dropped). */
  #loadedFor: string | null = null;

  constructor() {
    super();
    consumeConsoleContext(this);
    this.members = [];
    this.loading = false;
    this.loadError = '';
    this.roleErrors = new Map();
    this.resetLink = null;
    this.status = '';
  }

  get #isAdmin(): boolean {
    return mayAct(this.context.user, this.context.account?.id ?? null, 'admin');
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('context')) return;
    const accountId = this.#isAdmin ? (this.context.account?.id ?? null) : null;
    if (accountId === this.#loadedFor) return;
    this.#loadedFor = accountId;
    this.members = [];
    this.roleErrors = new Map();
    this.resetLink = null;
    this.status = '';
    if (accountId !== null) void this.#load(accountId);
  }

  async #load(accountId: string): Promise<void> {
    this.loading = true;
    this.loadError = '';
    try {
      const answer = await this.context.api.get<Items<Member>>(`/accounts/${seg(accountId)}/users`);
      if (accountId === this.#loadedFor) this.members = answer.items;
    } catch (error) {
      if (accountId === this.#loadedFor) this.loadError = messageOf(error);
    } finally {
      if (accountId === this.#loadedFor) this.loading = false;
    }
  }

  #path(member: Member): string {
    return `/accounts/${seg(this.#loadedFor ?? '')}/users/${seg(member.id)}`;
  }

  #replace(member: Member): void {
    this.members = this.members.some((m) => m.id === member.id)
      ? this.members.map((m) => (m.id === member.id ? member : m))
      : [...this.members, member];
  }

  async #changeRole(member: Member, select: HTMLSelectElement): Promise<void> {
    const role = select.value as Role;
    const errors = new Map(this.roleErrors);
    errors.delete(member.id);
    this.roleErrors = errors;
    try {
      this.#replace(await this.context.api.patch<Member>(this.#path(member), { role }));
      this.status = `${member.email} is now ${role}.`;
    } catch (error) {
      select.value = member.role;
      this.roleErrors = new Map(this.roleErrors).set(member.id, messageOf(error));
    }
  }

  async #remove(member: Member): Promise<void> {
    const account = this.context.account?.name ?? 'this account';
    const sure = member.active
      ? await confirmAction(
          `Remove ${member.email} from ${account}?`,
          'They lose the account at their next request. Removed from their last account, they are signed out and their links stop working.',
          'Remove',
        )
      : await confirmAction(
          `Revoke the invitation of ${member.email} to ${account}?`,
          'Their invitation link stops working. You can invite them again later.',
          'Revoke',
        );
    if (!sure) return;
    try {
      await this.context.api.delete(this.#path(member));
      this.members = this.members.filter((m) => m.id !== member.id);
      this.status = member.active
        ? `${member.email} is removed.`
        : `The invitation of ${member.email} is revoked.`;
    } catch (error) {
      this.status = `Not removed: ${messageOf(error)}`;
    }
  }

  async #resetLink(member: Member): Promise<void> {
    this.status = '';
    try {
      const link = await this.context.api.post<PersonLink>(`${this.#path(member)}/reset-link`);
      this.resetLink = { email: member.email, url: new URL(link.path, location.origin).href };
    } catch (error) {
      this.status = `No reset link: ${messageOf(error)}`;
    }
  }

  #row(member: Member, index: number) {
    const error = this.roleErrors.get(member.id);
    const selectId = `role-${index}`;
    return html`<tr role="row">
      <th role="rowheader" scope="row" data-label="Email">${member.email}</th>
      <td role="cell" data-label="Name">
        ${member.name === '' ? html`<span class="muted">—</span>` : member.name}
        ${member.active ? nothing : html`<span class="badge">Invitation pending</span>`}
      </td>
      <td role="cell" data-label="Role">
        <div>
          <label class="visually-hidden" for=${selectId}>Role of ${member.email}</label>
          <select
            id=${selectId}
            aria-invalid=${error === undefined ? 'false' : 'true'}
            aria-describedby=${error === undefined ? nothing : `${selectId}-error`}
            @change=${(event: Event) => void this.#changeRole(member, event.target as HTMLSelectElement)}
          >
            ${ROLES.map((role) => html`<option value=${role} ?selected=${role === member.role}>${role}</option>`)}
          </select>
          ${error === undefined ? nothing : html`<p id="${selectId}-error" class="error" role="alert">${error}</p>`}
        </div>
      </td>
      <td role="cell" data-label="Since">${shortDateTime(member.created_at)}</td>
      <td role="cell" data-label="Last sign-in">${shortDateTime(member.last_sign_in_at)}</td>
      <td role="cell" class="whole">
        <div class="row">
          ${
            // Someone who has not answered their invitation gets a new one (invite again), not a reset link.
            member.active
              ? html`<button type="button" class="secondary" @click=${() => void this.#resetLink(member)}>
                  Reset link<span class="visually-hidden"> for ${member.email}</span>
                </button>`
              : nothing
          }
          <button type="button" class="secondary danger" @click=${() => void this.#remove(member)}>
            ${member.active ? 'Remove' : 'Revoke invitation'}<span class="visually-hidden">
              ${member.email}</span
            >
          </button>
        </div>
      </td>
    </tr>`;
  }

  #list() {
    if (this.loading) return html`<p role="status">Loading the members…</p>`;
    if (this.loadError !== '')
      return html`<p class="notice danger" role="alert">
        The members could not be loaded: ${this.loadError}
        <button
          type="button"
          class="secondary"
          @click=${() => this.#loadedFor !== null && void this.#load(this.#loadedFor)}
        >
          Try again
        </button>
      </p>`;
    if (this.members.length === 0) return html`<p>No one yet: invite the account's first admin above.</p>`;
    return html`<div class="stacks">
      <table role="table" aria-labelledby="members-title">
        <thead role="rowgroup">
          <tr role="row">
            <th role="columnheader" scope="col">Email</th>
            <th role="columnheader" scope="col">Name</th>
            <th role="columnheader" scope="col">Role</th>
            <th role="columnheader" scope="col">Since</th>
            <th role="columnheader" scope="col">Last sign-in</th>
            <th role="columnheader" scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          ${this.members.map((member, index) => this.#row(member, index))}
        </tbody>
      </table>
    </div>`;
  }

  override render() {
    const account = this.context.account;
    const head = html`<p class="breadcrumb muted">Team</p>
      <h1>Users</h1>`;
    if (account === null)
      return html`${head}
        <p class="notice warning">There is no account yet.</p>`;
    if (!this.#isAdmin)
      return html`${head}
        <p class="notice">Only an admin of ${account.name} can see and manage its people.</p>`;
    return html`${head}
      <p class="muted">The people who sign in to ${account.name}, and their role in it.</p>
      <user-invite-form
        @member-invited=${(event: HTMLElementEventMap['member-invited']) => this.#replace(event.detail)}
      ></user-invite-form>
      <section class="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        ${
          this.resetLink === null
            ? nothing
            : html`<secret-once
                heading="Reset link for ${this.resetLink.email}"
                .items=${[
                  {
                    label: 'Reset link (valid 1 hour, used once)',
                    copyLabel: 'reset link',
                    testId: 'reset-link',
                    value: this.resetLink.url,
                  },
                ]}
                @secret-dismissed=${() => (this.resetLink = null)}
                ><p>
                  Give it to the person: it lets them choose a new password and ends their other sessions.
                </p></secret-once
              >`
        }
        <p class="hint" role="status">${this.status}</p>
        ${this.#list()}
      </section>`;
  }
}

customElements.define('users-view', UsersView);

declare global {
  interface HTMLElementTagNameMap {
    'users-view': UsersView;
  }
}
