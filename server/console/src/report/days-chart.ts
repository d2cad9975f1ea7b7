// Visits and conversions of one goal per UTC day for each variation of a group, as lines (one day: as bars, since
// a single point draws no line). Metric is told by dash pattern (visits solid, conversions dashed) and variation by
// colour AND marker shape, named in a text legend; markers of equal values are spread sideways so none hides
// another (day-marks.ts). The numbers are also in a table under a disclosure, to read them exactly or without the
// picture.
import type { VariationDailySeries } from 'feature-ts/protocol';
import { LitElement, css, html, svg } from 'lit';
import { consoleStyles } from '../styles.js';
import { scrollRegion } from '../widgets/scroll-region.js';
import {
  MARKERS,
  WidthController,
  axisLines,
  chartStyles,
  clip,
  colour,
  gridLines,
  marker,
  ticks,
} from './chart-kit.js';
import { dayBars, dodge } from './day-marks.js';
import type { GoalKey } from './report-model.js';

const HEIGHT = 240;
const TOP = 16;
const BOTTOM = 44;
const LEFT = 52;
const RIGHT = 16;
// Space between the axes and the first and last day, so markers and day labels are not cut.
const INSET = 24;
const DASH = '7 5';

const dayLabel = (day: string): string =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

const nameOf = (variation: Pick<VariationDailySeries, 'id' | 'name'>): string =>
  variation.name === '' ? variation.id : variation.name;

/** A variation's conversions per day for the goal (zeros when the goal has none there). */
export const goalSeries = (variation: VariationDailySeries, goal: GoalKey, days: number): number[] =>
  (goal.kind === 'event' ? variation.conversions : variation.transactions)[goal.name] ??
  new Array<number>(days).fill(0);

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/**
 * Lines of visits and conversions per day for each variation of a group, with a legend and a data table.
 * @summary Daily visits and conversions chart of one variation group.
 */
export class DaysChart extends LitElement {
  static override styles = [
    consoleStyles,
    chartStyles,
    css`
      .legend {
        list-style: none;
        padding: 0;
        margin: 0.5rem 0;
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
      }
      .legend li {
        display: flex;
        align-items: center;
        gap: 0.35rem;
      }
      details {
        margin-top: 0.5rem;
      }
    `,
  ];
  static override properties = {
    days: { attribute: false },
    variations: { attribute: false },
    groupLabel: { attribute: false },
    goal: { attribute: false },
  };

  /** The UTC days, oldest first. */
  declare days: string[];
  /** The group's variations with their series. */
  declare variations: VariationDailySeries[];
  /** The group's name, for the text alternative and the table caption. */
  declare groupLabel: string;
  /** The goal whose conversions are drawn. */
  declare goal: GoalKey;
  readonly #width = new WidthController(this);

  constructor() {
    super();
    this.days = [];
    this.variations = [];
    this.groupLabel = '';
    this.goal = { kind: 'event', name: '' };
  }

