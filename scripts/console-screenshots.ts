// `npx tsx scripts/console-screenshots.ts [folder]`: the pictures of docs/console.md, taken the way an operator
// sees the console. A server in this process (in-memory store, the demo seeded, the built console from
// server/dist/console: run `npm run build` first) gets five days of made-up but plausible traffic on the demo
// A/B test (its clock moved day by day), a second A/B test with one day of equal traffic in each variation (the
// daily chart's bars), two remote control accesses (one revoked), two people (an admin who accepted her
// invitation and renamed the headline test, an editor still invited), then Debian's Chromium signs in and
// photographs each screen (Users, the Audit log and the headline test's History too), and the campaigns and
// the report at phone width (390 px). Writes PNGs into the folder (default docs/images).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../server/src/app.js';
import { actingAs, SERVER_ACTOR } from '../server/src/audit/actor.js';
import { consoleDir, sdkBundleDir } from '../server/src/assets.js';
import { seedDemo } from '../server/src/demo-seed.js';
import { createLogger } from '../server/src/logger.js';
import { openPgliteStore } from '../server/src/store/pglite/pglite.js';
import { startWebhookDeliverer } from '../server/src/webhooks/webhook-deliverer.js';
import { launchChromium } from '../test/support/chromium.js';

const out = process.argv[2] ?? 'docs/images';
const KEY = 'operator-key-for-the-console-screenshots';
const DAY = 86_400_000;
const DAYS = 5;
const VISITORS_PER_DAY = 160;

