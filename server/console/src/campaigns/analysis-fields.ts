// The editor's "Analysis" section (PROTOCOL.md §14.6): the primary goal (a type and a name, suggested from the
// goals the campaign's report has seen, or typed), the method (sequential, or fixed with its warning), alpha and
// the expected visitors, each explained in one line. Kept as typed text; `analysisBody` reads it into the body's
// `analysis` and names each problem by the server's path (`analysis.alpha`), so client and server errors land
// next to the same input.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import {
  ANALYSIS_DEFAULTS,
  ANALYSIS_LIMITS,
  HIT_LIMITS,
  type AnalysisMethod,
  type AnalysisSettings,
  type CampaignReport,
  type JsonValue,
} from 'feature-ts/protocol';
import { described, errorSlot, fieldId, valueOf, type FormKit } from './form-kit.js';

/** The kind of primary goal, or none. */
export type GoalType = 'none' | 'event' | 'transaction';

/** The analysis settings being edited. */
export interface AnalysisDraft {
  goalType: GoalType;
  goalName: string;
  method: AnalysisMethod;
  alpha: string;
  expectedVisitors: string;
}

/** Goal names the campaign's report has seen, by type. */
export interface GoalsSeen {
  event: readonly string[];
  transaction: readonly string[];
}

/** No goal seen (a new campaign, or a report that could not be read). */
export const NO_GOALS: GoalsSeen = { event: [], transaction: [] };

/** The draft of settings in force (defaults where `settings` is missing). */
export const analysisDraftOf = (settings: AnalysisSettings | undefined): AnalysisDraft => {
  const s = settings ?? ANALYSIS_DEFAULTS;
  return {
    goalType: s.primary_goal?.type ?? 'none',
    goalName: s.primary_goal?.name ?? '',
    method: s.method,
    alpha: String(s.alpha),
    expectedVisitors: String(s.expected_visitors),
  };
};

/** Every event and transaction goal of a report, sorted. */
export const goalsSeen = (report: CampaignReport): GoalsSeen => {
  const event = new Set<string>();
  const transaction = new Set<string>();
  for (const group of report.variation_groups)
    for (const variation of group.variations) {
      for (const name of Object.keys(variation.events)) event.add(name);
      for (const name of Object.keys(variation.transactions)) transaction.add(name);
    }
  return { event: [...event].sort(), transaction: [...transaction].sort() };
};

const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

const ALPHA_MESSAGE = `must be a number from ${ANALYSIS_LIMITS.minAlpha} to ${ANALYSIS_LIMITS.maxAlpha} (${ANALYSIS_DEFAULTS.alpha} is usual)`;
const VISITORS_MESSAGE = `must be a whole number from ${ANALYSIS_LIMITS.minExpectedVisitors} to 100 000 000`;

/** The body's `analysis`, every field written; problems are reported through `issue` by the server's path. */
export const analysisBody = (
  draft: AnalysisDraft,
  issue: (path: string, message: string, live: boolean) => void,
): Record<string, JsonValue> => {
  const name = draft.goalName.trim();
  if (draft.goalType !== 'none') {
    if (name === '')
      issue('analysis.primary_goal.name', `is required: the ${goalNoun(draft.goalType)} to decide on`, false);
    else if (name.length > HIT_LIMITS.maxStringLength)
      issue('analysis.primary_goal.name', `must be at most ${HIT_LIMITS.maxStringLength} characters`, true);
  }
  const alpha = numberOf(draft.alpha);
  if (!(alpha >= ANALYSIS_LIMITS.minAlpha && alpha <= ANALYSIS_LIMITS.maxAlpha))
    issue('analysis.alpha', ALPHA_MESSAGE, true);
  const visitors = numberOf(draft.expectedVisitors);
  if (!(
    Number.isInteger(visitors) &&
    visitors >= ANALYSIS_LIMITS.minExpectedVisitors &&
    visitors <= ANALYSIS_LIMITS.maxExpectedVisitors
  ))
    issue('analysis.expected_visitors', VISITORS_MESSAGE, true);
  return {
    primary_goal: draft.goalType === 'none' ? null : { type: draft.goalType, name },
    method: draft.method,
    alpha: Number.isFinite(alpha) ? alpha : ANALYSIS_DEFAULTS.alpha,
    expected_visitors: Number.isFinite(visitors) ? visitors : ANALYSIS_DEFAULTS.expected_visitors,
  };
};

const goalNoun = (type: 'event' | 'transaction'): string =>
  type === 'event' ? "event's action" : "transaction's affiliation";

const GOAL_TYPES: ReadonlyArray<[GoalType, string]> = [
  ['none', 'None'],
  ['event', 'Event'],
  ['transaction', 'Transaction'],
];

