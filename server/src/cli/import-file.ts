// `feature-server import FILE --env E` (PROTOCOL.md §13.9): a bucketing-format file (§6) becomes the
// environment's campaigns. One function for the CLI and for tests that seed a server the way an operator does,
// and what the import says of the campaigns that the platform's own SDKs cannot evaluate (compatibility.ts).
import { unknownEnvironmentInput } from '../errors.js';
import { environmentCompatibility, type CompatibilityWarning } from '../remote/compatibility.js';
import type { AccountStore } from '../store/account-store.js';
import type { CampaignStore } from '../store/campaign-store.js';
import { validateBucketingCampaigns } from '../validation/bucketing-campaigns.js';
import { readJsonFile } from './json-file.js';

/**
 * Replaces the campaigns of `envId` with those of the bucketing-format file at `path`, in the file's order;
 * returns how many. The file is checked before the database is touched.
 */
export const importCampaignsFile = async (
  store: AccountStore & CampaignStore,
  envId: string,
  path: string,
): Promise<number> => {
  const campaigns = validateBucketingCampaigns(await readJsonFile(path));
  if ((await store.getEnvironment(envId)) === null) {
    throw unknownEnvironmentInput(envId);
  }
  return store.replaceCampaigns(envId, campaigns);
};

/**
 * What the platform's SDKs evaluate differently in a bucketing-format file's campaigns, campaign by campaign
 * (the environment's one visitor, one test setting is not in the file: the remote control API checks it).
 * Throws, as the import does, when the file is not a bucketing file.
 */
export const importWarnings = (file: unknown): CompatibilityWarning[] =>
  environmentCompatibility(validateBucketingCampaigns(file));

/** What `import` prints: `warnings` in the JSON object only when there are some; one text line per warning. */
export const importOutcome = (
  envId: string,
  count: number,
  warnings: readonly CompatibilityWarning[],
): { value: Record<string, unknown>; human: string } => ({
  value: { envId, campaigns: count, ...(warnings.length === 0 ? {} : { warnings }) },
  human: [
    `${count} campaign(s) imported into ${envId}.`,
    ...warnings.map(
      (w) => `warning: campaign ${w.campaignId}, ${w.path} (${w.modes.join(' and ')} mode): ${w.message}`,
    ),
    ...(warnings.length === 0
      ? []
      : [
          'The platform\'s own SDKs evaluate these campaigns differently: see docs/http-api.md, "Using the platform\'s SDKs".',
        ]),
  ].join('\n'),
});
