// A campaign's report (#/campaigns/{id}/report): figures, verdicts and charts per variation group for a chosen
// goal. It re-reads the report and its daily series every 5 s while the tab is visible, updating in place (no
// loading state on refresh) so the goal chooser, open disclosures, focus and scroll stay where they are.
import type { DailySeries } from 'feature-ts/protocol';
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { ConsoleApiError, seg } from '../api.js';
import { consumeConsoleContext, type ConsoleContext } from '../console-context.js';
import { goalPicker } from './goal-picker.js';
import { csvDownload, downloadReportCsv } from './report-download.js';
import './report-group.js';
import '../widgets/listening-now.js';
import { noVisitsNotice, visitsOnly } from './report-notices.js';
import {
  type GoalKey,
  goalValue,
  parseGoal,
  reportFingerprint,
  reportGoals,
  totalVisits,
} from './report-model.js';
import { routeHash } from '../router.js';
import { consoleStyles } from '../styles.js';
import type { CampaignReport, RemoteCampaign } from '../types.js';
import { type CurrentCheck, VisiblePoller } from '../widgets/visible-poller.js';

/** How often the open report is re-read. */
export const REPORT_REFRESH_MS = 5000;

const clock = (date: Date): string =>
  date.toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });

const problem = (error: unknown): string =>
  error instanceof ConsoleApiError ? error.message : 'Something went wrong while reading the report.';

/**
 * The report screen of one campaign, refreshed while open.
 * @summary Campaign report view.
 */
