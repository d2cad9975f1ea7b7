// One variation group of the report for the chosen goal: the figures table, a sentence per variation saying what
// they mean, the conversion rate chart and the daily chart. Refreshes arrive as new `group`/`days` objects; lit
// updates the text in place, so focus, open disclosures and scroll survive them.
import type { VariationDailySeries } from 'feature-ts/protocol';
import { LitElement, css, html, nothing } from 'lit';
import { consoleStyles } from '../styles.js';
import { scrollRegion } from '../widgets/scroll-region.js';
import type { VariationReport } from '../types.js';
import './days-chart.js';
import './rate-chart.js';
import {
  type GoalKey,
  type ReportGroup,
  type VerdictKind,
  MINIMUM_HINT,
  goalFigures,
  intervalCell,
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
};

const money = (value: number): string =>
  value.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * The results of one variation group for one goal: table, verdicts and charts.
 * @summary One variation group of a campaign report.
 */
export class ReportGroupView extends LitElement {
  static override styles = [
    consoleStyles,
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
      .verdict.worse {
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
    groupLabel: { attribute: false },
    goal: { attribute: false },
    days: { attribute: false },
    dayVariations: { attribute: false },
    daysError: { attribute: false },
  };

  /** The report's group. */
  declare group: ReportGroup;
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
        ${this.#table()}
        <div class="verdicts">
          ${others.map((variation) => {
            const found = verdict(variation, reference, this.goal);
            const word = VERDICT_WORDS[found.kind];
            return html`<p class="verdict ${found.kind}" data-testid="verdict-${variation.id}">
              ${word === undefined ? nothing : html`<strong>${word}</strong> `}${found.text}
            </p>`;
          })}
          <p class="hint">
            ${MINIMUM_HINT} Uplift is relative (10 % against 8 % is +25 %); the 95 % interval is of the
            difference of rates in percentage points. Decide the sample size before starting: stopping at the
            first p-value under 0.05 makes false winners far more likely.
          </p>
        </div>
        <h3>Conversion rate by variation</h3>
        <rate-chart .group=${this.group} .groupLabel=${this.groupLabel} .goal=${this.goal}></rate-chart>
        <p class="hint">
          Bars: each variation's conversion rate (converting visitors / visitors). Whiskers: the 95 % interval
          of the variation's difference from the reference, drawn around its rate (reference rate + interval).
          A whisker that crosses the dashed line of the reference rate means "no difference" is still
          plausible.
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

  #table() {
    const revenue = this.goal.kind === 'transaction';
    return scrollRegion(
      `Results for ${this.groupLabel}, scrollable`,
      html`<table>
        <caption class="visually-hidden">
          Results for ${this.groupLabel}
        </caption>
        <thead>
          <tr>
            <th scope="col">Variation</th>
            <th scope="col" class="num">Visits</th>
            <th scope="col" class="num">Visitors</th>
            <th scope="col" class="num">Conversions</th>
            <th scope="col" class="num">Converting visitors</th>
            <th scope="col" class="num">Conversion rate</th>
            <th scope="col" class="num">Uplift vs reference</th>
            <th scope="col" class="num">95 % interval of the difference (points)</th>
            <th scope="col" class="num">p-value</th>
            ${revenue ? html`<th scope="col" class="num">Revenue</th>` : nothing}
          </tr>
        </thead>
        <tbody>
          ${this.group.variations.map((variation) => this.#row(variation, revenue))}
        </tbody>
      </table>`,
    );
  }

  #row(variation: VariationReport, revenue: boolean) {
    const figures = goalFigures(variation, this.goal);
    const dash = (reason: string) =>
      html`<span aria-hidden="true">–</span><span class="visually-hidden">${reason}</span>`;
    const compared = (text: string | null) =>
      variation.reference
        ? html`<td class="num">${dash('not compared: this is the reference')}</td>`
        : html`<td class="num">${text ?? dash('not available')}</td>`;
    return html`<tr>
      <th scope="row">${variationLabel(variation)}${variation.reference ? ' (reference)' : ''}</th>
      <td class="num">${variation.visits}</td>
      <td class="num">${variation.visitors}</td>
      <td class="num">${figures?.conversions ?? 0}</td>
      <td class="num">${figures?.visitors ?? 0}</td>
      <td class="num">${percent(figures?.rate ?? 0, 2)}</td>
      ${compared(figures?.uplift == null ? null : signedPercent(figures.uplift, 1))}
      ${compared(figures?.ci95 == null ? null : intervalCell(figures.ci95))}
      ${compared(figures?.p_value == null ? null : pValueCell(figures.p_value))}
      ${revenue ? html`<td class="num">${money(figures?.revenue ?? 0)}</td>` : nothing}
    </tr>`;
  }
}

customElements.define('report-group', ReportGroupView);

declare global {
  interface HTMLElementTagNameMap {
    'report-group': ReportGroupView;
  }
}
