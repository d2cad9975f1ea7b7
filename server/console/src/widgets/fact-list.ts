// An item's facts (its name, its id) as a definition list, as the settings screens show an account's or an
// environment's identity: names bold above their values, and ids in full beside a copy button, since they are
// what a user pastes into code and scripts.
import { css, html, type TemplateResult } from 'lit';
import './copy-button.js';

/** The styles of a fact list's `<dl>`, `<dt>` and `<dd>`. */
export const factListStyles = css`
  dl {
    margin: 0 0 0.75rem;
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0 0 0.5rem;
  }
`;

/**
 * An id in full with a button that copies it: `label` names it for the button ("account id"), `testId` marks the
 * element that holds it.
 */
export const copyableId = (id: string, label: string, testId: string): TemplateResult =>
  html`<div class="row">
    <code class="mono" data-testid=${testId}>${id}</code>
    <copy-button .value=${id} label=${label}></copy-button>
  </div>`;