const goalFields = (kit: FormKit, draft: AnalysisDraft, goals: GoalsSeen): TemplateResult => {
  // The type's select also carries errors about the goal as a whole.
  const goalError = kit.error('analysis.primary_goal');
  const typeError = kit.error('analysis.primary_goal.type') ?? goalError;
  const typeHint = 'f-analysis-primary_goal-hint';
  const typeIds = [
    typeHint,
    typeError === undefined ? undefined : `${fieldId('analysis.primary_goal.type')}-error`,
  ];
  const name = described(kit, 'analysis.primary_goal.name', 'f-analysis-primary_goal-name-hint');
  const type = draft.goalType;
  const seen = type === 'none' ? [] : goals[type];
  return html`<div class="grid">
    <div class="field">
      <label for=${fieldId('analysis.primary_goal.type')}>Primary goal</label>
      <select
        id=${fieldId('analysis.primary_goal.type')}
        data-path="analysis.primary_goal"
        aria-invalid=${typeError === undefined ? 'false' : 'true'}
        aria-describedby=${typeIds.filter((id) => id !== undefined).join(' ')}
        @change=${(event: Event) => ((draft.goalType = valueOf(event) as GoalType), kit.changed())}
      >
        ${GOAL_TYPES.map(([value, label]) => html`<option value=${value} ?selected=${value === type}>${label}</option>`)}
      </select>
      <p id=${typeHint} class="hint">
        The goal that decides the test: only it gets a verdict; every other goal is exploratory (figures, no
        verdict).
      </p>
      ${
        typeError === undefined
          ? nothing
          : html`<p id=${`${fieldId('analysis.primary_goal.type')}-error`} class="error">${typeError}</p>`
      }
    </div>
    ${
      type === 'none'
        ? nothing
        : html`<div class="field">
            <label for=${fieldId('analysis.primary_goal.name')}>
              ${type === 'event' ? 'Event action' : 'Transaction affiliation'}
            </label>
            <input
              id=${fieldId('analysis.primary_goal.name')}
              type="text"
              autocomplete="off"
              list="goals-seen"
              aria-invalid=${name.invalid}
              aria-describedby=${name.describedBy}
              .value=${live(draft.goalName)}
              @input=${(event: Event) => ((draft.goalName = valueOf(event)), kit.changed())}
            />
            <datalist id="goals-seen">${seen.map((goal) => html`<option value=${goal}></option>`)}</datalist>
            <p id="f-analysis-primary_goal-name-hint" class="hint">
              ${
                seen.length === 0
                  ? `The ${goalNoun(type)} as the hits send it; none seen yet in this campaign's report.`
                  : `The ${goalNoun(type)} as the hits send it: pick one seen in the report (${seen.length}) or type one.`
              }
            </p>
            ${errorSlot(kit, 'analysis.primary_goal.name')}
          </div>`
    }
  </div>`;
};

/** The "Analysis" section's fields. */
export const analysisFields = (kit: FormKit, draft: AnalysisDraft, goals: GoalsSeen): TemplateResult => {
  const method = described(kit, 'analysis.method', 'f-analysis-method-hint');
  const alpha = described(kit, 'analysis.alpha', 'f-analysis-alpha-hint');
  const visitors = described(kit, 'analysis.expected_visitors', 'f-analysis-expected_visitors-hint');
  return html`<div id=${fieldId('analysis')} tabindex="-1">${errorSlot(kit, 'analysis')}</div>
    ${goalFields(kit, draft, goals)}
    <div class="field">
      <label for="f-analysis-method">Method</label>
      <select
        id="f-analysis-method"
        aria-invalid=${method.invalid}
        aria-describedby=${method.describedBy}
        @change=${(event: Event) => ((draft.method = valueOf(event) as AnalysisMethod), kit.changed())}
      >
        <option value="sequential" ?selected=${draft.method === 'sequential'}>
          Sequential (recommended)
        </option>
        <option value="fixed" ?selected=${draft.method === 'fixed'}>Fixed horizon</option>
      </select>
      <p id="f-analysis-method-hint" class=${draft.method === 'fixed' ? 'hint warning' : 'hint'}>
        ${
          draft.method === 'fixed'
            ? 'Warning: fixed-horizon figures are valid only when the report is read once, at a sample size fixed in advance; watching them and stopping early declares false winners.'
            : 'Sequential: you may look at the report as often as you like, the verdict stays valid.'
        }
      </p>
      ${errorSlot(kit, 'analysis.method')}
    </div>
    <div class="grid">
      <div class="field">
        <label for="f-analysis-alpha">Alpha (false-positive risk)</label>
        <input
          id="f-analysis-alpha"
          type="number"
          min=${ANALYSIS_LIMITS.minAlpha}
          max=${ANALYSIS_LIMITS.maxAlpha}
          step="any"
          inputmode="decimal"
          aria-invalid=${alpha.invalid}
          aria-describedby=${alpha.describedBy}
          .value=${live(draft.alpha)}
          @input=${(event: Event) => ((draft.alpha = valueOf(event)), kit.changed())}
        />
        <p id="f-analysis-alpha-hint" class="hint">
          The chance accepted of calling a winner when there is no real difference: 0.05 is 1 in 20 (from
          ${ANALYSIS_LIMITS.minAlpha} to ${ANALYSIS_LIMITS.maxAlpha}).
        </p>
        ${errorSlot(kit, 'analysis.alpha')}
      </div>
      <div class="field">
        <label for="f-analysis-expected_visitors">Expected visitors</label>
        <input
          id="f-analysis-expected_visitors"
          type="number"
          min=${ANALYSIS_LIMITS.minExpectedVisitors}
          max=${ANALYSIS_LIMITS.maxExpectedVisitors}
          step="1"
          inputmode="numeric"
          aria-invalid=${visitors.invalid}
          aria-describedby=${visitors.describedBy}
          .value=${live(draft.expectedVisitors)}
          @input=${(event: Event) => ((draft.expectedVisitors = valueOf(event)), kit.changed())}
        />
        <p id="f-analysis-expected_visitors-hint" class="hint">
          The group's total visitors at which you expect to decide: the sequential interval is tuned to be
          tightest there (100 to 100 000 000).
        </p>
        ${errorSlot(kit, 'analysis.expected_visitors')}
      </div>
    </div>`;
};
