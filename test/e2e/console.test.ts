// The console as an operator meets it, in Debian's Chromium under the server's own CSP: sign in, make an
// environment and copy its key, build an A/B test with a targeting rule and two variations, see a plain page
// with the three tags render it, click there, watch the open report count the visit and the conversion, pause
// the campaign and see the page fall back, give a job an access and revoke it from the panel, send the panic
// switches to a webhook and send one of them again from its delivery log, watch the live
// traffic, sign out and see every console route refuse the old session. axe checks every screen, at desktop and
// at phone width. With CONSOLE_SCREENSHOTS=folder, each screen is saved there as a PNG.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import type { Store } from '../../server/src/store/store.js';
import { startWebhookDeliverer } from '../../server/src/webhooks/webhook-deliverer.js';
import { startApp, type Running } from '../server/support.js';
import { axeViolations } from '../support/axe.js';
import { launchChromium } from '../support/chromium.js';
import { consoleCalls } from '../support/console-calls.js';
import { buildConsole } from '../support/console-build.js';
import { buildSdkBundles } from '../support/sdk-build.js';
import { until } from '../support/until.js';

const run = promisify(execFile);

const KEY = 'operator-key-for-the-console-e2e-test-0123';
const SHOTS = process.env.CONSOLE_SCREENSHOTS;

const work = mkdtempSync(join(tmpdir(), 'feature-console-e2e-'));
let sdkDir = '';
let consoleDir = '';
let store: Store;
let server: Running;
let browser: Browser | undefined;

before(async () => {
  sdkDir = buildSdkBundles();
  consoleDir = buildConsole();
  store = await openFreshPgliteStore();
  // The webhook receiver below is on this machine, which webhooks reach only when allowed.
  server = await startApp(store, {
    operatorKeys: [KEY],
    webhookPrivateNetworks: true,
    static: { demoDir: work, sdkDir, consoleDir },
  });
  browser = await launchChromium();
  if (SHOTS !== undefined) mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server.close();
  await store.close();
  for (const dir of [work, sdkDir, consoleDir]) rmSync(dir, { recursive: true, force: true });
});

