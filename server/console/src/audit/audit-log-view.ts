// Team > Audit log (docs/teams.md "Audit log"): the chosen account's entries, newest first, a page at a time
// ("Older" asks for the entries before the last seq shown, the server's keyset cursor), filtered by person (a
// member, or a kind of caller), by subject kind, action and dates; and a link to the same entries as JSON lines
// (the export route, which the browser's session cookie opens like any GET). Admins only, as on the server.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { mayAct } from '../roles.js';
import { consoleStyles } from '../styles.js';
import type { AuditEntry, AuditPage, Items, Member } from '../types.js';
import { actorKindLabel, auditEntry, auditEntryStyles } from './audit-entry.js';
import { AUDIT_SUBJECT_KINDS } from './audit-kinds.js';
import { auditQuery, EMPTY_FILTERS, filtersOf, type AuditFilters } from './audit-filters.js';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Kinds of callers that are not a person picked by name. */
const OTHER_ACTORS = ['operator_key', 'access', 'cli', 'system', 'anonymous'];

/**
 * An account's audit log: filters, entries, older pages, export.
 * @summary Team > Audit log.
 */
export class AuditLogView extends LitElement {
  static override styles = [
    consoleStyles,
    auditEntryStyles,
    css`
      .breadcrumb {
        margin: 0 0 0.25rem;
        font-size: 0.875rem;
      }
      .filters {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
        gap: 0 1rem;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    entries: { state: true },
    next: { state: true },
    members: { state: true },
    filters: { state: true },
    loading: { state: true },
    loadError: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The entries shown, newest first. */
  declare entries: readonly AuditEntry[];
  /** The cursor of the older page (null: none). */
  declare next: number | null;
  /** The account's members, to filter by person. */
  declare members: readonly Member[];
  declare filters: AuditFilters;
  declare loading: boolean;
  declare loadError: string;
  /** What the entries shown were read for (account and filters): a late answer for another is dropped. */
  #loadedFor = '';

  constructor() {
    super();
    consumeConsoleContext(this);
    this.entries = [];
    this.next = null;
    this.members = [];
    this.filters = EMPTY_FILTERS;
    this.loading = false;
    this.loadError = '';
  }

  get #accountId(): string | null {
    const id = this.context.account?.id ?? null;
    return id !== null && mayAct(this.context.user, id, 'admin') ? id : null;
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('context')) return;
    const accountId = this.#accountId;
    if (accountId === null || this.#loadedFor.startsWith(`${accountId}?`)) return;
    this.filters = EMPTY_FILTERS;
    void this.#load(false);
    this.context.api.get<Items<Member>>(`/accounts/${seg(accountId)}/users`).then(
      (answer) => (this.members = answer.items),
      // Only the person filter's names: without them it still filters by kind of caller.
      () => (this.members = []),
    );
  }

  /** Reads the first page (or, with `older`, the page after the entries shown). */
  async #load(older: boolean): Promise<void> {
    const accountId = this.#accountId;
    if (accountId === null) return;
    const key = `${accountId}?${auditQuery(this.filters)}`;
    this.#loadedFor = key;
    if (!older) {
      this.entries = [];
      this.next = null;
    }
    this.loading = true;
    this.loadError = '';
    try {
      const cursor = older && this.next !== null ? `&before_seq=${this.next}` : '';
      const page = await this.context.api.get<AuditPage>(
        `/accounts/${seg(accountId)}/audit?${auditQuery(this.filters)}${cursor}`,
      );
      if (key !== this.#loadedFor) return;
      this.entries = [...this.entries, ...page.items];
      this.next = page.next_before_seq;
    } catch (error) {
      if (key === this.#loadedFor) this.loadError = messageOf(error);
    } finally {
      if (key === this.#loadedFor) this.loading = false;
    }
  }

  #apply(event: SubmitEvent): void {
    event.preventDefault();
    this.filters = filtersOf(new FormData(event.target as HTMLFormElement));
    void this.#load(false);
  }

  #filterForm() {
    const f = this.filters;
    return html`<form
      class="card"
      aria-labelledby="filters-title"
      @submit=${(e: SubmitEvent) => this.#apply(e)}
    >
      <h2 id="filters-title">Filters</h2>
      <div class="filters">
        <div class="field">
          <label for="audit-actor">Person</label>
          <select id="audit-actor" name="actor">
            <option value="" ?selected=${f.actor === ''}>Anyone</option>
            ${this.members.map(
              (m) =>
                html`<option value="user:${m.id}" ?selected=${f.actor === `user:${m.id}`}>
                  ${m.email}
                </option>`,
            )}
            ${OTHER_ACTORS.map(
              (kind) =>
                html`<option value="${kind}:" ?selected=${f.actor === `${kind}:`}>
                  Any ${actorKindLabel(kind)}
                </option>`,
            )}
          </select>
        </div>
        <div class="field">
          <label for="audit-subject">Subject kind</label>
          <select id="audit-subject" name="subject_kind">
            <option value="">Any</option>
            ${AUDIT_SUBJECT_KINDS.map(
              (kind) => html`<option value=${kind} ?selected=${f.subject_kind === kind}>${kind}</option>`,
            )}
          </select>
        </div>
        <div class="field">
          <label for="audit-action">Action</label>
          <input
            id="audit-action"
            name="action"
            type="text"
            autocomplete="off"
            .value=${f.action}
            aria-describedby="audit-action-hint"
          />
          <p id="audit-action-hint" class="hint">e.g. campaign.updated</p>
        </div>
        <div class="field">
          <label for="audit-from">From (day)</label>
          <input id="audit-from" name="from" type="date" .value=${f.from} />
        </div>
        <div class="field">
          <label for="audit-to">To (day, included)</label>
          <input id="audit-to" name="to" type="date" .value=${f.to} />
        </div>
      </div>
      <div class="row">
        <button type="submit">Apply filters</button>
        <a
          href="/admin/v1/accounts/${seg(this.#accountId ?? '')}/audit/export?${auditQuery(this.filters, false)}"
          download="audit-${this.#accountId ?? ''}.jsonl"
          >Export (JSON lines)</a
        >
      </div>
    </form>`;
  }

  #list() {
    const filtered = auditQuery(this.filters, false) !== '';
    return html`<section class="card" aria-labelledby="entries-title">
      <h2 id="entries-title">Entries</h2>
      ${
        this.entries.length === 0 && !this.loading && this.loadError === ''
          ? html`<p>
              ${filtered ? 'No entry matches these filters: widen them.' : 'No change recorded yet: every change to the account will be listed here.'}
            </p>`
          : html`<ol class="entries">
              ${this.entries.map((entry) => html`<li>${auditEntry(entry)}</li>`)}
            </ol>`
      }
      ${this.loading ? html`<p role="status">Loading the entries…</p>` : nothing}
      ${
        this.loadError === ''
          ? nothing
          : html`<p class="notice danger" role="alert">The entries could not be loaded: ${this.loadError}</p>`
      }
      ${
        this.next === null || this.loading
          ? nothing
          : html`<button type="button" class="secondary" @click=${() => void this.#load(true)}>Older</button>`
      }
    </section>`;
  }

  override render() {
    const account = this.context.account;
    const head = html`<p class="breadcrumb muted">Team</p>
      <h1>Audit log</h1>`;
    if (account === null)
      return html`${head}
        <p class="notice warning">There is no account yet.</p>`;
    if (this.#accountId === null)
      return html`${head}
        <p class="notice">Only an admin of ${account.name} can read its audit log.</p>`;
    return html`${head}
      <p class="muted">
        Every change to ${account.name}, newest first: who made it, when, from where, and what changed.
      </p>
      ${this.#filterForm()} ${this.#list()}`;
  }
}

customElements.define('audit-log-view', AuditLogView);

declare global {
  interface HTMLElementTagNameMap {
    'audit-log-view': AuditLogView;
  }
}
