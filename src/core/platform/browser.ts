import { DEFAULT_SERVER_URL } from '../../protocol/index.js';
import { HIT_CACHE_METHODS, VISITOR_CACHE_METHODS } from '../config.js';
import type { DeviceContext } from '../context-keys.js';
import { deferred } from '../lazy.js';
import { BatchCachingStrategy } from '../status.js';
import type { Platform } from './platform.js';

/** The IndexedDB caches (and idb): a separate chunk, which `start` begins loading when it makes the caches. */
const idbCaches = () => import('../caches/idb.js');

/**
 * Browsers: IndexedDB caches, continuous caching, the page's origin as server, page-hide sending. What reads or
 * listens to the page (browser-page.ts) and the caches (caches/idb.ts) are chunks `start` loads side by side.
 */
export const browserPlatform: Platform = {
  defaultServerUrl: () => (location.origin.startsWith('http') ? location.origin : DEFAULT_SERVER_URL),
  defaultBatchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
  // One database per environment: pooled hits and visitor records belong to the environment that made them.
  createVisitorCache: (logger, envId) =>
    deferred(
      idbCaches().then((m) => new m.IdbVisitorCache({ logger, dbName: `feature-ts:${envId}` })),
      VISITOR_CACHE_METHODS,
    ),
  createHitCache: (logger, envId) =>
    deferred(
      idbCaches().then((m) => new m.IdbHitCache({ logger, dbName: `feature-ts:${envId}` })),
      HIT_CACHE_METHODS,
    ),
  async deviceContext(): Promise<DeviceContext> {
    // Both chunks at once: the device module imports the caches one, which must not wait for it.
    const [device] = await Promise.all([import('./browser-page.js'), idbCaches()]);
    return device.deviceContext();
  },
  onPageHide(send) {
    // The listeners live with the device context (browser-page.ts), a chunk start loads anyway.
    const unregister = import('./browser-page.js').then(
      (m) => m.onPageHide(send),
      () => () => undefined,
    );
    return () => void unregister.then((off) => off());
  },
};