if (!existsSync(join(consoleDir(), 'index.html'))) {
  console.error('console-screenshots: build the console first (`npm run build`).');
  process.exit(1);
}
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'console-screenshots-'));
const store = await openPgliteStore(null);
// Seeded on the store directly, as `start` does under the CLI's actor: every change needs one for the audit log.
const demo = await actingAs(SERVER_ACTOR, () => seedDemo(store, join(work, 'demo-credentials.json')));
const realNow = Date.now();
let clock = realNow;
const app = await createApp({
  store,
  logger: createLogger('fatal'),
  operatorKeys: [KEY],
  now: () => clock,
  static: { demoDir: work, sdkDir: sdkBundleDir(), consoleDir: consoleDir() },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
};
const operator = { authorization: `Bearer ${KEY}` };

/** A number in [0, 1) fixed by `seed`: the same pictures on every run. */
const chance = (seed: string): number => createHash('sha256').update(seed).digest().readUInt32BE(0) / 2 ** 32;

try {
  // Five days of visitors: each is decided by the server, exposed, and converts at its arm's rate.
  for (let day = 0; day < DAYS; day++) {
    clock = realNow - (DAYS - 1 - day) * DAY - 2 * 3_600_000;
    const activations: unknown[] = [];
    const hits: unknown[] = [];
    for (let i = 0; i < VISITORS_PER_DAY; i++) {
      const vid = `visitor-${day}-${i}`;
      const decision = await call(
        'POST',
        `/v2/${demo.envId}/campaigns?sendContextEvent=false`,
        { visitorId: vid, context: {} },
        { 'x-api-key': demo.apiKey },
      );
      const campaign = (
        decision.campaigns as Array<{
          id: string;
          variationGroupId: string;
          variation: { id: string; name: string };
        }>
      ).find((c) => c.id === 'demo-checkout-button');
      if (campaign === undefined) continue;
      activations.push({ vid, caid: campaign.variationGroupId, vaid: campaign.variation.id, qt: 0 });
      const rate = campaign.variation.name === 'Green' ? 0.16 : 0.11;
      if (chance(`${vid} cart`) < rate) {
        hits.push({ t: 'EVENT', vid, ec: 'Action Tracking', ea: 'add_to_cart', qt: 0 });
        if (chance(`${vid} buy`) < 0.6)
          hits.push({
            t: 'TRANSACTION',
            vid,
            tid: `order-${vid}`,
            ta: 'checkout',
            tr: 20 + Math.round(chance(vid) * 80),
            tc: 'EUR',
            qt: 0,
          });
      }
    }
    await call('POST', '/v2/activate', { cid: demo.envId, batch: activations }, { 'x-api-key': demo.apiKey });
    if (hits.length > 0) await call('POST', '/events', { cid: demo.envId, ds: 'APP', t: 'BATCH', h: hits });
  }
  clock = realNow;
  // A headline test started today: one day of data, the same numbers in both variations (the daily chart draws
  // them as bars side by side).
  const headline = await call(
    'POST',
    `/admin/v1/environments/${demo.envId}/campaigns`,
    {
      name: 'Headline test',
      type: 'ab',
      slug: 'headline-test',
      variation_groups: [
        {
          name: 'Everyone',
          targeting: {
            targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: true }] }],
          },
          variations: [
            {
              name: 'Original',
              reference: true,
              allocation: 50,
              modifications: { type: 'FLAG', value: { headline: 'Fresh picks' } },
            },
            {
              name: 'Half price',
              reference: false,
              allocation: 50,
              modifications: { type: 'FLAG', value: { headline: 'Fresh picks, half price' } },
            },
          ],
        },
      ],
    },
    operator,
  );
  const headlineGroup = (
    headline.variation_groups as Array<{ id: string; variations: Array<{ id: string }> }>
  )[0];
  if (headlineGroup === undefined) throw new Error('the headline test has no variation group');
  const oneDay: unknown[] = [];
  const oneDayHits: unknown[] = [];
  for (const [arm, variation] of headlineGroup.variations.entries())
    for (let i = 0; i < 40; i++) {
      const vid = `headline-${arm}-${i}`;
      oneDay.push({ vid, caid: headlineGroup.id, vaid: variation.id, qt: 0 });
      if (i < 6) oneDayHits.push({ t: 'EVENT', vid, ec: 'Action Tracking', ea: 'add_to_cart', qt: 0 });
    }
  await call('POST', '/v2/activate', { cid: demo.envId, batch: oneDay }, { 'x-api-key': demo.apiKey });
  await call('POST', '/events', { cid: demo.envId, ds: 'APP', t: 'BATCH', h: oneDayHits });
  // Two accesses: a deploy job's, and an old dashboard's, revoked.
  for (const [name, actions] of [
    ['old-dashboard', ['campaign.list', 'report.read']],
    ['ci-deploy', ['campaign.list', 'campaign.toggle', 'environment.panic']],
  ] as const) {
    const access = await call(
      'POST',
      `/admin/v1/accounts/${demo.accountId}/accesses`,
      { name, actions: [...actions] },
      operator,
    );
    if (name === 'old-dashboard')
      await call('POST', `/admin/v1/accesses/${String(access.id)}/revoke`, undefined, operator);
  }

  // A webhook whose receiver took the first event and refused the second: its delivery log shows both.
  let received = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      if (received === 1) response.writeHead(200).end('ok');
      else response.writeHead(503).end('busy, try again later');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await call(
    'POST',
    `/admin/v1/environments/${demo.envId}/webhooks`,
    {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/feature-hooks`,
      events: ['campaign.state_changed', 'environment.panic_changed'],
    },
    operator,
  );
  for (const panic of [true, false])
    await call('PATCH', `/admin/v1/environments/${demo.envId}`, { panic }, operator);
  const deliverer = startWebhookDeliverer(store, {
    log: { info: () => undefined, warn: () => undefined },
    retryDelayMs: () => 3_600_000,
  });
  // Bounded: two passes send both events (one each, in order), a few more leave room for a slow first one.
  for (let pass = 0; pass < 10 && received < 2; pass++) await deliverer.run();
  await deliverer.stop();
  receiver.close();

  // Two people: Ada accepts her invitation (a password, a name: she signs in) and renames the headline test
  // with her session, so the audit log and the test's History name a person; Grace's invitation is pending.
  const invited = await call(
    'POST',
    `/admin/v1/accounts/${demo.accountId}/users`,
    { email: 'ada@example.com', role: 'admin' },
    operator,
  );
  const inviteToken = (invited.link as { path: string }).path.replace(/^.*#invite=/, '');
  const accepted = await fetch(`${url}/admin/session/invitation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token: inviteToken,
      password: 'correct horse battery staple',
      name: 'Ada Lovelace',
    }),
  });
  if (!accepted.ok) throw new Error(`invitation: ${accepted.status} ${await accepted.text()}`);
  const adaSession = {
    cookie: /^(feature_console=[^;]+)/.exec(accepted.headers.get('set-cookie') ?? '')?.[1] ?? '',
    'x-csrf-token': ((await accepted.json()) as { csrf_token: string }).csrf_token,
  };
  await call(
    'PATCH',
    `/admin/v1/environments/${demo.envId}/campaigns/${String(headline.id)}`,
    { name: 'Headline: half price', description: 'Does saying "half price" in the headline sell more?' },
    adaSession,
  );
  await call(
    'POST',
    `/admin/v1/accounts/${demo.accountId}/users`,
    { email: 'grace@example.com', role: 'editor' },
    operator,
  );

  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}/admin`);
    await page.getByRole('textbox', { name: 'Operator key' }).fill(KEY);
    await page.getByRole('button', { name: 'Sign in with the key' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const shoot = async (hash: string, name: string, ready: () => Promise<void>, fullPage = true) => {
      await page.evaluate((h) => (location.hash = h), hash);
      await ready();
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(out, `console-${name}.png`), fullPage });
      console.log(`console-screenshots: ${join(out, `console-${name}.png`)}`);
    };
    await shoot('#/campaigns', 'campaigns', () => page.getByText('Checkout button').first().waitFor(), false);
    await shoot('#/campaigns/demo-checkout-button', 'campaign-editor', () =>
      page.getByLabel('Campaign name').waitFor(),
    );
    // The flags grid with a third variation and a long headline, then the warning a save gives when that
    // variation leaves flags out. Nothing is saved: the next screen drops the draft.
    const group = page.getByTestId('group-0');
    await group.getByRole('button', { name: 'Add variation' }).click();
    await group.getByRole('button', { name: 'Add flag' }).click();
    await page.getByLabel('Key of flag 3').fill('headline');
    await page
      .getByLabel('headline in Original', { exact: true })
      .fill('Everything you need for the weekend, delivered tomorrow');
    await page
      .getByLabel('headline in Green', { exact: true })
      .fill('Free delivery tomorrow on every order over 50 €, and free returns for 60 days');
    await page.getByLabel('Not set (default): btnColor in Original').check();
    await page.getByTestId('flags-0').scrollIntoViewIfNeeded();
    await page.waitForTimeout(200);
    await page.getByTestId('flags-0').screenshot({ path: join(out, 'console-flags-grid.png') });
    console.log(`console-screenshots: ${join(out, 'console-flags-grid.png')}`);
    await page.getByRole('button', { name: 'Save campaign' }).click();
    await page.locator('#missing-flags').waitFor();
    await page.waitForTimeout(200);
    await page.locator('.form-actions').screenshot({ path: join(out, 'console-missing-flags.png') });
    console.log(`console-screenshots: ${join(out, 'console-missing-flags.png')}`);
    await shoot('#/campaigns/demo-checkout-button/report', 'report', () =>
      page
        .getByRole('table', { name: /^Results for/ })
        .first()
        .waitFor(),
    );
    await shoot('#/live', 'live-traffic', () => page.getByTestId('traffic-row').first().waitFor(), false);
    await shoot('#/settings/remote-control', 'remote-control', () =>
      page.getByText('old-dashboard').first().waitFor(),
    );
    await shoot('#/settings/webhooks', 'webhooks', async () => {
      await page
        .getByRole('button', { name: /^Deliveries/ })
        .first()
        .click();
      await page.getByText('busy, try again later').waitFor();
    });
    await shoot('#/settings/users', 'users', () => page.getByText('grace@example.com').first().waitFor());
    await shoot('#/settings/audit', 'audit-log', async () => {
      await page.getByText('By ada@example.com').first().waitFor();
      await page.locator('summary').first().click();
    });
    await shoot(`#/campaigns/${String(headline.id)}/history`, 'history', () =>
      page
        .getByRole('button', { name: /^Restore this version/ })
        .first()
        .waitFor(),
    );
    await page.evaluate(() => (location.hash = '#/settings/api-key'));
    await page.getByLabel('Environment name').fill('staging');
    await page.getByRole('button', { name: 'Create environment' }).click();
    await shoot('#/settings/api-key', 'api-key', () => page.getByTestId('api-key').waitFor(), false);
    // Creating staging chose it: back to the demo environment, whose campaign the report shows.
    await page.getByRole('combobox', { name: 'Environment', exact: true }).selectOption(demo.envId);
    // One day of data: the daily chart alone.
    await page.evaluate((id) => (location.hash = `#/campaigns/${id}/report`), String(headline.id));
    await page.locator('days-chart').first().waitFor();
    await page.waitForTimeout(400);
    await page
      .locator('days-chart')
      .first()
      .screenshot({ path: join(out, 'console-report-single-day.png') });
    console.log(`console-screenshots: ${join(out, 'console-report-single-day.png')}`);
    // Phone width: each campaign and each variation a card.
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot('#/campaigns/demo-checkout-button/report', 'report-phone', () =>
      page
        .getByRole('table', { name: /^Results for/ })
        .first()
        .waitFor(),
    );
    await shoot('#/campaigns', 'campaigns-phone', async () => {
      // Paused from the list: the notice under its state, with Undo.
      await page.getByLabel('State of Checkout button').selectOption('paused');
      await page.getByRole('button', { name: 'Undo: make Checkout button active again' }).waitFor();
    });
  } finally {
    await browser.close();
  }
} finally {
  await app.close();
  await store.close();
  rmSync(work, { recursive: true, force: true });
}
