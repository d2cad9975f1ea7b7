import { DEFAULT_SERVER_URL, SDK_VERSION } from '../../protocol/index.js';
import { HIT_CACHE_METHODS, VISITOR_CACHE_METHODS } from '../config.js';
import type { DeviceContext } from '../context-keys.js';
import { deferred } from '../lazy.js';
import { BatchCachingStrategy } from '../status.js';
import type { Platform } from './platform.js';

/** User-Agent Client Hints, where the browser has them (Chromium). */
interface ClientHints {
  mobile?: boolean;
  platform?: string;
}

/** `[pattern, OS name, version pattern]`, first match wins: iOS and Android before the desktop systems. */
const SYSTEMS: Array<[RegExp, string, RegExp | null]> = [
  [/iPhone|iPad|iPod/, 'iOS', /OS (\d+(?:_\d+)*)/],
  [/Android/, 'Android', /Android (\d+(?:\.\d+)*)/],
  [/CrOS/, 'ChromeOS', /CrOS \S+ (\d+(?:\.\d+)*)/],
  [/Windows/, 'Windows', /Windows NT (\d+(?:\.\d+)*)/],
  [/Macintosh|Mac OS X/, 'macOS', /Mac OS X (\d+(?:[._]\d+)*)/],
  [/Linux/, 'Linux', null],
];

/** The OS name and version from the user agent (PROTOCOL.md §16.5); "" when unknown. */
export const systemFromUserAgent = (ua: string): { name: string; version: string } => {
  for (const [test, name, version] of SYSTEMS)
    if (test.test(ua)) return { name, version: version?.exec(ua)?.[1]?.replace(/_/g, '.') ?? '' };
  return { name: '', version: '' };
};

/** `mobile`, `tablet` or `desktop` from the client hints when present, else the user agent. */
export const deviceTypeOf = (ua: string, hints: ClientHints | undefined): string => {
  if (hints?.mobile === true) return 'mobile';
  if (/iPad|Tablet|Android(?!.*Mobile)/.test(ua)) return 'tablet';
  if (hints === undefined && /Mobi|iPhone|Android/.test(ua)) return 'mobile';
  return 'desktop';
};

/** The IndexedDB caches (and idb): a separate chunk, which `start` begins loading when it makes the caches. */
const idbCaches = () => import('../caches/idb.js');

/** Client hints' platform names in SPEC.md's words. */
const HINT_NAMES: Record<string, string> = { 'Chrome OS': 'ChromeOS', 'Mac OS X': 'macOS' };

/** Browsers: IndexedDB caches, continuous caching, the page's origin as server, page-hide sending. */
export const browserPlatform: Platform = {
  defaultServerUrl: () => (location.origin.startsWith('http') ? location.origin : DEFAULT_SERVER_URL),
  defaultBatchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
  createVisitorCache: (logger) =>
    deferred(
      idbCaches().then((m) => new m.IdbVisitorCache({ logger })),
      VISITOR_CACHE_METHODS,
    ),
  createHitCache: (logger) =>
    deferred(
      idbCaches().then((m) => new m.IdbHitCache({ logger })),
      HIT_CACHE_METHODS,
    ),
  async deviceContext(): Promise<DeviceContext> {
    const ua = navigator.userAgent;
    const hints = (navigator as Navigator & { userAgentData?: ClientHints }).userAgentData;
    const system = systemFromUserAgent(ua);
    const hinted = hints?.platform;
    return {
      sdk_firstTimeInit: await (await idbCaches()).markFirstStart(),
      sdk_deviceLanguage: navigator.language,
      sdk_deviceType: deviceTypeOf(ua, hints),
      sdk_osName: hinted ? (HINT_NAMES[hinted] ?? hinted) : system.name,
      sdk_osVersionCode: system.version,
      sdk_fsVersion: SDK_VERSION,
    };
  },
  onPageHide(send) {
    const onVisibility = (): void => {
      if (document.visibilityState === 'hidden') send();
    };
    document.addEventListener('visibilitychange', onVisibility);
    addEventListener('pagehide', send);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      removeEventListener('pagehide', send);
    };
  },
};