/** A console tab that records CSP violations and page errors (both must stay empty). */
const consoleTab = async (context: BrowserContext): Promise<{ page: Page; problems: string[] }> => {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A 401 is how the console learns it is signed out (the first session check, after sign-out): the browser
    // logs it as a failed load. Anything else logged as an error is a problem.
    if (message.type() === 'error' && !/Failed to load resource: .* 401 /.test(message.text()))
      problems.push(`console error: ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { page, problems };
};

/** axe finds nothing on the screen, and nothing is wider than the window (no sideways scrolling). */
const checkScreen = async (page: Page, name: string): Promise<void> => {
  assert.deepEqual(await axeViolations(page), [], `axe on ${name}`);
  // Charts redraw at the window's width once it changed: give the page a moment to settle.
  const measure = () =>
    page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  // Polled until it holds (2 s at most); the assertion then names the widths last measured.
  let last = await measure();
  await until(
    async () => {
      last = await measure();
      return last.scroll <= last.width;
    },
    { what: `${name} no wider than its window`, timeoutMs: 2_000, intervalMs: 100 },
  ).catch(() => undefined);
  const { scroll, width } = last;
  assert.ok(scroll <= width, `${name}: the page is ${scroll} px wide in a ${width} px window`);
  if (SHOTS !== undefined)
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
};

/** A plain page with the three tags, for a visitor in France (the campaign's targeting). */
const writeShop = (envId: string, apiKey: string, visitorId: string): string => {
  const file = join(work, `${visitorId}.html`);
  writeFileSync(
    file,
    `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Shop</title>
    <script type="module" src="${server.url}/sdk/elements.js"></script></head>
  <body>
    <feature-provider env-id="${envId}" api-key="${apiKey}" visitor-id="${visitorId}" context='{"country":"FR"}' consent>
      <p id="label"><feature-flag key="btnText" default="Standard" exposure-delay="300"></feature-flag></p>
      <feature-hit type="event" action="add_to_cart"><button id="buy">Buy</button></feature-hit>
    </feature-provider>
  </body>
</html>`,
  );
  return pathToFileURL(file).href;
};

/**
 * A variation's visits and conversions in the open report's first table, read by column name (the
 * conversion columns appear once the campaign has a goal: before, no conversion).
 */
const reportRow = async (
  page: Page,
  variation: string,
): Promise<{ visits: number; conversions: number } | null> => {
  const table = page.getByRole('table', { name: /^Results for/ }).first();
  const headers = (await table.getByRole('columnheader').allTextContents()).map((text) => text.trim());
  const row = table.getByRole('row').filter({ hasText: variation });
  if ((await row.count()) !== 1) return null;
  // The variation's name is the row header; the other columns are cells.
  const cells = await row.getByRole('cell').allTextContents();
  const column = (name: string): number | null => {
    const index = headers.indexOf(name);
    const text = index < 1 ? undefined : cells[index - 1];
    return text === undefined ? null : Number(text.replace(/[^\d.]/g, ''));
  };
  const visits = column('Visits');
  return visits === null ? null : { visits, conversions: column('Conversions') ?? 0 };
};

/** Goes to a console screen by its hash, as a link would. */
const open = async (page: Page, hash: string, heading: RegExp): Promise<void> => {
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
};

void test('an operator runs an A/B test from the console, from sign-in to sign-out', async () => {
  const context = await (browser ?? assert.fail('Chromium did not start')).newContext({
    viewport: { width: 1280, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const { page, problems } = await consoleTab(context);
  const screens: Array<[string, RegExp]> = [];

  // Sign in with the operator key; a new server has no account, so the console starts there.
  await page.goto(`${server.url}/admin`);
  await page.getByRole('textbox', { name: 'Operator key' }).fill(KEY);
  await checkScreen(page, 'sign-in');
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
  await page.getByLabel('Account name').fill('Shop');
  await page.getByRole('button', { name: 'Create account' }).click();
  const accountId = ((await page.getByTestId('account-id').textContent()) ?? '').trim();
  assert.match(accountId, /^[a-z0-9]{20}$/);
  await checkScreen(page, 'account');
  screens.push(['#/settings/account', /^Account/]);

  // An environment, its key shown once and copied.
  await open(page, '#/settings/api-key', /^API Key & Settings/);
  await page.getByLabel('Environment name').fill('production');
  await page.getByRole('button', { name: 'Create environment' }).click();
  const apiKey = ((await page.getByTestId('api-key').textContent()) ?? '').trim();
  assert.match(apiKey, /^fk_/);
  await page.getByRole('button', { name: 'Copy API key' }).click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), apiKey);
  const envId = ((await page.getByTestId('env-id').first().textContent()) ?? '').trim();
  await checkScreen(page, 'api-key-shown');
  await page.getByRole('button', { name: 'Done, I have stored it' }).click();
  assert.equal(await page.getByTestId('api-key').count(), 0, 'the key is gone once dismissed');
  assert.ok(!(await page.content()).includes(apiKey));
  screens.push(['#/settings/api-key', /^API Key & Settings/]);

  // An A/B test: visitors in France, the original and a green button sharing them.
  await open(page, '#/campaigns', /^Campaigns/);
  await checkScreen(page, 'campaigns-empty');
  await page.getByRole('link', { name: 'New campaign' }).first().click();
  await page.getByLabel('Campaign name').fill('Buy button');
  const rule = page.getByTestId('targeting-0-0-0');
  await rule.getByLabel('Targeting key').fill('country');
  await rule.getByLabel('Operator').selectOption('EQUALS');
  await rule.getByLabel('Value', { exact: true }).fill('FR');
  // The flag once, as a row of the grid; then its value in each variation's column.
  await page.getByTestId('flags-0').getByRole('button', { name: 'Add flag' }).click();
  await page.getByLabel('Key of flag 1').fill('btnText');
  await page.getByLabel('Type of flag 1').selectOption('string');
  for (const [index, name, text] of [
    [0, 'Original', 'Add to cart'],
    [1, 'Green', 'Buy now'],
  ] as const) {
    await page.getByTestId(`variation-0-${index}`).getByLabel('Variation name').fill(name);
    await page.getByLabel(`btnText in ${name}`, { exact: true }).fill(text);
  }
  await checkScreen(page, 'campaign-editor');
  await page.getByRole('button', { name: 'Save campaign' }).click();
  await page.waitForURL(/#\/campaigns\/(?!new$)[A-Za-z0-9_-]+$/);
  const campaignId = decodeURIComponent(page.url().split('/').pop() ?? '');
  screens.push([`#/campaigns/${campaignId}`, /^Edit Buy button/]);

  // What the server decides for the page's visitor (the expectation comes from the decision API).
  const visitorId = 'console-e2e-visitor';
  const decided = (await (
    await fetch(`${server.url}/v2/${envId}/campaigns?sendContextEvent=false`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ visitorId, context: { country: 'FR' } }),
    })
  ).json()) as {
    campaigns: Array<{
      id: string;
      variation: { name: string; modifications: { value: { btnText: string } } };
    }>;
  };
  const variation = decided.campaigns.find((c) => c.id === campaignId)?.variation;
  assert.ok(variation, 'the saved campaign decides at once');
  const other = variation.name === 'Green' ? 'Original' : 'Green';

  // The report, open while the visitor arrives: it refreshes by itself.
  await open(page, `#/campaigns/${campaignId}/report`, /^Report: Buy button/);
  const shop = await context.newPage();
  const shopErrors: string[] = [];
  shop.on('pageerror', (error) => shopErrors.push(error.message));
  const shopUrl = writeShop(envId, apiKey, visitorId);
  await shop.goto(shopUrl);
  await shop.waitForFunction(
    (text) => document.querySelector('#label feature-flag')?.textContent.trim() === text,
    variation.modifications.value.btnText,
    { timeout: 10_000 },
  );
  const visited = await until(
    async () => {
      const row = await reportRow(page, variation.name);
      return row !== null && row.visits === 1 ? row : null;
    },
    { what: 'the visit in the open report', timeoutMs: 20_000, intervalMs: 250 },
  );
  assert.equal(visited.conversions, 0);
  await shop.click('#buy');
  const converted = await until(
    async () => {
      const row = await reportRow(page, variation.name);
      return row !== null && row.conversions === 1 ? row : null;
    },
    { what: 'the conversion in the open report', timeoutMs: 20_000, intervalMs: 250 },
  );
  assert.equal(converted.visits, 1, 'the click is no second visit');
  assert.deepEqual(await reportRow(page, other), { visits: 0, conversions: 0 });
  await checkScreen(page, 'report');
  screens.push([`#/campaigns/${campaignId}/report`, /^Report: Buy button/]);

  // Paused from the list: the page falls back to its default at the next decision. Undo beside the row makes it
  // active again on the server; paused once more, it stays so.
  await open(page, '#/campaigns', /^Campaigns/);
  const decisionCount = async (): Promise<number> => {
    const answer = await fetch(`${server.url}/v2/${envId}/campaigns?sendContextEvent=false`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ visitorId, context: { country: 'FR' } }),
    });
    return ((await answer.json()) as { campaigns: unknown[] }).campaigns.length;
  };
  const undo = page.getByRole('button', { name: 'Undo: make Buy button active again' });
  const paused = () =>
    until(async () => ((await decisionCount()) === 0 ? true : null), {
      what: 'the paused campaign out of decisions',
      timeoutMs: 20_000,
      intervalMs: 250,
    });
  await page.getByLabel('State of Buy button').selectOption('paused');
  // The pointer on the notice stops its 8 s, however long the server takes below.
  await undo.hover();
  await paused();
  await undo.click();
  await until(async () => ((await decisionCount()) === 1 ? true : null), {
    what: 'the campaign back in decisions after Undo',
    timeoutMs: 20_000,
    intervalMs: 250,
  });
  // The row shows it once the toggle's answer is in (the server may be quicker to serve it than the page to say so).
  await until(async () => (await page.getByLabel('State of Buy button').inputValue()) === 'active', {
    what: 'the row showing Active after Undo',
    timeoutMs: 10_000,
  });
  await page.getByLabel('State of Buy button').selectOption('paused');
  await paused();
  await checkScreen(page, 'campaigns');
  screens.push(['#/campaigns', /^Campaigns/]);
  await shop.reload();
  await shop.waitForFunction(
    () => document.querySelector('#label feature-flag')?.textContent.trim() === 'Standard',
    null,
    {
      timeout: 10_000,
    },
  );
  assert.deepEqual(shopErrors, []);

  // An access for a job: its secret gets a token, which stops working once the access is revoked in the panel.
  await open(page, '#/settings/remote-control', /^Remote Control API/);
  await page.getByLabel('Access name').fill('ci-bot');
  await page.getByLabel(/campaign\.list/).check();
  await page.getByRole('button', { name: 'Generate' }).click();
  const clientId = ((await page.getByTestId('client-id').textContent()) ?? '').trim();
  const clientSecret = ((await page.getByTestId('client-secret').textContent()) ?? '').trim();
  await checkScreen(page, 'remote-control-secret');
  // The token, got as the panel says: its curl command, run as shown, against this server.
  const command = ((await page.getByTestId('token-curl').textContent()) ?? '').trim();
  assert.ok(command.startsWith(`curl '${server.url}/oauth/${accountId}/token'`), command);
  assert.ok(command.includes(clientId) && command.includes(clientSecret), 'the curl carries the credentials');
  const { stdout } = await run('sh', ['-c', `${command} --silent --show-error`], { timeout: 10_000 });
  const { access_token: token } = JSON.parse(stdout) as { access_token: string };
  assert.match(token, /^fft_/);
  const remoteList = () =>
    fetch(`${server.url}/v1/accounts/${accountId}/account_environments/${envId}/campaigns`, {
      headers: { authorization: `Bearer ${token}` },
    });
  assert.equal((await remoteList()).status, 200);
  await page.getByRole('button', { name: 'Done', exact: true }).click();
  assert.equal(await page.getByTestId('client-secret').count(), 0, 'the secret is gone once dismissed');
  await page.getByRole('button', { name: 'Revoke ci-bot' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke the access' }).click();
  await page
    .getByRole('row', { name: /ci-bot/ })
    .getByText(/Revoked/)
    .waitFor();
  const refused = await remoteList();
  assert.equal(refused.status, 401, "the revoked access's token is refused");
  await checkScreen(page, 'remote-control');
  screens.push(['#/settings/remote-control', /^Remote Control API/]);

  // A webhook to a receiver on this machine: its secret is shown once, the panic switches reach it, the log shows
  // the receiver's answer, and Send again posts the newest delivery once more, with the same delivery id.
  const received: string[] = [];
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(String(request.headers['feature-webhook-id']));
      response.end('got it');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const deliverer = startWebhookDeliverer(store, {
    log: { info: () => undefined, warn: () => undefined },
    pollMs: 100,
    privateNetworks: true,
  });
  try {
    await open(page, '#/settings/webhooks', /^Webhooks/);
    await page.getByLabel('URL', { exact: true }).fill(receiverUrl);
    await page.getByLabel('environment.panic_changed').check();
    await page.getByRole('button', { name: 'Create the webhook' }).click();
    assert.match(((await page.getByTestId('webhook-secret').textContent()) ?? '').trim(), /^whsec_/);
    await checkScreen(page, 'webhooks-secret');
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    assert.equal(await page.getByTestId('webhook-secret').count(), 0, 'the secret is gone once dismissed');
    for (const panic of [true, false]) {
      const changed = await fetch(`${server.url}/admin/v1/environments/${envId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ panic }),
      });
      assert.equal(changed.status, 200);
    }
    await until(() => received.length >= 2, {
      what: 'the two panic events',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    await page.getByRole('button', { name: `Deliveries to ${receiverUrl}` }).click();
    await page.getByText('got it').first().waitFor();
    assert.equal(
      await page.getByRole('button', { name: /^Send again environment\.panic_changed/ }).count(),
      2,
    );
    await page
      .getByRole('button', { name: /^Send again/ })
      .first()
      .click();
    await until(() => received.length >= 3, {
      what: 'the delivery sent again',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    assert.equal(received[2], received[1], 'the newest delivery, sent again under its own id');
    await checkScreen(page, 'webhooks');
    screens.push(['#/settings/webhooks', /^Webhooks/]);
  } finally {
    await deliverer.stop();
    await new Promise((resolve) => receiver.close(resolve));
  }

  // Live traffic: the page's exposure and click, filtered to the visitor.
  await open(page, '#/live', /^Live traffic/);
  await page.getByLabel('Visitor id').fill(visitorId);
  await page.getByRole('button', { name: 'Apply filter' }).click();
  await until(async () => ((await page.getByTestId('traffic-row').count()) >= 2 ? true : null), {
    what: 'live rows',
    timeoutMs: 20_000,
    intervalMs: 250,
  });
  for (const text of await page.getByTestId('traffic-row').allTextContents())
    assert.match(text, new RegExp(visitorId));
  await checkScreen(page, 'live');
  screens.push(['#/live', /^Live traffic/]);

  // Every screen again at phone width.
  await page.setViewportSize({ width: 360, height: 780 });
  for (const [hash, heading] of screens) {
    await open(page, hash, heading);
    await checkScreen(page, hash.replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '') || 'home');
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Sign out: the sign-in form comes back, and the old session cookie opens no console route.
  const cookie = (await context.cookies(`${server.url}/admin`)).find((c) => c.name === 'feature_console');
  assert.ok(cookie, 'the session cookie');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Strict');
  assert.equal(await page.evaluate(() => document.cookie), '', 'scripts cannot read the session');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('textbox', { name: 'Operator key' }).waitFor();
  let refusedCalls = 0;
  for (const [method, path] of await consoleCalls(server.url, { accountId, envId, campaignId })) {
    const withBody = method !== 'GET' && method !== 'DELETE';
    const answer: Response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        cookie: `feature_console=${cookie.value}`,
        ...(withBody ? { 'content-type': 'application/json' } : {}),
      },
      ...(withBody ? { body: '{}' } : {}),
    });
    assert.equal(answer.status, 401, `${method} ${path} after sign-out`);
    refusedCalls++;
  }
  assert.ok(refusedCalls >= 25, `${refusedCalls} console calls refused`);
  assert.deepEqual(problems, [], 'no page error and no CSP violation in the console');
  await context.close();
});

void test('a one-time sign-in link signs in once, and leaves the address bar', async () => {
  const context = await (browser ?? assert.fail('Chromium did not start')).newContext();
  const { page, problems } = await consoleTab(context);
  const made = await fetch(`${server.url}/admin/v1/console/sign-in-links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}` },
  });
  const { path } = (await made.json()) as { path: string };
  await page.goto(`${server.url}${path}`);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.doesNotMatch(page.url(), /sign-in=/);
  const second = await context.browser()?.newContext();
  assert.ok(second);
  const again = await second.newPage();
  await again.goto(`${server.url}${path}`);
  await again.getByText(/already used or has expired/).waitFor();
  await again.getByRole('textbox', { name: 'Operator key' }).waitFor();
  await second.close();
  assert.deepEqual(problems, []);
  await context.close();
});
