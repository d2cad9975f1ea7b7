// The hit every visitor sends on its own. It lives apart from the hit classes (hits.ts) so that the entry,
// which sends it, does not share a module with the classes the tracking chunk checks against; bucketing mode's
// SEGMENT hit lives in segment-hit.ts, which only the bucketing chunk loads.
import { CONSENT_ACTION, SDK_NAME } from '../../protocol/index.js';
import type { EventCategory } from '../status.js';
import type { TrackedHit } from './tracker.js';

/**
 * The `fs_consent` event (PROTOCOL.md §5.1): sent at visitor creation and whenever consent changes, the one
 * hit sent while consent is false. Its label is `feature-ts:true` or `feature-ts:false`.
 */
export const consentHit = (hasConsented: boolean): TrackedHit => ({
  type: 'EVENT',
  content: {
    // The value of EventCategory.User_Engagement, written out so the enum object is not needed here.
    category: 'User_Engagement' satisfies EventCategory,
    action: CONSENT_ACTION,
    label: `${SDK_NAME}:${hasConsented}`,
  },
});
