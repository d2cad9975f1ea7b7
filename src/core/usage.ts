import { murmur3 } from '../engine/murmur3.js';
import { SDK_NAME, SDK_VERSION, usageRoute, type UsageHit } from '../protocol/index.js';
import type { Logger } from './logger.js';
import type { StartOptions } from './start-options.js';

/** `MurmurHash3(visitorId + YYYY-MM-DD) % 1000 < 2`: about 1 in 500 visitor-days (PROTOCOL.md §12). */
export const sampledForUsage = (visitorId: string, epochMs: number): boolean =>
  murmur3(visitorId + new Date(epochMs).toISOString().slice(0, 10)) % 1000 < 2;

/** The `cv` of a usage hit: how the SDK is configured, every value a string, no visitor data. */
const usageValues = (o: StartOptions): Record<string, string> => ({
  version: '1',
  'stack.name': SDK_NAME,
  'stack.version': SDK_VERSION,
  'sdk.config.mode': o.mode,
  'sdk.config.timeout': String(o.timeout),
  'sdk.config.logLevel': String(o.logLevel),
  'sdk.config.pollingInterval': String(o.bucketingPollingIntervals),
  'sdk.config.trackingManager.strategy': o.tracking.batchStrategy,
  'sdk.config.trackingManager.batchIntervals': String(o.tracking.batchIntervals),
  'sdk.config.trackingManager.poolMaxSize': String(o.tracking.poolMaxSize),
  'sdk.config.usingCustomHitCache': String(o.config.hitCache !== undefined),
  'sdk.config.usingCustomVisitorCache': String(o.config.visitorCache !== undefined),
  'sdk.config.usingOnVisitorExposed': String(o.config.onVisitorExposed !== undefined),
});

/**
 * Developer usage tracking (PROTOCOL.md §12): at most once per visitor and day per SDK instance, for the
 * sampled visitor-days, one `POST {E}/analytics` in `text/plain` (no preflight). Fire and forget: usage
 * statistics must never slow or fail a visitor call.
 */
export const usageTracker = (
  options: StartOptions,
  instanceId: string,
  logger: Logger,
  now: () => number,
) => {
  const sent = new Set<string>();
  return (visitorId: string): void => {
    if (options.config.disableDeveloperUsageTracking === true) return;
    const at = now();
    const day = `${visitorId}\n${new Date(at).toISOString().slice(0, 10)}`;
    if (sent.has(day) || !sampledForUsage(visitorId, at)) return;
    sent.add(day);
    const hit: UsageHit = { t: 'USAGE', cid: options.envId, vid: instanceId, cv: usageValues(options) };
    fetch(usageRoute(options.urls.events), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify(hit),
    }).catch((error: unknown) => logger.debug(`usage statistics not sent: ${String(error)}`));
  };
};
