import type { Logger } from './logger.js';
import type { StartOptions } from './start-options.js';

/**
 * Developer usage tracking (PROTOCOL.md §12): at most once per visitor and day per SDK instance, for about 1
 * in 500 visitor-days (`MurmurHash3(visitorId + YYYY-MM-DD) % 1000 < 2`, UTC). Nothing here is on a page's
 * critical path: murmur3 is a separate chunk (shared with bucketing mode) that starts loading with `start` and
 * only sampling waits for it; the code that sends (`usage-hit.ts`) loads for sampled visitor-days only. Fire
 * and forget: usage statistics must never slow or fail a visitor call.
 */
export const usageTracker = (
  options: StartOptions,
  instance: object,
  logger: Logger,
  now: () => number,
): ((visitorId: string) => void) => {
  if (options.config.disableDeveloperUsageTracking === true) return () => undefined;
  const hashing = import('../engine/murmur3.js');
  const sent = new Set<string>();
  return (visitorId) => {
    const date = new Date(now()).toISOString().slice(0, 10);
    hashing
      .then(async ({ murmur3 }) => {
        const day = `${visitorId}\n${date}`;
        if (sent.has(day) || murmur3(visitorId + date) % 1000 >= 2) return;
        sent.add(day);
        await (await import('./usage-hit.js')).sendUsage(options, instance);
      })
      .catch((error: unknown) => logger.debug(`usage statistics not sent: ${String(error)}`));
  };
};
