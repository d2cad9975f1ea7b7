// "N pages listening now (this server)" in the console, in Debian's Chromium against a real server: the campaign
// list and the report header show how many live-update streams (§17) of the environment are open on this
// instance, and follow streams as they open. Refreshes are triggered through the poller's visibilitychange
// handler rather than by waiting out its 5 s period.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Store } from '../../server/src/store/store.js';
import { openStream, type OpenedStream } from '../server/event-stream-client.js';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import { checkoutCampaign, seedEnvironment, startApp, type Running } from '../server/support.js';
import { launchChromium } from '../support/chromium.js';
import { buildConsole } from '../support/console-build.js';
import { until } from '../support/until.js';

const KEY = 'operator-key-for-the-listening-e2e-01234';

let consoleDir = '';
let store: Store;
let server: Running;
let browser: Browser | undefined;
let envId = '';
const streams: OpenedStream[] = [];

before(async () => {
  consoleDir = buildConsole();
  store = await openFreshPgliteStore();
  envId = (await seedEnvironment(store, [checkoutCampaign()])).envId;
  server = await startApp(store, {
    operatorKeys: [KEY],
    static: { demoDir: consoleDir, sdkDir: consoleDir, consoleDir },
  });
  browser = await launchChromium();
});

after(async () => {
  for (const stream of streams) stream.close();
  await browser?.close();
  await server.close();
  await store.close();
  rmSync(consoleDir, { recursive: true, force: true });
});

/** Waits until the screen says `text`, asking the pollers to re-read (as a tab made visible again does). */
const shows = (page: Page, text: string): Promise<boolean> =>
  until(
    async () => {
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      return page.getByText(text, { exact: true }).isVisible();
    },
    { what: `"${text}" shown`, timeoutMs: 10_000, intervalMs: 200 },
  );

void test('the campaign list and the report say how many pages listen now on this server', async () => {
  const context = await (browser ?? assert.fail('Chromium did not start')).newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${server.url}/admin#/campaigns`);
  await page.getByRole('textbox', { name: 'Operator key' }).fill(KEY);
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
  await shows(page, '0 pages listening now (this server)');

  for (let i = 0; i < 2; i += 1) {
    const stream = await openStream(`${server.url}/v1/${envId}/stream`);
    assert.equal(stream.status, 200);
    streams.push(stream);
  }
  await shows(page, '2 pages listening now (this server)');

  await page.goto(`${server.url}/admin#/campaigns/c1/report`);
  await shows(page, '2 pages listening now (this server)');
  streams.pop()?.close();
  await shows(page, '1 page listening now (this server)');
  assert.deepEqual(problems, []);
  await context.close();
});
