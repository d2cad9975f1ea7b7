// The conversion rate of each variation of a group, as bars, with whiskers for the interval the report's verdict is
// drawn from: the always-valid (sequential) one by default, `ci95` under the fixed method. That interval is of the
// DIFFERENCE from the reference (docs/report-statistics.md), not of the variation's own rate, so it is
// drawn around the variation's rate as reference rate + [low, high]: the whisker crosses the dashed reference line
// exactly when the interval holds 0. The reference itself has no whisker: it is what the others are measured from.
import { ANALYSIS_DEFAULTS, type AnalysisSettings } from 'feature-ts/protocol';
import { LitElement, css, html, svg, nothing } from 'lit';
import { consoleStyles } from '../styles.js';
import type { VariationReport } from '../types.js';
import { WidthController, axisLines, chartStyles, clip, gridLines, ticks } from './chart-kit.js';
import {
  type GoalKey,
  type ReportGroup,
  goalFigures,
  intervalPoints,
  percent,
  referenceOf,
  variationLabel,
} from './report-model.js';

const HEIGHT = 260;
const TOP = 28;
const BOTTOM = 56;
const LEFT = 64;
const RIGHT = 12;

interface Bar {
  variation: VariationReport;
  rate: number;
  whisker: [number, number] | null;
}

/** The interval a variation's whisker shows: the one the verdict is drawn from. */
const whiskerInterval = (
  variation: VariationReport,
  goal: GoalKey,
  analysis: AnalysisSettings,
): [number, number] | null => {
  const figures = goalFigures(variation, goal);
  return (analysis.method === 'sequential' ? figures?.sequential.interval : figures?.ci95) ?? null;
};

/** The text alternative of the chart: every bar and whisker in words. */
export const rateChartSummary = (
  group: ReportGroup,
  groupLabel: string,
  goal: GoalKey,
  analysis: AnalysisSettings = ANALYSIS_DEFAULTS,
): string => {
  const kind = analysis.method === 'sequential' ? 'always-valid' : '95 %';
  const parts = group.variations.map((variation) => {
    const figures = goalFigures(variation, goal);
    const name = `${variationLabel(variation)}${variation.reference ? ' (reference)' : ''}`;
    const rate = percent(figures?.rate ?? 0);
    const interval = whiskerInterval(variation, goal, analysis);
    return interval !== null && !variation.reference
      ? `${name} ${rate}, ${kind} interval of the difference from the reference ${intervalPoints(interval)}`
      : `${name} ${rate}`;
  });
  return `Conversion rate by variation (${goal.name}, group ${groupLabel}): ${parts.join('; ')}.`;
};

/**
 * Bars of conversion rate per variation with whiskers for the interval of the difference from the reference.
 * @summary Conversion rate chart of one variation group.
 */
export class RateChart extends LitElement {
  static override styles = [
    consoleStyles,
    chartStyles,
    css`
      svg {
        overflow: visible;
      }
      .axis-title {
        font-weight: 600;
      }
    `,
  ];
  static override properties = {
    group: { attribute: false },
    groupLabel: { attribute: false },
    goal: { attribute: false },
    analysis: { attribute: false },
  };

  /** The report's variation group drawn. */
  declare group: ReportGroup;
  /** The group's name, for the text alternative. */
  declare groupLabel: string;
  /** The goal whose rates are drawn. */
  declare goal: GoalKey;
  /** The report's analysis settings: which interval the whiskers show. */
  declare analysis: AnalysisSettings;
  readonly #width = new WidthController(this);

  constructor() {
    super();
    this.group = { id: '', srm: null, variations: [] };
    this.groupLabel = '';
    this.goal = { kind: 'event', name: '' };
    this.analysis = { ...ANALYSIS_DEFAULTS };
  }

