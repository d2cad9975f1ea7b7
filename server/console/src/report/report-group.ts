// One variation group of the report for the chosen goal: the figures table, a sentence per variation saying what
// they mean, the conversion rate chart and the daily chart. Refreshes arrive as new `group`/`days` objects; lit
// updates the text in place, so focus, open disclosures and scroll survive them.
import { ANALYSIS_DEFAULTS, type AnalysisSettings, type VariationDailySeries } from 'feature-ts/protocol';
import { LitElement, css, html, nothing } from 'lit';
import { consoleStyles } from '../styles.js';
import { scrollRegion } from '../widgets/scroll-region.js';
import { stackedTableStyles } from '../widgets/stacked-table.js';
import type { VariationReport } from '../types.js';
import './days-chart.js';
import './rate-chart.js';
import {
  type GoalKey,
  type ReportGroup,
  type VerdictKind,
  goalFigures,
  intervalCell,
  methodSentence,
  pValueCell,
  percent,
  referenceOf,
  signedPercent,
  variationLabel,
  verdict,
} from './report-model.js';

// A word before the sentence, so the conclusion is not told by the border colour alone.
const VERDICT_WORDS: Partial<Record<VerdictKind, string>> = {
  better: 'Better.',
  worse: 'Worse.',
  inconclusive: 'Undecided.',
  exploratory: 'Exploratory.',
  mismatch: 'No verdict.',
};

/** The results table's column names, in order (the interval and p-value name the report's method). */
const reportColumns = (sequential: boolean, revenue: boolean): string[] => [
  'Variation',
  'Visits',
  'Visitors',
  'Conversions',
  'Converting visitors',
  'Conversion rate',
  'Uplift vs reference',
  `${sequential ? 'Always-valid' : '95 %'} interval of the difference (points)`,
  sequential ? 'p-value (always valid)' : 'p-value',
  'Verdict',
  ...(revenue ? ['Revenue'] : []),
];

const money = (value: number): string =>
  value.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * The results of one variation group for one goal: table, verdicts and charts.
 * @summary One variation group of a campaign report.
 */
export class ReportGroupView extends LitElement {
  static override styles = [
    consoleStyles,
    stackedTableStyles('48rem'),
    css`
      .verdicts {
        margin: 1rem 0;
      }
      .verdict {
        border-left: 4px solid var(--line);
        padding: 0.25rem 0.75rem;
      }
      .verdict.better {
        border-color: var(--ok);
      }
      .verdict.worse,
      .verdict.mismatch {
        border-color: var(--danger);
      }
      table {
        font-size: 0.875rem;
      }
      th,
      td {
        padding: 0.4rem 0.35rem;
      }
      td.num {
        white-space: nowrap;
      }
    `,
  ];
  static override properties = {
    group: { attribute: false },
    analysis: { attribute: false },
    groupLabel: { attribute: false },
    goal: { attribute: false },
    days: { attribute: false },
    dayVariations: { attribute: false },
    daysError: { attribute: false },
  };

  /** The report's group. */
  declare group: ReportGroup;
  /** The analysis settings the report's verdicts were drawn with. */
  declare analysis: AnalysisSettings;
  /** The group's name (from the campaign), else its id. */
  declare groupLabel: string;
  /** The chosen goal. */
  declare goal: GoalKey;
  /** The daily series' days, or null before it loads. */
  declare days: string[] | null;
  /** The group's daily series. */
  declare dayVariations: VariationDailySeries[];
  /** Why the daily series could not be read, if so. */
  declare daysError: string;

  constructor() {
    super();
    this.group = { id: '', srm: null, variations: [] };
    this.analysis = { ...ANALYSIS_DEFAULTS };
    this.groupLabel = '';
    this.goal = { kind: 'event', name: '' };
    this.days = null;
    this.dayVariations = [];
    this.daysError = '';
  }

  override render() {
    const reference = referenceOf(this.group);
    const others = this.group.variations.filter((variation) => !variation.reference);
    return html`
      <section class="card" aria-labelledby="group-title">
        <h2 id="group-title">Group: ${this.groupLabel}</h2>
        ${this.#sampleRatio()} ${this.#table()}
        <div class="verdicts">
          ${others.map((variation) => {
            const found = verdict(variation, reference, this.goal, this.analysis);
            const word = VERDICT_WORDS[found.kind];
            return html`<p class="verdict ${found.kind}" data-testid="verdict-${variation.id}">
              ${word === undefined ? nothing : html`<strong>${word}</strong> `}${found.text}
            </p>`;
          })}
          <p class="hint" data-testid="method">
            ${methodSentence(this.analysis)} Uplift is relative (10 % against 8 % is +25 %); the interval is
            of the difference of rates in percentage points.
            ${
              this.analysis.primary_goal === null
                ? 'No primary goal is set: every goal is exploratory (set one in the campaign editor).'
                : `Verdicts are drawn on the primary goal (${this.analysis.primary_goal.name}); other goals are exploratory.`
            }
          </p>
        </div>
        <h3>Conversion rate by variation</h3>
        <rate-chart
          .group=${this.group}
          .groupLabel=${this.groupLabel}
          .goal=${this.goal}
          .analysis=${this.analysis}
        ></rate-chart>
        <p class="hint">
          Bars: each variation's conversion rate (converting visitors / visitors). Whiskers: the
          ${this.analysis.method === 'sequential' ? 'always-valid' : '95 %'} interval of the variation's
          difference from the reference, drawn around its rate (reference rate + interval). A whisker that
          crosses the dashed line of the reference rate means "no difference" is still plausible.
        </p>
        <h3>Visits and conversions per day</h3>
        ${this.#days()}
      </section>
    `;
  }

