// A wide table's scrolling box. It is focusable and named, so keyboard users can scroll it sideways at narrow
// widths (axe: scrollable-region-focusable); `.table-wrap` in styles.ts gives the scrolling.
import { html, type TemplateResult } from 'lit';

/** `content` (a table) in a focusable scrolling box named `label` for screen readers. */
export const scrollRegion = (label: string, content: TemplateResult): TemplateResult =>
  html`<div class="table-wrap" tabindex="0" role="region" aria-label=${label}>${content}</div>`;
