// The headline, as a user meets it: a plain .html file (opened from disk, so on another origin than the server,
// and with no bundler) loads `/sdk/elements.js` from the project's server and uses the three tags. The variation
// renders, its exposure is reported once it has been seen, and a click's hit reaches the campaign report,
// credited to the variation the visitor saw.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import type { BucketingCampaign } from '../../src/protocol/index.js';
import { demoCampaigns } from '../../server/src/demo-seed.js';
import { buildCampaignReport } from '../../server/src/report/build-report.js';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import type { Store } from '../../server/src/store/store.js';
import { seedEnvironment, startApp, type Running } from '../server/support.js';
import { launchChromium } from '../support/chromium.js';
import { buildSdkBundles } from '../support/sdk-build.js';
import { until } from '../support/until.js';

/** Both arms set a visible text, so whichever the visitor gets shows up as itself. */
const buttonTest: BucketingCampaign = {
  id: 'c-button',
  name: 'Buy button',
  type: 'ab',
  slug: 'buy-button',
  variationGroups: [
    {
      id: 'vg-button',
      name: 'Everyone',
      targeting: {
        targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
      },
      variations: [
        {
          id: 'v-original',
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnText: 'Add to cart' } },
        },
        {
          id: 'v-green',
          name: 'Green',
          reference: false,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnText: 'Buy now' } },
        },
      ],
    },
  ],
};

const work = mkdtempSync(join(tmpdir(), 'feature-plain-page-'));
let sdkDir = '';
let store: Store;
let server: Running;
let browser: Browser | undefined;

before(async () => {
  sdkDir = buildSdkBundles();
  store = await openFreshPgliteStore();
  server = await startApp(store, { static: { demoDir: work, sdkDir } });
  browser = await launchChromium();
});

after(async () => {
  // launchChromium throws when Debian's chromium is missing: the message it gave is the one to read.
  await browser?.close();
  await server.close();
  await store.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(sdkDir, { recursive: true, force: true });
});

/** The variation the decision API gives `visitorId`: the expectation comes from the server, not the elements. */
const variationOf = async (envId: string, apiKey: string, visitorId: string) => {
  const answer = await fetch(`${server.url}/v2/${envId}/campaigns?sendContextEvent=false`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ visitorId, context: {} }),
  });
  const body = (await answer.json()) as {
    campaigns: Array<{
      variation: { id: string; name: string; modifications: { value: { btnText: string } } };
    }>;
  };
  const variation = body.campaigns[0]?.variation;
  assert.ok(variation, 'the visitor is in the test');
  return { id: variation.id, name: variation.name, text: variation.modifications.value.btnText };
};

void test('a plain HTML file with /sdk/elements.js and the three tags runs the A/B test end to end', async () => {
  const { envId, apiKey } = await seedEnvironment(store, [buttonTest]);
  const visitorId = 'plain-page-visitor';
  const expected = await variationOf(envId, apiKey, visitorId);
  // One template per arm, by variation name; a second flag shows the value as text.
  const file = join(work, 'shop.html');
  writeFileSync(
    file,
    `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Shop</title>
    <script type="module" src="${server.url}/sdk/elements.js"></script></head>
  <body>
    <main>
      <feature-provider env-id="${envId}" api-key="${apiKey}" visitor-id="${visitorId}" consent>
        <feature-hit type="screen" location="shop"></feature-hit>
        <feature-flag key="btnText" default="Add to cart" exposure-delay="300">
          <span slot="loading">…</span>
          <template variation="Original">
            <feature-hit type="event" action="add_to_cart"><button id="buy">Add to cart</button></feature-hit>
          </template>
          <template variation="Green">
            <feature-hit type="event" action="add_to_cart"><button id="buy">Buy now</button></feature-hit>
          </template>
        </feature-flag>
        <p id="label"><feature-flag key="btnText" default="none" exposure="manual"></feature-flag></p>
      </feature-provider>
    </main>
  </body>
</html>`,
  );
  const tab = await (browser ?? assert.fail('Chromium did not start')).newPage();
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.goto(pathToFileURL(file).href);
  await tab.waitForFunction(
    (text) =>
      document.querySelector('#buy')?.textContent === text &&
      document.querySelector('#label feature-flag')?.textContent === text,
    expected.text,
    { timeout: 10_000 },
  );
  // Seen for 300 ms in a visible page: one visit, for the variation shown.
  const report = () => buildCampaignReport(store, envId, buttonTest.id);
  const shown = async () =>
    (await report()).variation_groups[0]?.variations.find((x) => x.id === expected.id);
  const visited = await until(
    async () => {
      const v = await shown();
      return v !== undefined && v.visits > 0 ? v : null;
    },
    { what: 'the exposure in the report', timeoutMs: 15_000, intervalMs: 200 },
  );
  assert.equal(visited.visits, 1);
  await tab.click('#buy');
  const converted = await until(
    async () => {
      const v = await shown();
      const goal = v?.events.add_to_cart;
      return v !== undefined && goal !== undefined && goal.conversions > 0 ? { v, goal } : null;
    },
    { what: 'the add_to_cart conversion in the report', timeoutMs: 15_000, intervalMs: 200 },
  );
  assert.equal(converted.goal.conversions, 1);
  assert.equal(converted.goal.visitors, 1);
  assert.equal(converted.v.visits, 1, 'the click did not count a second visit');
  const other = (await report()).variation_groups[0]?.variations.find((x) => x.id !== expected.id);
  assert.equal(other?.visits, 0);
  assert.deepEqual(errors, []);
  await tab.close();
});

void test("the README's first web-components snippet works as written against a server with the demo", async () => {
  const readme = readFileSync('README.md', 'utf8');
  const snippet = /<!-- elements-quick-start -->[\s\S]*?```html\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(snippet, 'the README has the elements quick start between its markers');
  const campaigns = demoCampaigns();
  const { envId, apiKey } = await seedEnvironment(store, campaigns);
  const file = join(work, 'readme.html');
  writeFileSync(
    file,
    snippet.replace('http://127.0.0.1:8080', server.url).replace('ENV_ID', envId).replace('API_KEY', apiKey),
  );
  const tab = await (browser ?? assert.fail('Chromium did not start')).newPage();
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.goto(pathToFileURL(file).href);
  const arm = await tab.waitForFunction(
    () => /You see the (\w+) arm\./.exec(document.body.textContent)?.[1] ?? false,
    undefined,
    { timeout: 10_000 },
  );
  const name = (await arm.jsonValue()) as string;
  // What that arm sets, from the seeded campaign (not from the page).
  const abTest = campaigns[0];
  const variation = abTest?.variationGroups[0]?.variations.find((v) => v.name === name);
  assert.ok(variation, `the page shows an arm of the A/B test (${name})`);
  const text = (variation.modifications.value as { btnText: string }).btnText;
  assert.equal((await tab.textContent('button'))?.trim(), text);
  await tab.click('button');
  const report = () => buildCampaignReport(store, envId, abTest?.id ?? '');
  const goal = await until(
    async () => {
      const v = (await report()).variation_groups[0]?.variations.find((x) => x.id === variation.id);
      const g = v?.events.add_to_cart;
      return g !== undefined && g.conversions > 0 ? g : null;
    },
    { what: 'the snippet click in the report', timeoutMs: 15_000, intervalMs: 200 },
  );
  assert.equal(goal.conversions, 1);
  assert.deepEqual(errors, []);
  await tab.close();
});