  #summary(): string {
    const span =
      this.days.length === 0 ? 'no days yet' : `${this.days[0]} to ${this.days[this.days.length - 1]}`;
    const parts = this.variations.map(
      (v) =>
        `${nameOf(v)}: ${sum(v.visits)} visits, ${sum(goalSeries(v, this.goal, this.days.length))} conversions`,
    );
    return `Visits and conversions per day (${this.goal.name}, group ${this.groupLabel}), ${span}. Totals: ${parts.join('; ')}.`;
  }

  override render() {
    const width = Math.max(280, this.#width.width);
    const count = this.days.length;
    const series = this.variations.map((v) => ({
      visits: v.visits,
      conversions: goalSeries(v, this.goal, count),
    }));
    const axis = ticks(Math.max(1, ...series.flatMap((s) => [...s.visits, ...s.conversions])), 4, true);
    const max = axis[axis.length - 1] ?? 1;
    const plotWidth = width - LEFT - RIGHT;
    const plotHeight = HEIGHT - TOP - BOTTOM;
    const x = (index: number) =>
      LEFT +
      INSET +
      (count <= 1 ? (plotWidth - 2 * INSET) / 2 : (index / (count - 1)) * (plotWidth - 2 * INSET));
    const y = (value: number) => TOP + plotHeight - (value / max) * plotHeight;
    const plot = { left: LEFT, right: width - RIGHT, top: TOP, bottom: TOP + plotHeight };
    const labelEvery = Math.max(1, Math.ceil(count / Math.max(2, Math.floor(plotWidth / 70))));
    const size = count > 30 ? 2.5 : 4;
    // Each day's markers, spread sideways where equal values would hide one another: [variation][metric][day].
    const offsets = series.map(() => [new Array<number>(count).fill(0), new Array<number>(count).fill(0)]);
    for (let day = 0; day < count; day++) {
      const marks = series.flatMap((s, index) =>
        [s.visits, s.conversions].map((values, metric) => ({
          series: index,
          conversions: metric === 1,
          y: y(values[day] ?? 0),
        })),
      );
      dodge(marks, 2 * size + 1).forEach((offset, at) => {
        const row = offsets[Math.floor(at / 2)]?.[at % 2];
        if (row !== undefined) row[day] = offset;
      });
    }
    const seriesName = (index: number, dashed: boolean) =>
      `${nameOf(this.variations[index] ?? { id: '', name: '' })} ${dashed ? 'conversions' : 'visits'}`;
    const line = (values: readonly number[], index: number, dashed: boolean) => svg`
      <polyline points=${values.map((value, day) => `${x(day)},${y(value)}`).join(' ')} fill="none"
        stroke=${colour(index)} stroke-width="2" stroke-dasharray=${dashed ? DASH : 'none'}></polyline>
      ${values.map(
        (value, day) =>
          svg`<g class="mark" data-series=${seriesName(index, dashed)}>${marker(
            index,
            x(day) + (offsets[index]?.[Number(dashed)]?.[day] ?? 0),
            y(value),
            colour(index),
            size,
          )}</g>`,
      )}`;
    // One day has no line to draw: bars, visits solid and conversions dashed, each variation's pair side by side.
    const bars = () =>
      dayBars(series.length, x(0), plotWidth - 2 * INSET).map((bar) => {
        const value =
          (bar.conversions ? series[bar.series]?.conversions : series[bar.series]?.visits)?.[0] ?? 0;
        // A zero stays visible as a sliver on the axis; the table and the text alternative give the number.
        const top = Math.min(y(value), y(0) - 2);
        return svg`<g class="mark" data-series=${seriesName(bar.series, bar.conversions)}>
          <rect x=${bar.x} y=${top} width=${bar.width} height=${y(0) - top} fill=${colour(bar.series)}
            fill-opacity=${bar.conversions ? 0.25 : 1} stroke=${colour(bar.series)} stroke-width="2"
            stroke-dasharray=${bar.conversions ? DASH : 'none'}></rect>
          ${marker(bar.series, bar.x + bar.width / 2, top - size - 3, colour(bar.series), Math.min(size, bar.width / 2))}
        </g>`;
      });
    const single = count === 1;
    return html`
      <svg
        role="img"
        aria-label=${this.#summary()}
        width=${width}
        height=${HEIGHT}
        viewBox="0 0 ${width} ${HEIGHT}"
      >
        ${gridLines(plot, axis, y)}
        ${this.days.map((day, index) =>
          index % labelEvery === 0 || index === count - 1
            ? svg`<text x=${x(index)} y=${TOP + plotHeight + 16} text-anchor="middle">${dayLabel(day)}</text>`
            : '',
        )}
        <text x=${LEFT + plotWidth / 2} y=${HEIGHT - 6} text-anchor="middle" font-weight="600">
          Day (UTC)
        </text>
        ${
          single
            ? bars()
            : series.map(
                (s, index) => svg`${line(s.visits, index, false)}${line(s.conversions, index, true)}`,
              )
        }
        ${axisLines(plot)}
      </svg>
      <ul class="legend" aria-label="Legend">
        ${this.variations.flatMap((variation, index) =>
          [false, true].map(
            (dashed) =>
              html`<li>
                <svg width="40" height="12" aria-hidden="true">
                  ${
                    single
                      ? svg`<rect x="3" y="2" width="34" height="8" fill=${colour(index)}
                          fill-opacity=${dashed ? 0.25 : 1} stroke=${colour(index)} stroke-width="2"
                          stroke-dasharray=${dashed ? DASH : 'none'}></rect>`
                      : svg`<line x1="2" x2="38" y1="6" y2="6" stroke=${colour(index)} stroke-width="2"
                          stroke-dasharray=${dashed ? DASH : 'none'}></line>`
                  }
                  ${marker(index, 20, 6, colour(index), 4)}
                </svg>
                ${clip(nameOf(variation), 24)} ${dashed ? 'conversions' : 'visits'}
                (${dashed ? 'dashed' : 'solid'} ${single ? 'bar' : 'line'},
                ${MARKERS[index % MARKERS.length]}s)
              </li>`,
          ),
        )}
      </ul>
      <details>
        <summary>Daily numbers as a table</summary>
        ${scrollRegion('Daily numbers, scrollable', this.#table())}
      </details>
    `;
  }

  #table() {
    return html`<table>
      <caption class="visually-hidden">
        Daily visits and conversions for ${this.groupLabel}
      </caption>
      <thead>
        <tr>
          <th scope="col">Day (UTC)</th>
          ${this.variations.map(
            (v) =>
              html`<th scope="col" class="num">${nameOf(v)} visits</th>
                <th scope="col" class="num">${nameOf(v)} conversions</th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${this.days.map(
          (day, index) =>
            html`<tr>
              <th scope="row">${day}</th>
              ${this.variations.map(
                (v) =>
                  html`<td class="num">${v.visits[index] ?? 0}</td>
                    <td class="num">${goalSeries(v, this.goal, this.days.length)[index] ?? 0}</td>`,
              )}
            </tr>`,
        )}
      </tbody>
    </table>`;
  }
}

customElements.define('days-chart', DaysChart);

declare global {
  interface HTMLElementTagNameMap {
    'days-chart': DaysChart;
  }
}
