// The hits the SDK sends on its own. They live apart from the hit classes (hits.ts) so that the entry, which
// sends them, does not share a module with the classes the tracking chunk checks against.
import { CONSENT_ACTION, SDK_NAME, type VisitorContext } from '../../protocol/index.js';
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

/** A SEGMENT hit carrying the visitor context (sent on the wire as `s`, values stringified). */
export const segmentHit = (context: Readonly<VisitorContext>): TrackedHit => ({
  type: 'SEGMENT',
  content: { context: { ...context } },
});
