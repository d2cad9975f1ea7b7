// Parts of the campaign editor kept out of its element: the error summary of a refused save (every message with
// its field path, a button to the field when it has an input) and the warning about flags a save would leave to
// the page's defaults (with "Save anyway").
import { html, nothing, type TemplateResult } from 'lit';
import type { MissingFlag } from './missing-flags.js';

/**
 * The summary of a refused save: `summary` holds [path, message] pairs ('' for no path); `placed` says which
 * paths have an input, which `goTo` focuses.
 */
export const errorSummary = (
  summary: ReadonlyArray<readonly [string, string]>,
  placed: ReadonlySet<string>,
  goTo: (path: string) => void,
): TemplateResult | typeof nothing => {
  if (summary.length === 0) return nothing;
  return html`<div id="error-summary" class="notice danger" role="alert" tabindex="-1">
    <h2>The campaign was not saved</h2>
    <ul>
      ${summary.map(
        ([path, message]) =>
          html`<li>
            ${path === '' ? nothing : html`<code>${path}</code>: `}${message}
            ${
              path !== '' && placed.has(path)
                ? html`<button type="button" class="linklike" @click=${() => goTo(path)}>
                    Go to the field
                  </button>`
                : nothing
            }
          </li>`,
      )}
    </ul>
  </div>`;
};

/**
 * The warning shown when a save would leave flags to the defaults: each variation and key in words, a button to
 * the cell, and "Save anyway". In the page's flow beside Save, so it covers nothing.
 */
export const missingFlagsWarning = (
  missing: readonly MissingFlag[],
  saveAnyway: () => void,
  focus: (id: string) => void,
): TemplateResult | typeof nothing => {
  if (missing.length === 0) return nothing;
  return html`<div id="missing-flags" class="notice warning" role="alert" tabindex="-1">
    <h2>Not saved yet: some flags are left to the page's defaults</h2>
    <ul>
      ${missing.map(
        (m) =>
          html`<li>
            ${m.message}
            <button type="button" class="linklike" @click=${() => focus(m.inputId)}>Go to it</button>
          </li>`,
      )}
    </ul>
    <p>
      Fill in those cells, or tick “Not set (default)” where the page's default is meant (a reference often
      keeps it): neither is warned about.
    </p>
    <button type="button" class="secondary" @click=${saveAnyway}>Save anyway</button>
  </div>`;
};
