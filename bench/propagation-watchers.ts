// Where propagation.bench.ts sees a change land: a `<feature-flag>` in a Chromium page, or a Node SDK visitor's
// flag. Each records every value it shows with the wall-clock time it showed it (in the page, a
// MutationObserver; in Node, the visitor's `$flags` atom), so that reading the record later costs the figure
// nothing. BENCH_PROPAGATION_DEBUG=1 prints the page's console, requests and decisions, and the SDK's log.
import type { Browser, Page } from 'playwright-core';
import {
  ConfigBuilder,
  FeatureInstance,
  Level,
  MemoryHitCache,
  MemoryVisitorCache,
  Mode,
} from '../src/core/node.js';
import { nodePlatform } from '../src/core/platform/node.js';

/** One value shown, and when (ms since the epoch, sub-millisecond). */
interface Shown {
  text: string;
  at: number;
}

/** Something that shows the flag's value. */
export interface Watcher {
  /** Resolves with the first time at or after `since` it showed `text`; fails after `maxMs`. */
  shown(text: string, since: number, maxMs: number): Promise<number>;
  close(): Promise<void>;
}

/** The flag whose value is watched, and its default (the campaign paused). */
const KEY = 'btnText';
/** The flag's default, what it shows while the campaign is paused. */
export const FLAG_DEFAULT = 'none';
const DEFAULT = FLAG_DEFAULT;

/** Checks `seen` until it holds `text` at or after `since`; bounded in time and in checks. */
const firstShown = async (
  seen: () => Promise<Shown[]> | Shown[],
  text: string,
  since: number,
  maxMs: number,
): Promise<number> => {
  const deadline = Date.now() + maxMs;
  let last: Shown[] = [];
  for (let check = 0; check < 100_000; check++) {
    last = await seen();
    const hit = last.find((s) => s.text === text && s.at >= since);
    if (hit !== undefined) return hit.at;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const values = last.slice(-5).map((s) => s.text);
  throw new Error(
    `propagation bench: "${text}" did not show within ${maxMs} ms (last shown: ${JSON.stringify(values)})`,
  );
};

/** The page served at `/` (the static route's demo folder): the elements from the server's /sdk/. */
export const PROPAGATION_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Propagation</title>
<script type="module" src="/sdk/elements.js"></script></head><body></body></html>`;

/** Opens the page on `serverUrl` with a live `<feature-provider>` (its default) and one `<feature-flag>`. */
export const watchPage = async (
  browser: Browser,
  serverUrl: string,
  env: { envId: string; apiKey: string },
): Promise<Watcher> => {
  const page: Page = await browser.newPage();
  if (process.env.BENCH_PROPAGATION_DEBUG !== undefined) {
    page.on('console', (message) => console.error(`page: ${message.text()}`));
    page.on('request', (request) => console.error(`page request: ${request.method()} ${request.url()}`));
    page.on('response', (response) => {
      if (response.url().includes('/campaigns'))
        void response.text().then((text) => console.error(`page response: ${response.status()} ${text}`));
    });
  }
  await page.goto(`${serverUrl}/`);
  await page.waitForFunction(() => customElements.get('feature-flag') !== undefined);
  await page.evaluate(
    ([envId, apiKey, key, fallback]) => {
      const seen: Array<{ text: string; at: number }> = [];
      (window as unknown as { seen: typeof seen }).seen = seen;
      const provider = document.createElement('feature-provider');
      provider.setAttribute('env-id', envId);
      provider.setAttribute('api-key', apiKey);
      provider.setAttribute('visitor-id', 'propagation-visitor');
      provider.setAttribute('consent', '');
      const flag = document.createElement('feature-flag');
      flag.setAttribute('key', key);
      flag.setAttribute('default', fallback);
      flag.setAttribute('exposure', 'manual');
      new MutationObserver(() => {
        const text = flag.textContent.trim();
        if (seen.at(-1)?.text !== text) seen.push({ text, at: performance.timeOrigin + performance.now() });
      }).observe(flag, { childList: true, characterData: true, subtree: true });
      provider.append(flag);
      document.body.append(provider);
    },
    [env.envId, env.apiKey, KEY, DEFAULT] as const,
  );
  return {
    shown: (text, since, maxMs) =>
      firstShown(
        () => page.evaluate(() => (window as unknown as { seen: Shown[] }).seen),
        text,
        since,
        maxMs,
      ),
    close: () => page.close(),
  };
};

/** A Node SDK in bucketing mode with live updates (polling once an hour), and one visitor who fetched once. */
export const watchNodeSdk = async (
  serverUrl: string,
  env: { envId: string; apiKey: string },
): Promise<Watcher> => {
  const instance = new FeatureInstance(nodePlatform);
  await instance.start(
    env.envId,
    env.apiKey,
    new ConfigBuilder()
      .withMode(Mode.BUCKETING)
      .withServerUrl(serverUrl)
      .withLiveUpdates(true)
      .withBucketingPollingIntervals(3600)
      .withLogLevel(process.env.BENCH_PROPAGATION_DEBUG === undefined ? Level.NONE : Level.ALL)
      .withDisableDeveloperUsageTracking(true)
      .withCacheVisitorManager(new MemoryVisitorCache())
      .withCacheHitManager(new MemoryHitCache())
      .build(),
  );
  const visitor = instance.newVisitor({ visitorId: 'propagation-visitor', hasConsented: true }).build();
  const seen: Shown[] = [];
  const record = (): void => {
    const text = visitor.getFlag(KEY).value(DEFAULT, { visitorExposed: false });
    if (seen.at(-1)?.text !== text) seen.push({ text, at: performance.timeOrigin + performance.now() });
  };
  const unlisten = visitor.$flags.listen(record);
  await visitor.fetchFlags();
  record();
  return {
    shown: (text, since, maxMs) => firstShown(() => seen, text, since, maxMs),
    close: async () => {
      unlisten();
      await instance.close();
    },
  };
};
