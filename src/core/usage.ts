import { murmur3 } from '../engine/murmur3.js';
import type { Logger } from './logger.js';
import type { StartOptions } from './start-options.js';

/** `MurmurHash3(visitorId + YYYY-MM-DD) % 1000 < 2`: about 1 in 500 visitor-days (PROTOCOL.md §12). */
export const sampledForUsage = (visitorId: string, epochMs: number): boolean =>
  murmur3(visitorId + new Date(epochMs).toISOString().slice(0, 10)) % 1000 < 2;

/**
 * Developer usage tracking (PROTOCOL.md §12): at most once per visitor and day per SDK instance, for the
 * sampled visitor-days. Only the sampling is here: the code that sends (`usage-hit.ts`) is a separate chunk,
 * loaded for the 1 in 500 sampled visitor-days. Fire and forget: usage statistics must never slow or fail a
 * visitor call.
 */
export const usageTracker = (options: StartOptions, instance: object, logger: Logger, now: () => number) => {
  const sent = new Set<string>();
  return (visitorId: string): void => {
    if (options.config.disableDeveloperUsageTracking === true) return;
    const at = now();
    const day = `${visitorId}\n${new Date(at).toISOString().slice(0, 10)}`;
    if (sent.has(day) || !sampledForUsage(visitorId, at)) return;
    sent.add(day);
    import('./usage-hit.js')
      .then((m) => m.sendUsage(options, instance))
      .catch((error: unknown) => logger.debug(`usage statistics not sent: ${String(error)}`));
  };
};
