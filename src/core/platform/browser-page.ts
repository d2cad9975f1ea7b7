// What the SDK reads from and listens to on the page: the auto-set context keys (PROTOCOL.md §16.5), gathered
// during `start`, and page hide, on which the tracker beacons its pool. The first-start mark is kept in the
// IndexedDB caches' database.
import { SDK_VERSION } from '../../protocol/index.js';
import { markFirstStart } from '../caches/idb.js';
import type { DeviceContext } from '../visitor/context-keys.js';
import type { Visibility } from './platform.js';

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

/** Client hints' platform names in SPEC.md's words. */
const HINT_NAMES: Record<string, string> = { 'Chrome OS': 'ChromeOS', 'Mac OS X': 'macOS' };

/** The auto-set keys in a browser: client hints where the browser has them (Chromium), else the user agent. */
export const deviceContext = async (): Promise<DeviceContext> => {
  const ua = navigator.userAgent;
  const hints = (navigator as Navigator & { userAgentData?: ClientHints }).userAgentData;
  const system = systemFromUserAgent(ua);
  const hinted = hints?.platform;
  return {
    sdk_firstTimeInit: await markFirstStart(),
    sdk_deviceLanguage: navigator.language,
    sdk_deviceType: deviceTypeOf(ua, hints),
    sdk_osName: hinted ? (HINT_NAMES[hinted] ?? hinted) : system.name,
    sdk_osVersionCode: system.version,
    sdk_fsVersion: SDK_VERSION,
  };
};

/** Calls `send` when the page is hidden or unloaded (PROTOCOL.md §5.3); returns an unregister function. */
export const onPageHide = (send: () => void): (() => void) => {
  const onVisibility = (): void => {
    if (document.visibilityState === 'hidden') send();
  };
  document.addEventListener('visibilitychange', onVisibility);
  addEventListener('pagehide', send);
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    removeEventListener('pagehide', send);
  };
};

/** The page's visibility, for the live-update stream (PROTOCOL.md §17). */
export const pageVisibility: Visibility = {
  hidden: () => document.visibilityState === 'hidden',
  onChange(changed) {
    const listener = (): void => changed(document.visibilityState === 'hidden');
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
};
