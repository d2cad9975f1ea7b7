import type { TrackerDeps, UndeliveredItem } from './tracker.js';

/** "2 hits", "1 hit and 3 activations": what a list of pooled items holds, in the product's words. */
export const describeItems = (items: readonly UndeliveredItem[]): string => {
  const activations = items.filter((item) => item.record.data.type === 'ACTIVATE').length;
  const hits = items.length - activations;
  const words = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [hits > 0 ? words(hits, 'hit') : '', activations > 0 ? words(activations, 'activation') : '']
    .filter((part) => part !== '')
    .join(' and ');
};

/**
 * Says, once `close()` has made its last attempt and written what is left to the hit cache, what became of
 * the items the server did not take: kept for the next start, or lost with the process (a cache that does not
 * outlive it, `volatileHitCache` naming what to use instead; or a cache write that failed, logged above).
 * Node's (platform/node.ts): browsers do not load it.
 */
export const reportUndelivered = (
  left: readonly UndeliveredItem[],
  logger: TrackerDeps['logger'],
  volatileHitCache: string | undefined,
): void => {
  if (left.length === 0) return;
  if (volatileHitCache !== undefined) {
    logger.error(
      `Tracking: ${describeItems(left)} not delivered by close() are lost when this process ends: ${volatileHitCache}`,
    );
    return;
  }
  const kept = left.filter((item) => item.stored);
  const lost = left.filter((item) => !item.stored);
  if (kept.length > 0)
    logger.warning(
      `Tracking: ${describeItems(kept)} not delivered by close() stay in the hit cache and are sent at the next start`,
    );
  if (lost.length > 0)
    logger.error(
      `Tracking: ${describeItems(lost)} not delivered by close() are lost: the hit cache could not store them (see above)`,
    );
};
