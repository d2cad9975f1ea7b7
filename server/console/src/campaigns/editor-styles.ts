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
  .rule,
  .flag-row {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
    gap: 0 0.75rem;
    align-items: start;
    padding: 0.5rem 0 0;
    border-top: 1px solid var(--line);
  }
  .rule > button,
  .flag-row > button {
    justify-self: start;
    align-self: end;
    margin-bottom: 0.75rem;
  }
  .rule-note,
  .flag-row > .hint {
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
  .flags {
    margin: 0 0 0.75rem;
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
  .saved {
    color: var(--ok);
    font-weight: 600;
    margin: 0;
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
`;
