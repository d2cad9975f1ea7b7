// Issue 31 in the console, in Debian's Chromium: the report screen re-reads the report and its daily series
// with If-None-Match and the ETags of what it shows. While nothing new arrives both come back 304 and the
// screen keeps the very objects it rendered (nothing is set, so nothing renders anew); after a new exposure
// the next refresh is a 200 and the new figure shows. Refreshes are triggered through the poller's
// visibilitychange handler rather than by waiting out its 5 s period.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page, Response } from 'playwright-core';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import type { Store } from '../../server/src/store/store.js';
import { checkoutCampaign, post, seedEnvironment, startApp, type Running } from '../server/support.js';
import { launchChromium } from '../support/chromium.js';
import { buildConsole } from '../support/console-build.js';
import { until } from '../support/until.js';

const KEY = 'operator-key-for-the-report-refresh-e2e-0123';

let consoleDir = '';
let store: Store;
let server: Running;
let browser: Browser | undefined;
let envId = '';

const activate = async (vid: string, vaid: string): Promise<void> => {
  const batch = [{ vid, aid: null, caid: 'vg1', vaid, qt: 0 }];
  assert.equal((await post(`${server.url}/v2/activate`, { cid: envId, batch })).status, 204);
};

before(async () => {
  consoleDir = buildConsole();
  store = await openFreshPgliteStore();
  envId = (await seedEnvironment(store, [checkoutCampaign()])).envId;
  server = await startApp(store, {
    operatorKeys: [KEY],
    static: { demoDir: consoleDir, sdkDir: consoleDir, consoleDir },
  });
  await activate('ann', 'v1');
  await activate('bob', 'v2');
  const h = [
    { t: 'EVENT', vid: 'bob', cuid: null, qt: 0, hid: 'h-1', ec: 'Action Tracking', ea: 'add_to_cart' },
  ];
  assert.equal((await post(`${server.url}/events`, { cid: envId, t: 'BATCH', h })).status, 200);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server.close();
  await store.close();
  rmSync(consoleDir, { recursive: true, force: true });
});

/** The next refresh's answers of the report and the series, with the If-None-Match each was sent with. */
const refresh = async (page: Page): Promise<Array<{ path: string; status: number; sent: string }>> => {
  const answer = (suffix: string) =>
    page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(suffix) && r.request().method() === 'GET');
  const waiting = Promise.all([answer('/campaigns/c1/report'), answer('/reports/c1/days')]);
  // The poller re-reads at once when the (visible) tab says it became visible.
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  return (await waiting).map((r: Response) => ({
    path: new URL(r.url()).pathname,
    status: r.status(),
    sent: r.request().headers()['if-none-match'] ?? '',
  }));
};

/** Marks the report and series objects the screen holds, or says whether it still holds the marked ones. */
const holdsMarked = (page: Page, mark: boolean): Promise<boolean> =>
  page.evaluate((marking) => {
    // One loop, no inner function: the page gets this function's text, without the runner's helpers.
    let view: (Element & { report: unknown; series: unknown }) | null = null;
    const roots: Array<Document | ShadowRoot> = [document];
    for (let root = roots.pop(); root !== undefined && view === null; root = roots.pop()) {
      view = root.querySelector('report-view');
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot !== null) roots.push(el.shadowRoot);
    }
    if (view === null) throw new Error('no report-view on the page');
    const kept = window as unknown as { markedReport?: unknown; markedSeries?: unknown };
    if (marking) {
      kept.markedReport = view.report;
      kept.markedSeries = view.series;
      return view.report !== null && view.series !== null;
    }
    return view.report === kept.markedReport && view.series === kept.markedSeries;
  }, mark);

void test('the report refreshes with If-None-Match: 304 keeps what is shown, a new exposure shows', async () => {
  const context = await (browser ?? assert.fail('Chromium did not start')).newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${server.url}/admin#/campaigns/c1/report`);
  await page.getByRole('textbox', { name: 'Operator key' }).fill(KEY);
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
  const original = page.locator('report-group tr', { hasText: 'Original' }).locator('td').nth(1);
  await original.waitFor();
  assert.equal(await original.textContent(), '1');
  // The series comes with the report: wait until the screen holds both.
  await until(() => holdsMarked(page, true), {
    what: 'the report and its series both shown',
    timeoutMs: 5000,
  });

  const unchanged = await refresh(page);
  for (const answer of unchanged) {
    assert.equal(answer.status, 304, `${answer.path} unchanged`);
    assert.match(answer.sent, /^W\/"[\w-]{32}"$/, `${answer.path} sent its ETag`);
  }
  assert.ok(await holdsMarked(page, false), 'a 304 keeps the objects shown');
  assert.equal(await original.textContent(), '1');

  await activate('cid', 'v1');
  const changed = await refresh(page);
  const report = changed.find((a) => a.path.endsWith('/report'));
  assert.equal(report?.status, 200, 'the report after a new exposure');
  assert.equal(changed.find((a) => a.path.endsWith('/days'))?.status, 200, 'the series after it');
  await until(async () => (await original.textContent()) === '2', {
    what: 'the new figure shown',
    timeoutMs: 5000,
  });
  assert.equal(await holdsMarked(page, false), false, 'the new figures replaced the old');
  assert.deepEqual(problems, []);
  await context.close();
});
