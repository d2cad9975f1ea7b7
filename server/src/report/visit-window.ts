// What a visit is (PROTOCOL.md §14.1). An activation with an idempotency id (`hid`, always sent by our SDK) is
// one visit: idempotency already dropped its re-sends. Other SDKs send no hid and one activation per flag read
// (the platform's JS SDK again after its 2.5 s de-duplication window): those count one visit per (vid,
// variation group, variation) per 30 minutes, the window opening at the first such activation, whatever the
// client. The environment is the report's own.

/** How long a visit without an idempotency id lasts (§14.1). */
export const VISIT_WINDOW_MS = 30 * 60 * 1000;

/** The parts of an activation that decide whether it is a visit. */
export interface VisitCandidate {
  visitorId: string;
  hid: string | null;
  variationGroupId: string;
  variationId: string;
  /** Created time: received time − qt. */
  createdMs: number;
}

/**
 * A counter for one environment's activations, fed in created order: returns true when the activation is a
 * visit. Activations with a hid always are; one without is a visit when no window of its (vid, variation
 * group, variation) is open at its created time, and then opens one.
 */
export const visitCounter = (
  windowMs: number = VISIT_WINDOW_MS,
): ((activation: VisitCandidate) => boolean) => {
  // (vid, variation group, variation) → when its current window opened.
  const opened = new Map<string, number>();
  return (activation) => {
    if (activation.hid !== null) return true;
    const key = JSON.stringify([activation.visitorId, activation.variationGroupId, activation.variationId]);
    const since = opened.get(key);
    if (since !== undefined && activation.createdMs < since + windowMs) return false;
    opened.set(key, activation.createdMs);
    return true;
  };
};