  #days() {
    if (this.daysError !== '') return html`<p class="notice warning">${this.daysError}</p>`;
    if (this.days === null) return html`<p class="muted">Loading the daily series…</p>`;
    if (this.days.length === 0)
      return html`<p class="muted">No days yet: the series starts with the first visit.</p>`;
    return html`<days-chart
      .days=${this.days}
      .variations=${this.dayVariations}
      .groupLabel=${this.groupLabel}
      .goal=${this.goal}
    ></days-chart>`;
  }

  /** The red banner of a broken split (§14.8): observed against expected, and what usually causes it. */
  #sampleRatio() {
    const srm = this.group.srm;
    if (srm === null || !srm.mismatch) return nothing;
    const observed = srm.observed.join(' / ');
    const expected = srm.expected.map((e) => Math.round(e)).join(' / ');
    return html`<div class="notice danger" role="alert" data-testid="sample-ratio-mismatch">
      <strong>The split is broken: no verdict of this group can be trusted.</strong>
      Visitors per variation: ${observed}; the allocations promise ${expected} (sample-ratio test p
      ${srm.p_value < 0.0001 ? '< 0.0001' : srm.p_value.toFixed(4)}). This usually comes from a redirect or a
      slow page that loses visitors in one variation, bots, or a cache that serves one variation to everyone.
      Fix the cause, then start the test again.
    </div>`;
  }

  #table() {
    const revenue = this.goal.kind === 'transaction';
    const sequential = this.analysis.method === 'sequential';
    const columns = reportColumns(sequential, revenue);
    return scrollRegion(
      `Results for ${this.groupLabel}, scrollable`,
      html`<table role="table">
        <caption class="visually-hidden">
          Results for ${this.groupLabel}
        </caption>
        <thead role="rowgroup">
          <tr role="row">
            ${columns.map((column, index) => html`<th role="columnheader" scope="col" class=${index === 0 || column === 'Verdict' ? '' : 'num'}>${column}</th>`)}
          </tr>
        </thead>
        <tbody role="rowgroup">
          ${this.group.variations.map((variation) => this.#row(variation, columns, revenue, sequential))}
        </tbody>
      </table>`,
      true,
    );
  }

  #row(variation: VariationReport, columns: readonly string[], revenue: boolean, sequential: boolean) {
    const figures = goalFigures(variation, this.goal);
    const interval = sequential ? (figures?.sequential.interval ?? null) : (figures?.ci95 ?? null);
    const p = sequential ? (figures?.sequential.adjusted_p_value ?? null) : (figures?.p_value ?? null);
    const dash = (reason: string) =>
      html`<span aria-hidden="true">–</span><span class="visually-hidden">${reason}</span>`;
    // Each cell carries its column's name: a narrow report shows it beside the value (stacked-table.ts).
    const cell = (index: number, content: unknown, num = true) =>
      html`<td role="cell" class=${num ? 'num' : ''} data-label=${columns[index] ?? ''}>${content}</td>`;
    const compared = (index: number, text: string | null) =>
      cell(
        index,
        variation.reference ? dash('not compared: this is the reference') : (text ?? dash('not available')),
      );
    // The header's text starts at its first character (no template whitespace): a screen reader and the tests
    // read it as the variation's name.
    const name = `${variationLabel(variation)}${variation.reference ? ' (reference)' : ''}`;
    return html`<tr role="row">
      <th role="rowheader" scope="row">${name}</th>
      ${cell(1, variation.visits)} ${cell(2, variation.visitors)} ${cell(3, figures?.conversions ?? 0)}
      ${cell(4, figures?.visitors ?? 0)} ${cell(5, percent(figures?.rate ?? 0, 2))}
      ${compared(6, figures?.uplift == null ? null : signedPercent(figures.uplift, 1))}
      ${compared(7, interval === null ? null : intervalCell(interval))}
      ${compared(8, p === null ? null : pValueCell(p))}
      ${cell(9, (figures?.verdict ?? 'not_enough_data').replaceAll('_', ' '), false)}
      ${revenue ? cell(10, money(figures?.revenue ?? 0)) : nothing}
    </tr>`;
  }
}

customElements.define('report-group', ReportGroupView);

declare global {
  interface HTMLElementTagNameMap {
    'report-group': ReportGroupView;
  }
}
