// The campaign editor (#/campaigns/new, #/campaigns/{id}): the whole campaign in one form, sent to POST or PATCH
// …/campaigns. The draft (campaign-draft.ts) keeps what is typed; inputs are named by the server's field paths
// (form-kit.ts), so the server's `details` land next to their inputs, and what cannot be placed goes into the
// summary at the top with its path. A save is live at once: the server publishes it. A save that would leave flags
// to the page's defaults waits for "Save anyway" (missing-flags.ts). What a save did is said in the page's flow
// (beside Save, or under the title of a campaign just created), as a state change is (state-control.ts), never
// in the shell's floating notice, which would cover the form.
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import type { CampaignReport, RemoteCampaign } from 'feature-ts/protocol';
import { ConsoleApiError, seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { navigate, routeHash } from '../router.js';
import { consoleStyles } from '../styles.js';
import { draftOf, draftToBody, newCampaignDraft, type CampaignDraft, type Issue } from './campaign-draft.js';
import { goalsSeen, NO_GOALS, type GoalsSeen } from './analysis-fields.js';
import { campaignForm } from './campaign-form.js';
import { loadAllCampaigns } from './campaign-list.js';
import { deleteCampaign } from './campaign-delete.js';
import { errorSummary } from './editor-parts.js';
import { editorLinks, editorTitle } from './editor-heading.js';
import { editorStyles } from './editor-styles.js';
import { focusField, type FormKit } from './form-kit.js';
import { missingFlags } from './missing-flags.js';
import { StateControl } from './state-control.js';
import { handOverCreated, refusalOf, savedMessage, takeCreated } from './save-outcome.js';

/**
 * Creates or edits a campaign.
 * @summary The campaign editor.
 */
export class CampaignEditor extends LitElement {
  static override styles = [consoleStyles, editorStyles];
  static override properties = {
    context: { state: true },
    campaignId: { attribute: false },
    campaign: { state: true },
    draft: { state: true },
    count: { state: true },
    loadError: { state: true },
    serverErrors: { state: true },
    summary: { state: true },
    submitted: { state: true },
    busy: { state: true },
    saved: { state: true },
    savedOnCreation: { state: true },
    warned: { state: true },
    deleteError: { state: true },
    goals: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The campaign to edit, or null for a new one. */
  declare campaignId: string | null;
  /** The campaign as stored (editing), or null. */
  declare campaign: RemoteCampaign | null;
  /** What is being typed, or null while loading. */
  declare draft: CampaignDraft | null;
  /** How many campaigns the environment has (for the position's hint). */
  declare count: number | null;
  declare loadError: string;
  /** The last refusal's messages by field path. */
  declare serverErrors: ReadonlyMap<string, string>;
  /** The errors of the last save attempt, listed at the top. */
  declare summary: ReadonlyArray<[string, string]>;
  /** True once a save was tried: every problem shows, not only those found while typing. */
  declare submitted: boolean;
  declare busy: boolean;
  /** What the last save did, for the status line beside Save. */
  declare saved: string;
  /** What the save that created this campaign did, under the title. */
  declare savedOnCreation: string;
  /** True once a save was held back by flags left to the defaults: the warning shows until the next save. */
  declare warned: boolean;
  /** Why the last delete was refused. */
  declare deleteError: string;
  /** The goals the campaign's report has seen, suggested for the primary goal. */
  declare goals: GoalsSeen;

  #loadedKey: string | null = null;
  #issues = new Map<string, Issue>();
  #placed = new Set<string>();
  readonly #kit: FormKit = {
    error: (path) => {
      this.#placed.add(path);
      const issue = this.#issues.get(path);
      return (
        this.serverErrors.get(path) ??
        (issue !== undefined && (issue.live || this.submitted) ? issue.message : undefined)
      );
    },
    changed: () => {
      this.saved = '';
      this.savedOnCreation = '';
      this.requestUpdate();
    },
  };
  /** The state select, with what its last change did and Undo, under it. */
  readonly #stateControl = new StateControl(this, {
    context: () => this.context,
    campaign: () => this.campaign,
    changed: (updated) => {
      this.campaign = updated;
      if (this.draft !== null) this.draft.state = updated.state;
    },
  });

  constructor() {
    super();
    consumeConsoleContext(this);
    this.campaignId = null;
    this.count = null;
    this.busy = false;
    this.#clear();
  }

  /** Nothing loaded and nothing said: the state before a campaign (or a new one) is shown. */
  #clear(): void {
    Object.assign(this, {
      campaign: null,
      draft: null,
      loadError: '',
      serverErrors: new Map(),
      summary: [],
      submitted: false,
      saved: '',
      savedOnCreation: '',
      warned: false,
      deleteError: '',
      goals: NO_GOALS,
    });
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('context') && !changed.has('campaignId')) return;
    const key = `${this.context.environment?.id ?? ''}/${this.campaignId ?? ''}`;
    if (key !== this.#loadedKey) void this.#load(key);
  }

  async #load(key: string): Promise<void> {
    this.#loadedKey = key;
    this.#clear();
    this.#stateControl.reset();
    const envId = this.context.environment?.id;
    if (envId === undefined) return;
    if (this.campaignId === null) {
      this.draft = newCampaignDraft();
      return;
    }
    try {
      const path = `/environments/${seg(envId)}/campaigns/${seg(this.campaignId)}`;
      const [campaign, all, goals] = await Promise.all([
        this.context.api.get<RemoteCampaign>(path),
        loadAllCampaigns(this.context.api, envId),
        // Only suggestions: a report that cannot be read leaves the goal to be typed.
        this.context.api.get<CampaignReport>(`${path}/report`).then(goalsSeen, () => NO_GOALS),
      ]);
      if (this.#loadedKey !== key) return;
      this.goals = goals;
      this.#show(campaign, all);
    } catch (error) {
      if (this.#loadedKey === key)
        this.loadError = error instanceof ConsoleApiError ? error.message : String(error);
    }
  }

  #show(campaign: RemoteCampaign, all: readonly RemoteCampaign[]): void {
    const index = all.findIndex((c) => c.id === campaign.id);
    this.campaign = campaign;
    this.count = all.length;
    this.draft = draftOf(campaign, index === -1 ? null : index);
    this.savedOnCreation = takeCreated(campaign.id);
  }

  async #save(event: SubmitEvent | null, anyway = false): Promise<void> {
    event?.preventDefault();
    const envId = this.context.environment?.id;
    if (this.draft === null || envId === undefined || this.busy) return;
    const creating = this.campaign === null;
    const { body, issues } = draftToBody(this.draft, creating);
    this.serverErrors = new Map();
    this.saved = '';
    if (issues.size > 0) {
      this.submitted = true;
      this.summary = [...issues].map(([path, issue]) => [path, issue.message]);
      await this.#focus('#error-summary');
      return;
    }
    this.summary = [];
    if (!anyway && missingFlags(this.draft).length > 0) {
      this.warned = true;
      await this.#focus('#missing-flags');
      return;
    }
    this.warned = false;
    this.busy = true;
    try {
      const base = `/environments/${seg(envId)}/campaigns`;
      const stored = creating
        ? await this.context.api.post<RemoteCampaign>(base, body)
        : await this.context.api.patch<RemoteCampaign>(`${base}/${seg(this.campaign?.id ?? '')}`, body);
      this.summary = [];
      this.submitted = false;
      const message = savedMessage(stored);
      if (creating) {
        handOverCreated(stored.id, message);
        navigate({ name: 'campaign', campaignId: stored.id });
        return;
      }
      // Re-read the order too: a moved campaign's position is only known from the list.
      this.#show(stored, await loadAllCampaigns(this.context.api, envId));
      this.saved = message;
    } catch (error) {
      const refusal = refusalOf(error);
      this.serverErrors = refusal.fields;
      this.summary = refusal.summary;
      await this.#focus('#error-summary');
    } finally {
      this.busy = false;
    }
  }

  async #focus(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  async #delete(): Promise<void> {
    if (this.campaign === null) return;
    this.deleteError = '';
    this.deleteError = await deleteCampaign(this.context, this.campaign);
  }

  override render() {
    const env = this.context.environment;
    const title = editorTitle(this.campaignId, this.campaign);
    const links = editorLinks(this.campaignId);
    if (env === null)
      return html`<h1>${title}</h1>
        <p class="notice">
          There is no environment yet: create one in
          <a href=${routeHash({ name: 'environments' })}>API Key &amp; Settings</a>.
        </p>`;
    if (this.loadError !== '')
      return html`<h1>${title}</h1>
        ${links}
        <p class="notice danger" role="alert">The campaign could not be loaded: ${this.loadError}</p>`;
    if (this.draft === null)
      return html`<h1>${title}</h1>
        <p role="status">Loading the campaign…</p>`;
    // The form is built first: building it records which error paths have an input, for the summary.
    this.#issues = draftToBody(this.draft, this.campaign === null).issues;
    this.#placed = new Set();
    const form = campaignForm(this.#kit, this.draft, {
      campaign: this.campaign,
      count: this.count,
      goals: this.goals,
      busy: this.busy,
      saved: this.saved,
      stateControl: this.campaign === null ? nothing : this.#stateControl.render(this.campaign),
      deleteError: this.deleteError,
      missing: this.warned ? missingFlags(this.draft) : [],
      save: (event) => void this.#save(event),
      saveAnyway: () => void this.#save(null, true),
      focus: (id) => this.renderRoot.querySelector<HTMLElement>(`#${CSS.escape(id)}`)?.focus(),
      remove: () => void this.#delete(),
    });
    return html`<h1>${title}</h1>
      ${links}
      <p class="muted">In ${env.name}. Saving publishes at once: decisions use the campaign as saved.</p>
      ${this.savedOnCreation === '' ? nothing : html`<p class="saved" role="status" data-testid="created-note">${this.savedOnCreation}</p>`}
      ${errorSummary(this.summary, this.#placed, (path) => focusField(this.renderRoot, path))} ${form}`;
  }
}

customElements.define('campaign-editor', CampaignEditor);

declare global {
  interface HTMLElementTagNameMap {
    'campaign-editor': CampaignEditor;
  }
}
