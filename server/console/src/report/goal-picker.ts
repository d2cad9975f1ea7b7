// The report's goal select: events and transactions in their own groups, with the hint that says which goal the
// verdicts are drawn on (the campaign's primary goal; the others are exploratory).
import type { PrimaryGoal } from 'feature-ts/protocol';
import { html, nothing, type TemplateResult } from 'lit';
import { type GoalKey, goalValue } from './report-model.js';

/** Which goal the verdicts are drawn on, under the goal picker. */
const primaryGoalHint = (primary: PrimaryGoal | null): string =>
  primary === null
    ? 'No primary goal is set, so every goal is exploratory: set one in the campaign editor.'
    : `Verdicts are drawn on the primary goal, ${primary.name}; the others are exploratory.`;

/** The select of `goals` with `goal` chosen; `choose` gets the `<select>` value picked. */
export const goalPicker = (
  goals: readonly GoalKey[],
  goal: GoalKey,
  primary: PrimaryGoal | null,
  choose: (value: string) => void,
): TemplateResult => {
  const events = goals.filter((g) => g.kind === 'event');
  const transactions = goals.filter((g) => g.kind === 'transaction');
  const option = (g: GoalKey) =>
    html`<option value=${goalValue(g)} ?selected=${goalValue(g) === goalValue(goal)}>${g.name}</option>`;
  return html`<div class="field">
      <label for="goal">Goal</label>
      <select
        id="goal"
        aria-describedby="goal-hint"
        @change=${(e: Event) => choose((e.target as HTMLSelectElement).value)}
      >
        ${events.length === 0 ? nothing : html`<optgroup label="Events">${events.map(option)}</optgroup>`}
        ${transactions.length === 0 ? nothing : html`<optgroup label="Transactions">${transactions.map(option)}</optgroup>`}
      </select>
    </div>
    <p class="hint" id="goal-hint">
      Every goal reached by an exposed visitor is listed: events by action, transactions by affiliation.
      ${primaryGoalHint(primary)}
    </p>`;
};
