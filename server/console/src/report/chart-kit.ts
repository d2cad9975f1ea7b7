// What the report's two SVG charts share: the host width they draw at (so text stays legible at 360 px instead
// of shrinking with a fixed viewBox), round axis ticks with their grid and axis lines, the chart text style, and
// per-variation colours paired with marker shapes so a series is never told apart by colour alone.
import { css, svg, type ReactiveController, type ReactiveControllerHost, type SVGTemplateResult } from 'lit';

/** The charts' SVG box and text style. */
export const chartStyles = css`
  svg {
    display: block;
  }
  text {
    font:
      12px system-ui,
      sans-serif;
    fill: #1f2328;
  }
`;

/** Where a chart's plot area lies, in SVG coordinates: its left and right x, its top and bottom y. */
export interface PlotArea {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** A horizontal grid line across the plot at each tick, labelled left of the vertical axis. */
export const gridLines = (
  plot: PlotArea,
  axis: readonly number[],
  y: (value: number) => number,
  label: (tick: number) => string = String,
): SVGTemplateResult[] =>
  axis.map(
    (tick) => svg`
      <line x1=${plot.left} x2=${plot.right} y1=${y(tick)} y2=${y(tick)} stroke="#d0d7de"></line>
      <text x=${plot.left - 6} y=${y(tick) + 4} text-anchor="end">${label(tick)}</text>`,
  );

/** The vertical and horizontal axis lines along the plot's left and bottom edges. */
export const axisLines = (plot: PlotArea): SVGTemplateResult => svg`
  <line x1=${plot.left} x2=${plot.left} y1=${plot.top} y2=${plot.bottom} stroke="#57606a"></line>
  <line x1=${plot.left} x2=${plot.right} y1=${plot.bottom} y2=${plot.bottom} stroke="#57606a"></line>`;

/** Tracks the host element's content width, re-rendering the host when it changes. */
export class WidthController implements ReactiveController {
  /** The last measured width in CSS pixels (a default until the first measure). */
  width: number;
  readonly #host: ReactiveControllerHost & HTMLElement;
  #observer: ResizeObserver | null = null;

  constructor(host: ReactiveControllerHost & HTMLElement, initial = 640) {
    this.#host = host;
    this.width = initial;
    host.addController(this);
  }

  hostConnected(): void {
    this.#observer = new ResizeObserver((entries) => {
      const measured = Math.floor(entries[0]?.contentRect.width ?? 0);
      // Ignore sub-pixel jitter and the 0 of a hidden element, so a resize settles in one render.
      if (measured > 0 && Math.abs(measured - this.width) >= 2) {
        this.width = measured;
        this.#host.requestUpdate();
      }
    });
    this.#observer.observe(this.#host);
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#observer = null;
  }
}

/** Round ticks from 0 covering `max`: about `count` of them, steps of 1, 2, 2.5 or 5 × 10ⁿ. */
export const ticks = (max: number, count = 4, integers = false): number[] => {
  const top = max > 0 ? max : 1;
  const raw = top / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  if (integers) step = Math.max(1, Math.ceil(step));
  const result: number[] = [];
  for (let value = 0; value < top + step * 0.999; value += step) result.push(Number(value.toPrecision(12)));
  return result;
};

/** Series colours: each meets 4.5:1 contrast on white. */
export const PALETTE = ['#0b57d0', '#b3261e', '#116329', '#7a4b00', '#6639ba', '#00687a'] as const;

/** The colour of the series at `index`. */
export const colour = (index: number): string => PALETTE[index % PALETTE.length] ?? '#1f2328';

/** Marker shape names, in the order variations take them. */
export const MARKERS = ['circle', 'square', 'triangle', 'diamond'] as const;

/** A marker of the shape of the variation at `index`, centred on (x, y). */
export const marker = (index: number, x: number, y: number, fill: string, size = 4): SVGTemplateResult => {
  const shape = MARKERS[index % MARKERS.length];
  switch (shape) {
    case 'square':
      return svg`<rect x=${x - size} y=${y - size} width=${size * 2} height=${size * 2} fill=${fill}></rect>`;
    case 'triangle':
      return svg`<polygon points=${`${x},${y - size - 1} ${x + size + 1},${y + size} ${x - size - 1},${y + size}`} fill=${fill}></polygon>`;
    case 'diamond':
      return svg`<polygon points=${`${x},${y - size - 1} ${x + size + 1},${y} ${x},${y + size + 1} ${x - size - 1},${y}`} fill=${fill}></polygon>`;
    default:
      return svg`<circle cx=${x} cy=${y} r=${size} fill=${fill}></circle>`;
  }
};

/** Cuts a label to about `chars` characters with an ellipsis (the full text is in the chart's text alternative). */
export const clip = (text: string, chars: number): string =>
  text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
