// A table that turns into one card per row where its box is narrow (a phone, or a window split in two): a wide
// table in a sideways-scrolling box hid its right-hand columns (State, Traffic, Actions) at 390 px, where few
// think to scroll. It is a container query on the table's own box, not a media query on the window, since the
// menu beside the screen changes the room a table gets at the same window width. In a card each cell is a line,
// its column's name (the cell's `data-label`) beside its value; the row's `<th>` heads the card. `display:
// block` makes Safari (and so VoiceOver) drop a table's semantics, so such tables spell out their ARIA roles
// (table, rowgroup, row, columnheader, rowheader, cell), which keep them a table to assistive technology.
import { css, unsafeCSS, type CSSResult } from 'lit';

/**
 * Styles of `.stacks` tables: put `class="stacks"` on the table's wrapping box, a `data-label` (the column's
 * name) on every cell, or `class="whole"` on one that spans the card, and the explicit roles above on its
 * parts; below `width` the rows become cards. The header row stays in the page for screen readers,
 * out of sight.
 */
export const stackedTableStyles = (width: string): CSSResult => css`
  .stacks {
    container-type: inline-size;
  }
  @container (max-width: ${unsafeCSS(width)}) {
    .stacks table,
    .stacks tbody,
    .stacks tr {
      display: block;
    }
    .stacks thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    .stacks tbody tr {
      border: 1px solid var(--line);
      border-radius: 8px;
      margin: 0 0 0.75rem;
      padding: 0.25rem 0;
      background: #fff;
    }
    .stacks tbody th,
    .stacks tbody td {
      display: grid;
      grid-template-columns: minmax(6rem, 40%) minmax(0, 1fr);
      gap: 0 0.75rem;
      align-items: baseline;
      border: none;
      padding: 0.3rem 0.75rem;
      text-align: left;
      white-space: normal;
      background: none;
    }
    .stacks tbody th[scope='row'] {
      display: block;
      font-size: 1.05rem;
      border-bottom: 1px solid var(--line);
      margin-bottom: 0.25rem;
      padding-bottom: 0.5rem;
    }
    .stacks tbody [data-label]::before {
      content: attr(data-label);
      font-weight: 600;
      color: var(--muted);
      font-size: 0.875rem;
    }
    .stacks tbody th[scope='row']::before {
      content: none;
    }
    /* A cell with no column name (a row's buttons, a row that spans the table) takes the card's whole width. */
    .stacks tbody td.whole {
      display: block;
    }
  }
`;
