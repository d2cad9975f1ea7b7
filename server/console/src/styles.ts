// The console's one stylesheet, adopted by every view (lit's constructable stylesheets: allowed by the CSP without
// 'unsafe-inline'). Colours meet WCAG AA contrast; focus is always visible; layouts fold to one column at 360 px.
import { css } from 'lit';

/** Shared styles: typography, forms, buttons, tables, cards, notices. */
export const consoleStyles = css`
  :host {
    display: block;
    color: #1f2328;
    font:
      15px/1.5 system-ui,
      -apple-system,
      'Segoe UI',
      Roboto,
      sans-serif;
    --primary: #0b57d0;
    --primary-dark: #08419c;
    --danger: #b3261e;
    --ok: #116329;
    --warn: #7a4b00;
    --muted: #57606a;
    --line: #d0d7de;
    --soft: #f6f8fa;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h1,
  h2,
  h3 {
    line-height: 1.25;
    margin: 0 0 0.75rem;
  }
  h1 {
    font-size: 1.5rem;
  }
  h2 {
    font-size: 1.2rem;
  }
  h3 {
    font-size: 1.05rem;
  }
  p {
    margin: 0 0 0.75rem;
  }
  a {
    color: var(--primary);
  }
  code,
  .mono {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.9em;
    overflow-wrap: anywhere;
  }
  /* Action codes (settings/action-labels.ts) break only at their <wbr> after each dot. */
  code.action {
    overflow-wrap: normal;
  }
  .muted {
    color: var(--muted);
  }
  .card {
    border: 1px solid var(--line);
    border-radius: 8px;
    padding: 1rem;
    margin: 0 0 1rem;
    background: #fff;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .spread {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    justify-content: space-between;
  }
  .grid {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
    gap: 0.75rem;
  }
  label {
    display: block;
    font-weight: 600;
    margin: 0 0 0.25rem;
  }
  .field {
    margin: 0 0 0.75rem;
  }
  .hint {
    color: var(--muted);
    font-size: 0.875rem;
    font-weight: 400;
  }
  input[type='text'],
  input[type='number'],
  input[type='password'],
  input[type='search'],
  input[type='url'],
  input[type='email'],
  input[type='date'],
  input:not([type]),
  select,
  textarea {
    font: inherit;
    color: inherit;
    width: 100%;
    max-width: 100%;
    padding: 0.4rem 0.5rem;
    border: 1px solid #8c959f;
    border-radius: 6px;
    background: #fff;
  }
  textarea {
    min-height: 5rem;
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  }
  input[aria-invalid='true'],
  select[aria-invalid='true'],
  textarea[aria-invalid='true'] {
    border-color: var(--danger);
    box-shadow: 0 0 0 1px var(--danger);
  }
  .error {
    color: var(--danger);
    font-size: 0.875rem;
    margin: 0.25rem 0 0;
  }
  fieldset {
    border: 1px solid var(--line);
    border-radius: 8px;
    padding: 0.75rem;
    margin: 0 0 0.75rem;
    min-width: 0;
  }
  legend {
    font-weight: 600;
    padding: 0 0.25rem;
  }
  button,
  .button {
    font: inherit;
    font-weight: 600;
    display: inline-flex;
    align-items: center;
    gap: 0.35rem;
    padding: 0.4rem 0.85rem;
    border-radius: 6px;
    border: 1px solid var(--primary);
    background: var(--primary);
    color: #fff;
    cursor: pointer;
    text-decoration: none;
    min-height: 2.25rem;
  }
  button:hover,
  .button:hover {
    background: var(--primary-dark);
  }
  button.secondary,
  .button.secondary {
    background: #fff;
    color: var(--primary);
  }
  button.secondary:hover,
  .button.secondary:hover {
    background: #eef3fd;
  }
  button.danger {
    background: var(--danger);
    border-color: var(--danger);
  }
  button.danger.secondary {
    background: #fff;
    color: var(--danger);
  }
  button:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
  :focus-visible {
    outline: 3px solid #fb8c00;
    outline-offset: 2px;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  .table-wrap {
    overflow-x: auto;
    max-width: 100%;
    /* Keeps the absolutely placed .visually-hidden texts of its cells inside the scrolling box. */
    position: relative;
  }
  th,
  td {
    text-align: left;
    padding: 0.45rem 0.5rem;
    border-bottom: 1px solid var(--line);
    vertical-align: top;
  }
  th {
    background: var(--soft);
    font-weight: 600;
  }
  td.num,
  th.num {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
  .badge {
    display: inline-block;
    padding: 0 0.5rem;
    border-radius: 999px;
    font-size: 0.8rem;
    font-weight: 600;
    border: 1px solid currentColor;
  }
  .badge.active {
    color: var(--ok);
  }
  .badge.paused {
    color: var(--warn);
  }
  .badge.interrupted,
  .badge.revoked {
    color: var(--danger);
  }
  .notice {
    border-left: 4px solid var(--primary);
    background: #eef3fd;
    padding: 0.6rem 0.8rem;
    border-radius: 4px;
    margin: 0 0 1rem;
  }
  .notice.warning {
    border-color: var(--warn);
    background: #fff8e6;
  }
  .notice.danger {
    border-color: var(--danger);
    background: #fdeceb;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  @media (max-width: 600px) {
    .card {
      padding: 0.75rem;
    }
    th,
    td {
      padding: 0.35rem 0.3rem;
    }
  }
`;

/**
 * A set of checkboxes (`.choices`, each a `label.check` around its input) laid out in columns that fit: the
 * access form's actions and the webhook form's event kinds.
 */
export const checkboxChoicesStyles = css`
  .check {
    display: flex;
    gap: 0.5rem;
    align-items: flex-start;
    font-weight: 400;
    margin: 0 0 0.4rem;
  }
  .check input {
    width: 1.1rem;
    height: 1.1rem;
    margin: 0.2rem 0 0;
    flex: none;
  }
  .choices {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
    gap: 0 1rem;
  }
`;
