// The campaigns list's own styles (on top of consoleStyles and the stacked table): the search toolbar, the title
// with its environment, the state select with its Undo notice under it, and the pager. Apart so that the view
// (campaigns-view.ts) reads as its states and its table.
import { css } from 'lit';

/** Styles of <campaigns-view> beside consoleStyles and stackedTableStyles. */
export const campaignsStyles = css`
  /* Visually hidden texts are absolutely positioned: keep them inside the scrolling box at 360 px. */
  .table-wrap {
    position: relative;
  }
  .toolbar {
    margin: 0 0 1rem;
  }
  .toolbar input {
    max-width: 32rem;
  }
  .title {
    margin: 0 0 0.75rem;
  }
  .title h1 {
    margin: 0;
  }
  .env {
    color: var(--muted);
    font-weight: 400;
  }
  td select {
    min-width: 8.5rem;
  }
  /* Under the state select; in a card, in the value column beside "Actions". */
  td undo-notice {
    margin-top: 0.35rem;
    grid-column: 2;
  }
  td .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  details {
    font-size: 0.85rem;
    color: var(--warn);
  }
  details ul {
    margin: 0.25rem 0 0;
    padding-left: 1.1rem;
  }
  .slug {
    display: block;
    color: var(--muted);
  }
  .pager {
    margin-top: 0.75rem;
  }
`;
