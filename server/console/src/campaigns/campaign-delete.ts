// Deleting a campaign (DELETE …/campaigns/{id}) from its editor: asks first, because the campaign leaves
// decisions at once; a refusal is said beside the Delete button, a success by the list it goes back to.
import type { RemoteCampaign } from 'feature-ts/protocol';
import { ConsoleApiError, seg } from '../api.js';
import type { ConsoleContext } from '../console-context.js';
import { navigate } from '../router.js';
import { confirmAction } from '../widgets/confirm.js';

/** Deletes `campaign` after asking; resolves why the server refused, or '' (deleted, or not confirmed). */
export const deleteCampaign = async (context: ConsoleContext, campaign: RemoteCampaign): Promise<string> => {
  const envId = context.environment?.id;
  if (envId === undefined) return '';
  const sure = await confirmAction(
    `Delete “${campaign.name}”?`,
    'It leaves decisions at once. Its report stays readable, and its ids stay taken in this environment.',
    'Delete campaign',
  );
  if (!sure) return '';
  try {
    await context.api.delete(`/environments/${seg(envId)}/campaigns/${seg(campaign.id)}`);
    // Said over the list, where the shell's notice covers no form.
    context.notify(`Deleted “${campaign.name}”.`);
    navigate({ name: 'campaigns' });
    return '';
  } catch (error) {
    return `Not deleted: ${error instanceof ConsoleApiError ? error.message : String(error)}`;
  }
};
