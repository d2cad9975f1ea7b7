// The OpenFeature demo (/demo/openfeature/, demo/openfeature/) in Chromium: the page reads the seeded demo
// environment's flags through @openfeature/web-sdk's client and FeatureWebProvider, shows them, and its button's
// track('add_to_cart') reaches the server as an EVENT hit that the server stores.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { demoCampaigns } from '../../server/src/demo-seed.js';
import type { TrafficItem } from '../../server/src/store/collect-store.js';
import type { Store } from '../../server/src/store/store.js';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import { seedEnvironment, startApp, type Running } from '../server/support.js';
import { launchChromium } from '../support/chromium.js';
import { until } from '../support/until.js';

let demoDir = '';
let store: Store;
let server: Running;
let browser: Browser | undefined;
let envId = '';

/** Builds the OpenFeature demo into a temporary folder (served as `openfeatureDemoDir`). */
const buildDemo = (): string => {
  const outDir = mkdtempSync(join(tmpdir(), 'feature-openfeature-demo-'));
  const build = spawnSync(
    process.execPath,
    [
      'node_modules/vite/bin/vite.js',
      'build',
      '-c',
      'demo/openfeature/vite.config.ts',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'error',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(build.status, 0, build.stderr);
  return outDir;
};

before(async () => {
  demoDir = buildDemo();
  store = await openFreshPgliteStore();
  const seeded = await seedEnvironment(store, demoCampaigns());
  envId = seeded.envId;
  server = await startApp(store, {
    static: {
      demoDir: 'demo',
      sdkDir: '/nonexistent/sdk',
      openfeatureDemoDir: demoDir,
      demo: { envId: seeded.envId, apiKey: seeded.apiKey },
    },
  });
  browser = await launchChromium();
});

after(async () => {
  // launchChromium throws when Debian's chromium is missing: the message it gave is the one to read.
  await browser?.close();
  await server.close();
  await store.close();
  rmSync(demoDir, { recursive: true, force: true });
});

void test('the page shows the demo flags through OpenFeature, and track() stores an EVENT hit', async () => {
  const page = await (browser ?? assert.fail('Chromium did not start')).newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/demo/openfeature/`);
  await until(async () => (await page.textContent('#status'))?.startsWith('Ready') === true, {
    what: 'OpenFeature ready',
    timeoutMs: 10_000,
    intervalMs: 50,
  });
  // The shipping banner's toggle gives everyone its text; the checkout test gives one of its two arms.
  assert.equal(await page.textContent('#banner'), 'Free shipping over 50 €');
  assert.equal(await page.isVisible('#banner'), true);
  const label = (await page.textContent('#buy')) ?? '';
  assert.ok(['Add to cart', 'Buy now'].includes(label), `a checkout arm's text: ${label}`);
  assert.match((await page.textContent('#flags')) ?? '', /btnText.*TARGETING_MATCH|btnText.*SPLIT/s);
  const visitor =
    /visitor (\S+)\.$/.exec((await page.textContent('#status')) ?? '')?.[1] ??
    assert.fail('no visitor in the status');
  assert.ok(visitor.startsWith('of-demo-'), `the visitor in the status: ${visitor}`);

  await page.click('#buy');
  await until(async () => (await page.textContent('#sent'))?.includes('sent 1 time') === true, {
    what: 'the click said',
    intervalMs: 50,
  });
  // The tracker sends its batch within its interval (5 s by default): the server then stores the hit.
  const stored = await until(
    async () => {
      const { items } = await store.traffic(envId, { afterActivation: 0, afterHit: 0, visitor, limit: 50 });
      return items.find(
        (item: TrafficItem) => item.kind === 'hit' && item.type === 'EVENT' && item.goal === 'add_to_cart',
      );
    },
    { what: 'the EVENT hit stored', timeoutMs: 20_000, intervalMs: 200 },
  );
  assert.equal(stored.visitorId, visitor);
  assert.deepEqual(errors, []);
  await page.close();
});
