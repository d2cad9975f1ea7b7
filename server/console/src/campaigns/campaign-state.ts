// Changing a campaign's state (PATCH …/campaigns/{id}/toggle), shared by the list and the editor: interrupted is
// final (the server refuses leaving it), so going there asks first.
import type { CampaignState, RemoteCampaign } from 'feature-ts/protocol';
import { ConsoleApiError, seg } from '../api.js';
import type { ConsoleContext } from '../console-context.js';
import { confirmAction } from '../widgets/confirm.js';

/** The states, with the words the console uses for them. */
export const STATE_LABELS: Readonly<Record<CampaignState, string>> = {
  active: 'Active',
  paused: 'Paused',
  interrupted: 'Interrupted',
};

/** What each state means for visitors, for hints. */
export const STATE_HINTS: Readonly<Record<CampaignState, string>> = {
  active: 'visitors get it at their next decision',
  paused: 'left out of decisions until made active again',
  interrupted: 'stopped for good: it can never run again',
};

/** The states in the order the selects show them. */
export const STATES: readonly CampaignState[] = ['active', 'paused', 'interrupted'];

/** What the campaign's state now means, for a notice beside it ("Paused — left out of decisions …"). */
export const stateNotice = (state: CampaignState): string =>
  `${STATE_LABELS[state]} — ${STATE_HINTS[state]}.`;

/** The Undo button's name after a change from another state: what it gives the campaign back (empty: none). */
export const undoLabel = (campaign: RemoteCampaign, undoTo: CampaignState | null): string =>
  undoTo === null ? '' : `Undo: make ${campaign.name} ${STATE_LABELS[undoTo].toLowerCase()} again`;

/** What a screen reader hears after a change: the campaign, its state and what that means; `again` after an Undo. */
export const stateAnnouncement = (campaign: RemoteCampaign, again = false): string =>
  `“${campaign.name}” is ${again ? 'back to ' : ''}${STATE_LABELS[campaign.state].toLowerCase()}: ${STATE_HINTS[campaign.state]}.`;

/**
 * Moves `campaign` to `state` after asking when it is final; resolves the campaign as stored now, or null when
 * the user cancelled or the server refused (the reason is told through `context.notify`). The caller tells the
 * success itself, beside what changed (the list beside the row, the editor under its state control; both with
 * Undo).
 */
export const changeState = async (
  context: ConsoleContext,
  campaign: RemoteCampaign,
  state: CampaignState,
): Promise<RemoteCampaign | null> => {
  const envId = context.environment?.id;
  if (envId === undefined || state === campaign.state) return null;
  if (
    state === 'interrupted' &&
    !(await confirmAction(
      `Interrupt “${campaign.name}”?`,
      'An interrupted campaign leaves decisions at once and can never be made active or paused again: to run it again, create a new campaign.',
      'Interrupt for good',
    ))
  )
    return null;
  try {
    const updated = await context.api.patch<RemoteCampaign>(
      `/environments/${seg(envId)}/campaigns/${seg(campaign.id)}/toggle`,
      { state },
    );
    return updated;
  } catch (error) {
    context.notify(error instanceof ConsoleApiError ? error.message : String(error), 'error');
    return null;
  }
};
