// The campaign editor's own styles (on top of consoleStyles): nested fieldsets for groups, targeting groups and
// variations, rows that wrap to one column at 360 px, and the AND / OR joiners between rules.
import { css } from 'lit';

/** Styles of <campaign-editor> and the template parts it renders. */
export const editorStyles = css`
  .top-links {
    margin: -0.25rem 0 1rem;
  }
  .group {
    background: var(--soft);
  }
  .targeting,
  .variation {
    background: #fff;
  }
  .targeting-group {
    border-style: dashed;
  }
  .rule {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
    gap: 0 0.75rem;
    align-items: start;
    padding: 0.5rem 0 0;
    border-top: 1px solid var(--line);
  }
  .rule > button {
    justify-self: start;
    align-self: end;
    margin-bottom: 0.75rem;
  }
  .rule-note {
    align-self: center;
  }
  .joiner {
    font-weight: 700;
    text-transform: uppercase;
    font-size: 0.8rem;
    color: var(--muted);
    margin: 0.25rem 0;
  }
  .variation-fields {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr));
    gap: 0 0.75rem;
    align-items: start;
  }
  .reference-field {
    display: flex;
    align-items: center;
    gap: 0.4rem;
    padding-top: 1.9rem;
  }
  .reference-field input {
    width: 1.15rem;
    height: 1.15rem;
    margin: 0;
  }
  .reference-field label {
    margin: 0;
  }
  .reference-field .error {
    flex-basis: 100%;
  }
  @media (max-width: 600px) {
    fieldset {
      padding: 0.5rem;
    }
    .reference-field {
      padding-top: 0;
    }
    .form-actions {
      padding: 0.5rem 0;
    }
  }
  .badge.reference {
    color: var(--primary);
    margin-left: 0.35rem;
  }
  .subhead {
    font-weight: 600;
    margin: 0.5rem 0 0.25rem;
  }
  .variation-list {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr));
    gap: 0 0.75rem;
  }
  .variation-list .variation-fields {
    grid-template-columns: repeat(auto-fit, minmax(7.5rem, 1fr));
  }
  .flags {
    margin: 1rem 0 0.25rem;
    container-type: inline-size;
  }
  h3.subhead {
    font-size: 1rem;
  }
  .flags .table-wrap {
    margin: 0 0 0.5rem;
    background: #fff;
    border: 1px solid var(--line);
    border-radius: 6px;
  }
  /* Wide enough for a headline (table cells ignore min-width: their content holds it); the grid scrolls sideways
     rather than squeezing a value. */
  .flag-grid td > input,
  .flag-grid td > select,
  .flag-grid .cell-text {
    min-width: 14rem;
  }
  .flag-grid th[scope='row'] > input,
  .flag-grid .flag-type {
    min-width: 12rem;
  }
  .flag-grid th[scope='row'] {
    background: var(--soft);
  }
  /* The key column keeps its width; the variations' columns share what is left. */
  .flag-grid .flag-col {
    width: 13rem;
  }
  .flag-type {
    margin-top: 0.35rem;
    flex-wrap: nowrap;
  }
  .flag-type select {
    flex: 1 1 7rem;
    min-width: 7rem;
  }
  .cell-text {
    display: flex;
    flex-direction: column;
    gap: 0.35rem;
  }
  .cell-text .expand {
    align-self: flex-start;
  }
  /* Long text and JSON grow with what they hold (up to a limit), so nothing typed is hidden in the cell. */
  .flag-grid textarea {
    field-sizing: content;
    min-height: 2.35rem;
    max-height: 18rem;
    resize: vertical;
    font-family: inherit;
  }
  .flag-grid textarea.json {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.9em;
  }
  .expand {
    padding: 0.15rem 0.5rem;
    min-height: 0;
    font-size: 0.85rem;
  }
  .flag-grid input.missing,
  .flag-grid select.missing,
  .flag-grid textarea.missing {
    border-style: dashed;
    border-color: var(--warn);
    background: #fffbf0;
  }
  label.unset {
    display: flex;
    align-items: center;
    gap: 0.35rem;
    font-weight: 400;
    font-size: 0.875rem;
    margin: 0.35rem 0 0;
    color: var(--muted);
  }
  label.unset input {
    margin: 0;
    width: 1rem;
    height: 1rem;
  }
  .unset-note {
    margin: 0.4rem 0 0;
    font-style: italic;
  }
  #missing-flags h2 {
    font-size: 1.05rem;
  }
  #missing-flags ul {
    margin: 0.25rem 0 0.5rem;
    padding-left: 1.1rem;
  }
  #missing-flags:focus {
    outline: 3px solid #fb8c00;
  }
  .allocation-sum {
    font-weight: 600;
  }
  .variations:focus {
    outline: none;
  }
  /* Not sticky: a bar over the form would hide the input that has the focus. */
  .form-actions {
    border-top: 1px solid var(--line);
    padding: 0.75rem 0;
    margin-top: 1rem;
  }
  .saved,
  .state-note {
    color: var(--ok);
    font-weight: 600;
    margin: 0;
  }
  .state-note.error {
    color: var(--danger);
  }
  /* Under the state's hint, in the flow: it pushes what follows down rather than covering it. */
  .state-notice {
    margin-top: 0.35rem;
  }
  .linklike {
    background: none;
    border: none;
    color: var(--primary);
    text-decoration: underline;
    padding: 0;
    min-height: 0;
    font-weight: 400;
  }
  .linklike:hover {
    background: none;
    color: var(--primary-dark);
  }
  #error-summary ul {
    margin: 0.25rem 0 0;
    padding-left: 1.1rem;
  }
  #error-summary:focus {
    outline: 3px solid #fb8c00;
  }
  .type-hints {
    margin: 0.25rem 0 0;
    padding-left: 1.1rem;
  }
  .type-hints .chosen {
    color: #1f2328;
  }
  .hint.warning {
    color: var(--warn);
    border-left: 4px solid var(--warn);
    background: #fff8e6;
    padding: 0.3rem 0.6rem;
  }
  /* Narrow (a phone): each flag is a card, its key and type first, then each variation's value under the
     variation's name; nothing to scroll sideways. */
  @container (max-width: 36rem) {
    .flag-grid,
    .flag-grid tbody,
    .flag-grid tr,
    .flag-grid th[scope='row'],
    .flag-grid td {
      display: block;
      width: auto;
    }
    .flag-grid thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
    .flag-grid tr {
      border-bottom: 3px solid var(--line);
    }
    .flag-grid td::before {
      content: attr(data-variation);
      display: block;
      font-weight: 600;
      font-size: 0.875rem;
      margin: 0 0 0.2rem;
    }
    .flag-grid td > input,
    .flag-grid td > select,
    .flag-grid .cell-text,
    .flag-grid th[scope='row'] > input,
    .flag-grid .flag-type {
      min-width: 0;
    }
  }
`;
