// "End all sessions" in the console (issue #29, finding 3), in Debian's Chromium under the server's CSP: two
// browsers signed in, one ends every session from Settings › Account after confirming; it is signed out at
// once with a message saying why, the other is signed out at its next call, and neither cookie opens anything.
// Cancelling the confirmation ends nothing. axe checks the screen with the card.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import type { Store } from '../../server/src/store/store.js';
import { startApp, type Running } from '../server/support.js';
import { axeViolations } from '../support/axe.js';
import { launchChromium } from '../support/chromium.js';
import { buildConsole } from '../support/console-build.js';

const KEY = 'operator-key-for-the-end-sessions-e2e-0123456';

let consoleDir = '';
let store: Store;
let server: Running;
let browser: Browser | undefined;

before(async () => {
  consoleDir = buildConsole();
  store = await openFreshPgliteStore();
  await store.createAccount('Shop');
  server = await startApp(store, {
    operatorKeys: [KEY],
    static: { demoDir: consoleDir, sdkDir: consoleDir, consoleDir },
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server.close();
  await store.close();
  rmSync(consoleDir, { recursive: true, force: true });
});

/** A browser signed in to the console with the key, on Settings › Account; page errors are collected. */
const signedIn = async (): Promise<{ context: BrowserContext; page: Page; problems: string[] }> => {
  const context = await (browser ?? assert.fail('Chromium did not start')).newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A 401 is how a console learns its session is over: the browser logs it as a failed load.
    if (message.type() === 'error' && !/Failed to load resource: .* 401 /.test(message.text()))
      problems.push(`console error: ${message.text()}`);
  });
  await page.goto(`${server.url}/admin#/settings/account`);
  await page.getByRole('textbox', { name: 'Operator key' }).fill(KEY);
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
  await page.getByRole('heading', { level: 1, name: /^Account/ }).waitFor();
  return { context, page, problems };
};

const cookieOf = async (context: BrowserContext): Promise<string> => {
  const cookie = (await context.cookies(`${server.url}/admin`)).find((c) => c.name === 'feature_console');
  return `feature_console=${cookie?.value ?? assert.fail('no session cookie')}`;
};

const accountsWith = async (cookie: string): Promise<number> =>
  (await fetch(`${server.url}/admin/v1/accounts`, { headers: { cookie } })).status;

void test('End all sessions signs every browser out, this one at once, after asking', async () => {
  const one = await signedIn();
  const other = await signedIn();
  const cookies = [await cookieOf(one.context), await cookieOf(other.context)];
  for (const cookie of cookies) assert.equal(await accountsWith(cookie), 200);

  const card = one.page.getByRole('region', { name: 'Console sessions' });
  await card.waitFor();
  assert.deepEqual(await axeViolations(one.page), [], 'axe on Settings › Account with the sessions card');

  // Cancelled: nothing ends.
  await card.getByRole('button', { name: 'End all sessions' }).click();
  await one.page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  for (const cookie of cookies) assert.equal(await accountsWith(cookie), 200);

  await card.getByRole('button', { name: 'End all sessions' }).click();
  const dialog = one.page.getByRole('dialog');
  await dialog.getByText(/this one included/).waitFor();
  await dialog.getByRole('button', { name: 'End all sessions' }).click();
  await one.page.getByText('Every console session has ended, this one included: sign in again.').waitFor();
  await one.page.getByRole('textbox', { name: 'Operator key' }).waitFor();
  for (const cookie of cookies) assert.equal(await accountsWith(cookie), 401);

  // The other browser finds out at its next call.
  await other.page.evaluate(() => (location.hash = '#/settings/remote-control'));
  await other.page.getByRole('textbox', { name: 'Operator key' }).waitFor();
  await other.page.getByText('Your session has ended: sign in again.').waitFor();

  assert.deepEqual([...one.problems, ...other.problems], []);
  await one.context.close();
  await other.context.close();
});
