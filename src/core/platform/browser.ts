import { DEFAULT_SERVER_URL } from '../../protocol/index.js';
import { IdbHitCache, IdbVisitorCache } from '../caches/idb.js';
import type { DeviceContext } from '../visitor/context-keys.js';
import { BatchCachingStrategy } from '../status.js';
import { deviceContext, onPageHide, pageVisibility } from './browser-page.js';
import type { Platform } from './platform.js';

/**
 * Browsers: IndexedDB caches, continuous caching, the page's origin as server, page-hide sending, the page's visibility. The caches
 * and what reads the page are imported statically: `start` awaits them, so a chunk of their own would only
 * add a round trip.
 */
export const browserPlatform: Platform = {
  defaultServerUrl: () => (location.origin.startsWith('http') ? location.origin : DEFAULT_SERVER_URL),
  defaultBatchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
  // One database per environment: pooled hits and visitor records belong to the environment that made them.
  createVisitorCache: (logger, envId) => new IdbVisitorCache({ logger, dbName: `feature-ts:${envId}` }),
  createHitCache: (logger, envId) => new IdbHitCache({ logger, dbName: `feature-ts:${envId}` }),
  deviceContext: (): Promise<DeviceContext> => deviceContext(),
  onPageHide,
  visibility: pageVisibility,
};
