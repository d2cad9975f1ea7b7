import { SDK_NAME, SDK_VERSION, usageRoute, type UsageHit } from '../../protocol/index.js';
import { fetchText } from '../net/http.js';
import { fetchError } from '../net/request-failure.js';
import type { StartOptions } from '../start-options.js';
import { uuidV4 } from '../tracking/uuid.js';

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

/** How long the usage hit's request may take, as long as a tracking batch's (the tracking manager's default). */
const USAGE_TIMEOUT_MS = 10_000;

/** The usage hit's `vid`: one random id per SDK instance, made the first time that instance sends one. */
const instanceIds = new WeakMap<object, string>();

/** Sends one usage hit (PROTOCOL.md §12): `POST {E}/analytics` in `text/plain`, so no preflight. */
export const sendUsage = async (options: StartOptions, instance: object): Promise<void> => {
  let vid = instanceIds.get(instance);
  if (vid === undefined) instanceIds.set(instance, (vid = uuidV4()));
  const hit: UsageHit = { t: 'USAGE', cid: options.envId, vid, cv: usageValues(options) };
  const url = usageRoute(options.urls.events);
  // One attempt through the SDK's fetch with a timeout (net/http.ts), never retried: statistics are sampled
  // anyway, and a lost one is not worth a pending timer in the page.
  try {
    await fetchText(
      url,
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(hit) },
      USAGE_TIMEOUT_MS,
      new AbortController(),
    );
  } catch (error) {
    // The usage route holds no query: the URL is shown as it is.
    throw new Error(`POST ${url}: ${fetchError(error, url)}`);
  }
};
