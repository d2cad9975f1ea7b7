// The campaign editor's form: the campaign's fields, its variation groups in decision order, its analysis
// settings and the save and delete buttons. A template over the draft, not an element: the editor owns the draft,
// the kit reports which error paths have an input, and every change goes through `kit.changed()`.
import { html, nothing, type TemplateResult } from 'lit';
import type { RemoteCampaign } from 'feature-ts/protocol';
import { analysisFields, type GoalsSeen } from './analysis-fields.js';
import { blankGroup, type CampaignDraft } from './campaign-draft.js';
import { campaignFields } from './campaign-fields.js';
import { missingFlagsWarning } from './editor-parts.js';
import { errorSlot, fieldId, type FormKit } from './form-kit.js';
import type { MissingFlag } from './missing-flags.js';
import { keysDatalist } from './targeting-editor.js';
import { variationGroupEditor } from './variation-group-editor.js';

/** What the form shows besides the draft, and what its buttons do. */
export interface CampaignFormState {
  /** The campaign as stored, or null for a new one. */
  campaign: RemoteCampaign | null;
  /** How many campaigns the environment has (for the position's hint). */
  count: number | null;
  /** The goals the report has seen, suggested for the primary goal. */
  goals: GoalsSeen;
  busy: boolean;
  /** What the last save did, for the status line beside Save. */
  saved: string;
  /** The state control of a stored campaign, with what its last change did (state-control.ts); nothing when new. */
  stateControl: TemplateResult | typeof nothing;
  /** Why the last delete was refused ('' when none was). */
  deleteError: string;
  /** The flags a save would leave to the defaults, once a save was tried (empty: no warning). */
  missing: readonly MissingFlag[];
  save: (event: SubmitEvent) => void;
  /** Saves although flags are left to the defaults. */
  saveAnyway: () => void;
  /** Focuses the input with this id. */
  focus: (id: string) => void;
  remove: () => void;
}

/** The editor's form over `draft`. */
export const campaignForm = (
  kit: FormKit,
  draft: CampaignDraft,
  state: CampaignFormState,
): TemplateResult => {
  const { campaign } = state;
  return html`<form novalidate @submit=${state.save}>
    ${keysDatalist()}
    <section class="card" aria-labelledby="campaign-title">
      <h2 id="campaign-title">Campaign</h2>
      ${state.stateControl} ${campaignFields(kit, draft, campaign === null, state.count)}
    </section>
    <section aria-labelledby="groups-title">
      <h2 id="groups-title">Variation groups</h2>
      <p class="hint">
        Tried in order: a visitor gets the first group whose targeting matches, and one of its variations.
      </p>
      <div id=${fieldId('variation_groups')} tabindex="-1">${errorSlot(kit, 'variation_groups')}</div>
      ${draft.groups.map((group, g) => variationGroupEditor(kit, draft, group, g))}
      <button
        type="button"
        class="secondary"
        @click=${() => (draft.groups.push(blankGroup(`Group ${draft.groups.length + 1}`)), kit.changed())}
      >
        Add variation group
      </button>
    </section>
    <section class="card" aria-labelledby="analysis-title">
      <h2 id="analysis-title">Analysis</h2>
      <p class="hint">How the report decides: these settings change the verdicts, never the counts.</p>
      ${analysisFields(kit, draft.analysis, state.goals)}
    </section>
    <div class="form-actions">
      ${missingFlagsWarning(state.missing, state.saveAnyway, state.focus)}
      <div class="spread">
        <div class="row">
          <button type="submit" ?disabled=${state.busy}>${state.busy ? 'Saving…' : 'Save campaign'}</button>
          <p class="saved" role="status">${state.saved}</p>
        </div>
        ${
          campaign === null
            ? nothing
            : html`<div class="row">
                <p class="error" role="alert">${state.deleteError}</p>
                <button type="button" class="secondary danger" @click=${state.remove}>Delete campaign</button>
              </div>`
        }
      </div>
    </div>
  </form>`;
};
