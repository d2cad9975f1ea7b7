// A wide table's scrolling box. It is focusable and named, so keyboard users can scroll it sideways at narrow
// widths (axe: scrollable-region-focusable); `.table-wrap` in styles.ts gives the scrolling.
import { html, type TemplateResult } from 'lit';

/**
 * `content` (a table) in a focusable scrolling box named `label` for screen readers; `stacks`: the table turns
 * into cards where the box is narrow (stacked-table.ts).
 */
export const scrollRegion = (label: string, content: TemplateResult, stacks = false): TemplateResult =>
  html`<div class="table-wrap ${stacks ? 'stacks' : ''}" tabindex="0" role="region" aria-label=${label}>
    ${content}
  </div>`;
