// Visitor cache records written by hand in PROTOCOL.md §10's format, for tests that seed a cache.
import type { DecisionCampaign, VisitorContext } from '../../src/protocol/index.js';

/** The JSON text of a version-1 record for `visitorId` holding `campaigns`. */
export const makeVisitorRecordText = (
  visitorId: string,
  campaigns: DecisionCampaign[],
  history: Record<string, string> = {},
  context: VisitorContext = {},
): string =>
  JSON.stringify({
    version: 1,
    data: {
      visitorId,
      anonymousId: null,
      consent: true,
      context,
      campaigns: campaigns.map((c) => ({
        campaignId: c.id,
        campaignName: c.name,
        campaignType: c.type,
        slug: c.slug,
        variationGroupId: c.variationGroupId,
        variationGroupName: c.variationGroupName,
        variationId: c.variation.id,
        variationName: c.variation.name,
        isReference: c.variation.reference,
        type: 'FLAG',
        flags: c.variation.modifications.value,
      })),
      assignmentsHistory: history,
      fetchedAt: 1795374650972,
    },
  });