export class ReportView extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .controls {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem 1.5rem;
        align-items: end;
        margin-bottom: 1rem;
      }
      .controls .field {
        margin: 0;
        min-width: 14rem;
      }
      .controls button {
        margin: 0;
      }
    `,
  ];
  static override properties = {
    context: { state: true },
    campaignId: { attribute: false },
    campaign: { state: true },
    report: { state: true },
    series: { state: true },
    daysError: { state: true },
    error: { state: true },
    refreshError: { state: true },
    goal: { state: true },
    updatedAt: { state: true },
    checkedAt: { state: true },
  };

  /** The shared state, provided by <console-app>. */
  declare context: ConsoleContext;
  /** The campaign shown. */
  declare campaignId: string;
  declare campaign: RemoteCampaign | null;
  declare report: CampaignReport | null;
  declare series: DailySeries | null;
  declare daysError: string;
  /** Why the screen could not load at all. */
  declare error: string;
  /** Why the last refresh failed (the figures shown stay). */
  declare refreshError: string;
  /** The chosen goal's `<select>` value ('' until the first report). */
  declare goal: string;
  /** When the figures last changed. */
  declare updatedAt: string;
  /** When the server was last asked. */
  declare checkedAt: string;

  #key = '';
  #fingerprint = '';
  /** The ETags of the report and the series shown, sent back so that an unchanged one comes as a bodiless 304. */
  #etags = { report: '', series: '' };
  readonly #poller = new VisiblePoller(this, REPORT_REFRESH_MS, () => void this.#refresh());

  constructor() {
    super();
    consumeConsoleContext(this);
    this.campaignId = '';
    this.campaign = null;
    this.report = null;
    this.series = null;
    this.daysError = '';
    this.error = '';
    this.refreshError = '';
    this.goal = '';
    this.updatedAt = '';
    this.checkedAt = '';
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (!changed.has('context') && !changed.has('campaignId')) return;
    const key = `${this.context.environment?.id ?? ''}/${this.campaignId}`;
    if (key === this.#key) return;
    this.#key = key;
    this.#poller.reset();
    this.campaign = null;
    this.report = null;
    this.series = null;
    this.error = '';
    this.refreshError = '';
    this.daysError = '';
    this.updatedAt = '';
    this.#fingerprint = '';
    this.#etags = { report: '', series: '' };
    void this.#refresh();
  }

  async #refresh(): Promise<void> {
    const env = this.context.environment;
    if (env === null || this.campaignId === '' || this.error !== '') return;
    const base = `/environments/${seg(env.id)}`;
    await this.#poller.run((current) => this.#read(base, current));
  }

  async #read(base: string, current: CurrentCheck): Promise<void> {
    try {
      const [campaign, report, series] = await Promise.allSettled([
        // Read once: only its names are shown. A deleted campaign has none but keeps its report.
        this.campaign ?? this.context.api.get<RemoteCampaign>(`${base}/campaigns/${seg(this.campaignId)}`),
        this.context.api.getIfChanged<CampaignReport>(
          `${base}/campaigns/${seg(this.campaignId)}/report`,
          this.#etags.report,
        ),
        this.context.api.getIfChanged<DailySeries>(
          `${base}/reports/${seg(this.campaignId)}/days`,
          this.#etags.series,
        ),
      ]);
      if (!current()) return;
      if (campaign.status === 'fulfilled') this.campaign = campaign.value;
      this.checkedAt = clock(new Date());
      if (report.status === 'rejected') throw report.reason;
      // null: 304, the report shown is current (nothing is set, so nothing renders anew).
      if (report.value !== null) {
        this.#etags.report = report.value.etag;
        const fingerprint = reportFingerprint(report.value.value);
        if (fingerprint !== this.#fingerprint) {
          this.#fingerprint = fingerprint;
          this.report = report.value.value;
          this.updatedAt = this.checkedAt;
        }
      }
      this.refreshError = '';
      if (series.status === 'fulfilled') {
        if (series.value !== null) {
          this.#etags.series = series.value.etag;
          this.series = series.value.value;
        }
        this.daysError = '';
      } else this.daysError = `The daily series could not be read: ${problem(series.reason)}`;
    } catch (error) {
      if (!current()) return;
      if (this.report === null) {
        this.error =
          error instanceof ConsoleApiError && error.status === 404
            ? `There is no campaign “${this.campaignId}” in this environment.`
            : problem(error);
      } else
        this.refreshError = `The report could not be refreshed: ${problem(error)} It will be tried again.`;
    }
  }

  #groupLabel(groupId: string): string {
    const name = this.campaign?.variation_groups.find((group) => group.id === groupId)?.name ?? '';
    return name === '' ? groupId : name;
  }

  #csv(): TemplateResult {
    return csvDownload(() => {
      if (this.report !== null) downloadReportCsv(this.report, (id) => this.#groupLabel(id), this.renderRoot);
    });
  }

  override render() {
    const campaignName = this.campaign?.name ?? this.campaignId;
    return html`
      <h1>Report: ${campaignName}</h1>
      ${
        // Only a campaign that still exists has an editor (a deleted one keeps its report).
        this.campaign === null
          ? nothing
          : html`<p class="row">
              <a href=${routeHash({ name: 'campaign', campaignId: this.campaignId })}
                >Back to the campaign editor</a
              >
              <a href=${routeHash({ name: 'history', campaignId: this.campaignId })}>History</a>
              <span class="badge ${this.campaign.state}">${this.campaign.state}</span>
            </p>`
      }
      ${this.context.environment === null ? nothing : html`<listening-now></listening-now>`}
      ${
        this.context.environment === null
          ? html`<p class="notice">
              Choose or create an environment first: reports belong to an environment.
            </p>`
          : this.#body()
      }
    `;
  }

  #body() {
    if (this.error !== '')
      return html`<p class="notice danger">${this.error}</p>
        <p><a href=${routeHash({ name: 'campaigns' })}>Go to the campaigns</a></p>`;
    const status = html`<p class="hint">
      <span role="status"
        >${this.updatedAt === '' ? 'Loading the report…' : `Updated ${this.updatedAt}`}</span
      >
      ${this.checkedAt === '' ? nothing : html` · checked every 5 s while this tab is visible (last ${this.checkedAt})`}
    </p>`;
    if (this.report === null) return status;
    const goals = reportGoals(this.report);
    const chosen = parseGoal(this.goal);
    // Until one is chosen, the report leads with the primary goal, the one its verdicts are drawn on.
    const primary = this.report.analysis.primary_goal;
    const goal: GoalKey | undefined =
      goals.find((g) => chosen !== null && goalValue(g) === goalValue(chosen)) ??
      goals.find((g) => primary !== null && g.kind === primary.type && g.name === primary.name) ??
      goals[0];
    return html`
      ${status}
      ${this.refreshError === '' ? nothing : html`<p class="notice warning">${this.refreshError}</p>`}
      ${
        totalVisits(this.report) === 0
          ? noVisitsNotice()
          : goal === undefined
            ? html`${visitsOnly(this.report, (id) => this.#groupLabel(id))}
                <p class="row">${this.#csv()}</p>`
            : this.#results(goals, goal)
      }
    `;
  }

  #results(goals: GoalKey[], goal: GoalKey) {
    const report = this.report;
    if (report === null) return nothing;
    return html`
      <div class="controls">
        ${goalPicker(goals, goal, report.analysis.primary_goal, (value) => (this.goal = value))}
        ${this.#csv()}
      </div>
      ${report.variation_groups.map((group) => {
        const days = this.series?.variation_groups.find((g) => g.id === group.id)?.variations ?? [];
        return html`<report-group
          .group=${group}
          .analysis=${report.analysis}
          .groupLabel=${this.#groupLabel(group.id)}
          .goal=${goal}
          .days=${this.series?.days ?? null}
          .dayVariations=${days}
          .daysError=${this.daysError}
        ></report-group>`;
      })}
    `;
  }
}

customElements.define('report-view', ReportView);

declare global {
  interface HTMLElementTagNameMap {
    'report-view': ReportView;
  }
}