  override render() {
    const width = Math.max(280, this.#width.width);
    const reference = referenceOf(this.group);
    const referenceRate = reference === null ? null : (goalFigures(reference, this.goal)?.rate ?? 0);
    const bars: Bar[] = this.group.variations.map((variation) => {
      const figures = goalFigures(variation, this.goal);
      const ci = whiskerInterval(variation, this.goal, this.analysis);
      const whisker: [number, number] | null =
        ci !== null && referenceRate !== null && !variation.reference
          ? [referenceRate + ci[0], referenceRate + ci[1]]
          : null;
      return { variation, rate: figures?.rate ?? 0, whisker };
    });
    const top = Math.max(0.01, ...bars.flatMap((bar) => [bar.rate, bar.whisker?.[1] ?? 0]));
    const axis = ticks(Math.min(1, top), 4);
    const max = axis[axis.length - 1] ?? 1;
    const plotWidth = width - LEFT - RIGHT;
    const plotHeight = HEIGHT - TOP - BOTTOM;
    const y = (value: number) => TOP + plotHeight - (Math.min(Math.max(value, 0), max) / max) * plotHeight;
    const plot = { left: LEFT, right: width - RIGHT, top: TOP, bottom: TOP + plotHeight };
    const band = plotWidth / Math.max(1, bars.length);
    const barWidth = Math.min(72, band * 0.5);
    const chars = Math.max(4, Math.floor(band / 7.5));
    return html`
      <svg
        role="img"
        aria-label=${rateChartSummary(this.group, this.groupLabel, this.goal, this.analysis)}
        width=${width}
        height=${HEIGHT}
        viewBox="0 0 ${width} ${HEIGHT}"
      >
        ${gridLines(plot, axis, y, (tick) => percent(tick, max < 0.05 ? 1 : 0))}
        <text
          class="axis-title"
          transform="translate(14 ${TOP + plotHeight / 2}) rotate(-90)"
          text-anchor="middle"
        >
          Conversion rate
        </text>
        <text class="axis-title" x=${LEFT + plotWidth / 2} y=${HEIGHT - 6} text-anchor="middle">
          Variation
        </text>
        ${bars.map((bar, index) => {
          const centre = LEFT + band * index + band / 2;
          const valueTop = Math.min(y(bar.rate), bar.whisker === null ? Infinity : y(bar.whisker[1]));
          return svg`
            <rect x=${centre - barWidth / 2} y=${y(bar.rate)} width=${barWidth}
              height=${TOP + plotHeight - y(bar.rate)} fill=${bar.variation.reference ? '#8c959f' : '#0b57d0'}></rect>
            ${bar.whisker === null ? nothing : this.#whisker(centre, bar.whisker, y)}
            <text x=${centre} y=${valueTop - 6} text-anchor="middle">${percent(bar.rate)}</text>
            <text x=${centre} y=${TOP + plotHeight + 16} text-anchor="middle">
              ${clip(variationLabel(bar.variation), chars)}
            </text>
            ${bar.variation.reference ? svg`<text x=${centre} y=${TOP + plotHeight + 30} text-anchor="middle">(reference)</text>` : nothing}`;
        })}
        ${
          referenceRate === null
            ? nothing
            : svg`<line x1=${LEFT} x2=${width - RIGHT} y1=${y(referenceRate)} y2=${y(referenceRate)}
              stroke="#1f2328" stroke-width="1.5" stroke-dasharray="6 4"></line>`
        }
        ${axisLines(plot)}
      </svg>
    `;
  }

  #whisker(centre: number, [low, high]: [number, number], y: (value: number) => number) {
    const cap = 8;
    return svg`
      <line x1=${centre} x2=${centre} y1=${y(low)} y2=${y(high)} stroke="#1f2328" stroke-width="2"></line>
      <line x1=${centre - cap} x2=${centre + cap} y1=${y(low)} y2=${y(low)} stroke="#1f2328" stroke-width="2"></line>
      <line x1=${centre - cap} x2=${centre + cap} y1=${y(high)} y2=${y(high)} stroke="#1f2328" stroke-width="2"></line>`;
  }
}

customElements.define('rate-chart', RateChart);

declare global {
  interface HTMLElementTagNameMap {
    'rate-chart': RateChart;
  }
}
