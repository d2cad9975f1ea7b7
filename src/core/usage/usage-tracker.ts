import { murmur3 } from '../../engine/murmur3.js';
import type { Logger } from '../logger.js';
import type { StartOptions } from '../start-options.js';
import { sendUsage } from './usage-hit.js';

/**
 * Developer usage tracking (PROTOCOL.md §12): at most once per visitor and day per SDK instance, for about 1
 * in 500 visitor-days (`MurmurHash3(visitorId + YYYY-MM-DD) % 1000 < 2`, UTC). This module, murmur3 and the
 * sending code are part of the after-first-render chunk (`tracking/after-render.ts`); nothing waits for it.
 * Fire and forget: usage statistics must never slow or fail a visitor call.
 */
export const usageTracker = (
  options: StartOptions,
  instance: object,
  logger: Logger,
): ((visitorId: string, at: number) => void) => {
  const sent = new Set<string>();
  return (visitorId, at) => {
    const date = new Date(at).toISOString().slice(0, 10);
    const day = `${visitorId}\n${date}`;
    if (sent.has(day) || murmur3(visitorId + date) % 1000 >= 2) return;
    sent.add(day);
    sendUsage(options, instance).catch((error: unknown) =>
      logger.debug(`usage statistics not sent: ${String(error)}`),
    );
  };
};
