// The header's account and environment selects: what every screen shows is the chosen environment's (or
// account's), so the choice sits in the header, beside the sign-out, on every screen.
import { html, nothing, type TemplateResult } from 'lit';
import type { ConsoleContext } from '../console-context.js';

/** The two selects; `choose` gets which one changed and the id picked. */
export const accountChoosers = (
  context: ConsoleContext,
  choose: (what: 'account' | 'environment', id: string) => void,
): TemplateResult => {
  const picked = (what: 'account' | 'environment') => (event: Event) =>
    choose(what, (event.target as HTMLSelectElement).value);
  return html`<div class="choosers">
    <label class="chooser"
      ><span>Account</span>
      <select aria-label="Account" @change=${picked('account')} ?disabled=${context.accounts.length === 0}>
        ${context.accounts.length === 0 ? html`<option>none yet</option>` : nothing}
        ${context.accounts.map(
          (a) => html`<option value=${a.id} ?selected=${a.id === context.account?.id}>${a.name}</option>`,
        )}
      </select></label
    >
    <label class="chooser"
      ><span>Environment</span>
      <select
        aria-label="Environment"
        @change=${picked('environment')}
        ?disabled=${context.environments.length === 0}
      >
        ${context.environments.length === 0 ? html`<option>none yet</option>` : nothing}
        ${context.environments.map(
          (e) =>
            html`<option value=${e.id} ?selected=${e.id === context.environment?.id}>
              ${e.name}${e.panic ? ' (panic)' : ''}
            </option>`,
        )}
      </select></label
    >
  </div>`;
};
