// The demo shop (demo/index.html) as a new visitor meets it (issue 35): the "Free shipping" banner arrives
// after the first paint without moving the product card, and "How this page works" names the environment and
// says the CLI report works while the server runs.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { demoCampaigns } from '../../server/src/demo-seed.js';
import type { Store } from '../../server/src/store/store.js';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import { seedEnvironment, startApp, type Running } from '../server/support.js';
import { launchChromium } from '../support/chromium.js';
import { buildSdkBundles } from '../support/sdk-build.js';
import { until } from '../support/until.js';

let sdkDir = '';
let store: Store;
let server: Running;
let browser: Browser | undefined;
let envId = '';

before(async () => {
  sdkDir = buildSdkBundles();
  store = await openFreshPgliteStore();
  const seeded = await seedEnvironment(store, demoCampaigns());
  envId = seeded.envId;
  server = await startApp(store, {
    static: { demoDir: 'demo', sdkDir, demo: { envId: seeded.envId, apiKey: seeded.apiKey } },
  });
  browser = await launchChromium();
});

after(async () => {
  // launchChromium throws when Debian's chromium is missing: the message it gave is the one to read.
  await browser?.close();
  await server.close();
  await store.close();
  rmSync(sdkDir, { recursive: true, force: true });
});

void test('a new visitor: the banner arrives without moving the product card', async () => {
  const page = await (browser ?? assert.fail('Chromium did not start')).newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/`);
  await until(() => page.locator('p.banner:not([slot])').isVisible(), {
    what: 'the banner shown',
    timeoutMs: 10_000,
    intervalMs: 50,
  });
  // The browser's own account of what moved (the Layout Instability API, which Cumulative Layout Shift sums):
  // the shifts since the page started that moved anything of the shop once it was shown. (The shop itself
  // appears once the page has read its environment, moving the boxes after it: the demo's set-up, not the
  // tags'.)
  const shopShifts = await page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const shop = document.querySelector('feature-provider');
        const observer = new PerformanceObserver((list) => {
          observer.disconnect();
          const moved = list
            .getEntries()
            .flatMap(
              (entry) =>
                (entry as PerformanceEntry & { sources?: Array<{ node?: Node | null }> }).sources ?? [],
            )
            .map((source) => source.node)
            .filter((node): node is Node => node != null && shop !== null && shop.contains(node));
          resolve(
            moved.map((node) => (node instanceof Element ? node.outerHTML.slice(0, 80) : node.nodeName)),
          );
        });
        observer.observe({ type: 'layout-shift', buffered: true });
        // The buffered shifts are delivered at once; none at all within 2 s means nothing moved.
        setTimeout(() => resolve([]), 2_000);
      }),
  );
  assert.deepEqual(shopShifts, [], 'nothing of the shop moved');
  assert.deepEqual(errors, []);
  await page.close();
});

void test('"How this page works" names the environment and the report command that works meanwhile', async () => {
  const page = await (browser ?? assert.fail('Chromium did not start')).newPage();
  await page.goto(`${server.url}/`);
  await until(async () => (await page.textContent('#about-env')) === envId, {
    what: 'the environment id in the box',
    intervalMs: 50,
  });
  const about = (await page.textContent('section[aria-labelledby="about-title"]')) ?? '';
  assert.match(about, new RegExp(`npx feature-server report --env ${envId}`));
  assert.match(about, /while the server runs/);
  assert.doesNotMatch(about, /stop the server/);
  await page.close();
});
