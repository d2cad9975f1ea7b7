import { release, type as osType } from 'node:os';
import { internedCampaignFlags } from '../../engine/interned-flags.js';
import { DEFAULT_SERVER_URL, SDK_VERSION } from '../../protocol/index.js';
import { MemoryHitCache } from '../caches/memory.js';
import { ProcessVisitorCache } from '../caches/process-visitor-cache.js';
import { unreachableHint } from '../net/unreachable.js';
import { reportUndelivered } from '../tracking/manager-close.js';
import type { DeviceContext } from '../visitor/context-keys.js';
import { BatchCachingStrategy } from '../status.js';
import type { Platform } from './platform.js';

/** `os.type()` in SPEC.md's words (PROTOCOL.md §16.5). */
const OS_NAMES: Record<string, string> = { Linux: 'Linux', Darwin: 'macOS', Windows_NT: 'Windows' };

/** What to use instead of the default memory hit cache, said when `close()` leaves hits undelivered. */
export const MEMORY_HIT_CACHE_ADVICE =
  "Node's default hit cache is memory. To send them at the next start, keep them in a file: " +
  "ConfigBuilder.withCacheHitManager(fileHitCache('.feature-ts/hits.json')) from 'feature-ts/file-hit-cache'; " +
  "for processes that share them, redisHitCache from 'feature-ts/redis'.";

// `sdk_firstTimeInit` is true on the first start in the process (PROTOCOL.md §16.5): Node has no storage
// that outlives it by default, so the process is the unit.
let startedBefore = false;

/** Node: memory caches (visitor records bounded to the 10 000 most recent), periodic caching, the server from `FEATURE_API_URL` or its default. */
export const nodePlatform: Platform = {
  defaultServerUrl: () => process.env.FEATURE_API_URL ?? DEFAULT_SERVER_URL,
  defaultBatchStrategy: BatchCachingStrategy.BATCH_PERIODIC_CACHING,
  createVisitorCache: () => new ProcessVisitorCache(),
  createHitCache: () => new MemoryHitCache(),
  reportUndelivered: (left, logger, defaultCache) =>
    reportUndelivered(left, logger, defaultCache ? MEMORY_HIT_CACHE_ADVICE : undefined),
  serverHint: (serverUrl) =>
    unreachableHint(
      serverUrl,
      process.env.FEATURE_API_URL === undefined
        ? `No server could be reached at ${serverUrl}, the SDK's default in Node: set FEATURE_API_URL to your server's URL (or pass it to ConfigBuilder.withServerUrl).`
        : `No server could be reached at ${serverUrl}, taken from FEATURE_API_URL: check that variable and that the server runs there.`,
    ),
  campaignFlags: internedCampaignFlags,
  onProcessExit: (close) => {
    // `beforeExit`, not `exit`: the close is asynchronous, and the loop it fills keeps the process alive until
    // it is done; `once`, so the emit that follows that work ends the process.
    process.once('beforeExit', close);
    return () => process.off('beforeExit', close);
  },
  deviceContext(): Promise<DeviceContext> {
    const first = !startedBefore;
    startedBefore = true;
    const type = osType();
    return Promise.resolve({
      sdk_firstTimeInit: first,
      sdk_deviceLanguage: Intl.DateTimeFormat().resolvedOptions().locale,
      sdk_deviceType: 'server',
      sdk_osName: OS_NAMES[type] ?? type,
      sdk_osVersionCode: release(),
      sdk_fsVersion: SDK_VERSION,
    });
  },
};
