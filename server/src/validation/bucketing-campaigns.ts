// The campaigns of a bucketing-format file given to `feature-server import` or the operator import route
// (PROTOCOL.md §6): checked against the file's schema (bucketing-file-schema.ts), then by the rules that span
// fields (campaign-rules.ts), with the path of the first problem; normalised (bucketRanges always written).
// The file's looser rules are kept, so every file that imported before still does.
import type { BucketingCampaign } from 'feature-ts/protocol';
import { checkAnalysis } from './analysis-settings.js';
import { bucketingFileSchema } from './bucketing-file-schema.js';
import { checkAllocations, checkTargetSizes, claimId } from './campaign-rules.js';
import { fail } from './field-error.js';
import { schemaCheck } from './schema-check.js';

export { FieldError } from './field-error.js';

const checkFile = schemaCheck(bucketingFileSchema);

const SCOPE = 'in the file';

/** Validates and normalises the campaigns of an imported file; throws FieldError naming the field. */
export const validateBucketingCampaigns = (file: unknown): BucketingCampaign[] => {
  checkFile(file);
  // Checked by the file's schema above.
  const campaigns = (file as { campaigns: BucketingCampaign[] }).campaigns;
  const ids = new Set<string>();
  const slugs = new Set<string>();
  return campaigns.map((campaign, i): BucketingCampaign => {
    const path = `campaigns[${i}]`;
    claimId(campaign.id, `${path}.id`, ids, SCOPE);
    const slug = campaign.slug;
    if (typeof slug === 'string') {
      if (slugs.has(slug)) fail(`${path}.slug`, `"${slug}" is used twice ${SCOPE}`);
      slugs.add(slug);
    }
    campaign.variationGroups.forEach((group, j) => {
      const at = `${path}.variationGroups[${j}]`;
      claimId(group.id, `${at}.id`, ids, SCOPE);
      group.variations.forEach((v, k) => claimId(v.id, `${at}.variations[${k}].id`, ids, SCOPE));
      checkAllocations(group.variations, `${at}.variations`, false);
      checkTargetSizes(group.targeting?.targetingGroups ?? [], `${at}.targeting.targetingGroups`);
    });
    // The file's groups are kept as given (fields the import does not know included).
    const checked: BucketingCampaign = {
      ...campaign,
      bucketRanges: campaign.bucketRanges ?? [{ r: [0, 100] }],
    };
    // The analysis settings (§14.6) are kept as read, never as given: the report trusts what is stored.
    delete checked.analysis;
    const analysis =
      campaign.analysis === undefined ? undefined : checkAnalysis(campaign.analysis, `${path}.analysis`);
    return analysis === undefined ? checked : { ...checked, analysis };
  });
};
