// Issue 36's team screens as people meet them, in Debian's Chromium under the server's CSP, on a real server:
// the operator key invites an editor from Team › Users and copies the one-time link; the editor opens it in
// another browser, chooses a password, is signed in and offered no Users nor Audit log (and the server refuses
// them the user routes), renames the campaign, and restores its previous version from its History; the
// operator key then reads both changes in the Audit log, by person, and its Export link downloads them with
// the session cookie. axe checks each screen.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import type { Store } from '../../server/src/store/store.js';
import { checkoutCampaign, seedEnvironment, startApp, type Running } from '../server/support.js';
import { axeViolations } from '../support/axe.js';
import { launchChromium } from '../support/chromium.js';
import { buildConsole } from '../support/console-build.js';

const KEY = 'operator-key-for-the-team-screens-e2e-0123456';

let consoleDir = '';
let store: Store;
let server: Running;
let browser: Browser | undefined;
let accountId = '';
let envId = '';

before(async () => {
  consoleDir = buildConsole();
  store = await openFreshPgliteStore();
  ({ accountId, envId } = await seedEnvironment(store, [checkoutCampaign()]));
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

/** A new browser on `hash` of the console, its page errors collected. */
const opened = async (hash: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> => {
  const context = await (browser ?? assert.fail('Chromium did not start')).newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A 401 is how a console opened before signing in learns it has no session: the browser logs it.
    if (message.type() === 'error' && !/Failed to load resource: .* 401 /.test(message.text()))
      problems.push(`console error: ${message.text()}`);
  });
  await page.goto(`${server.url}/admin${hash}`);
  return { context, page, problems };
};

const cookieOf = async (context: BrowserContext): Promise<string> => {
  const cookie = (await context.cookies(`${server.url}/admin`)).find((c) => c.name === 'feature_console');
  return `feature_console=${cookie?.value ?? assert.fail('no session cookie')}`;
};

void test('an invited editor edits and restores a campaign; the admin reads and exports it in the Audit log', async () => {
  // The operator key invites an editor.
  const operator = await opened('#/settings/users');
  await operator.page.getByRole('textbox', { name: 'Operator key' }).fill(KEY);
  await operator.page.getByRole('button', { name: 'Sign in with the key' }).click();
  await operator.page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  await operator.page.getByText("No one yet: invite the account's first admin above.").waitFor();
  await operator.page.getByLabel('Email').fill('ed@example.com');
  await operator.page.getByLabel('Role', { exact: true }).selectOption('editor');
  await operator.page.getByRole('button', { name: 'Invite', exact: true }).click();
  const link = (await operator.page.getByTestId('invitation-link').textContent()) ?? '';
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/admin\/#invite=/);
  await operator.page.getByRole('row', { name: /ed@example\.com/ }).waitFor();
  assert.deepEqual(await axeViolations(operator.page), [], 'axe on Users with the link shown');
  await operator.page.getByRole('button', { name: 'Done' }).click();

  // The editor opens the link, chooses a password, and is signed in: no Users nor Audit log for them.
  const editor = await opened(link.replace(/^.*\/admin/, ''));
  await editor.page.getByLabel('Your name').fill('Ed');
  await editor.page.getByLabel('Password', { exact: true }).fill('a long enough password');
  await editor.page.getByRole('button', { name: 'Set my password and sign in' }).click();
  await editor.page.getByRole('button', { name: 'Sign out' }).waitFor();
  const menu = editor.page.getByRole('navigation', { name: 'Console' });
  await menu.getByRole('link', { name: 'Campaigns' }).waitFor();
  assert.equal(await menu.getByRole('link', { name: /Users|Audit log/ }).count(), 0);
  const refused = await fetch(`${server.url}/admin/v1/accounts/${accountId}/users`, {
    headers: { cookie: await cookieOf(editor.context) },
  });
  assert.equal(refused.status, 403, 'the server refuses what the console does not offer');

  // The editor renames the campaign, then restores the version before it from its History.
  await editor.page.evaluate(() => (location.hash = '#/campaigns/c1'));
  await editor.page.getByLabel('Campaign name').fill('Checkout, renamed');
  await editor.page.getByRole('button', { name: 'Save campaign' }).click();
  await editor.page.getByText(/Saved/).first().waitFor();
  await editor.page.getByRole('link', { name: 'History' }).click();
  await editor.page.getByRole('heading', { level: 1, name: 'History: Checkout, renamed' }).waitFor();
  await editor.page.getByText('"Checkout" → "Checkout, renamed"').waitFor();
  assert.deepEqual(await axeViolations(editor.page), [], 'axe on a History');
  // Newest first: the second entry is the one before the rename.
  await editor.page
    .getByRole('button', { name: /^Restore this version/ })
    .nth(1)
    .click();
  const dialog = editor.page.getByRole('dialog');
  await dialog.getByText(/^Restore the version of .* by /).waitFor();
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await editor.page
    .getByTestId('created-note')
    .getByText(/^Restored the version of /)
    .waitFor();
  assert.equal(await editor.page.getByLabel('Campaign name').inputValue(), 'Checkout');
  assert.equal((await store.getCampaign(envId, 'c1'))?.body.name, 'Checkout');

  // The operator key reads both changes in the Audit log, by person, and exports them.
  await operator.page.evaluate(() => (location.hash = '#/settings/audit'));
  await operator.page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
  await operator.page.getByText('campaign.restored').first().waitFor();
  await operator.page.getByLabel('Person').selectOption({ label: 'ed@example.com' });
  await operator.page.getByRole('button', { name: 'Apply filters' }).click();
  await operator.page.getByText('campaign.updated').first().waitFor();
  const actions = await operator.page.locator('article.entry h3 code').allTextContents();
  // Newest first: accepting the invitation was the editor's own first change.
  assert.deepEqual(actions, ['campaign.restored', 'campaign.updated', 'user.invitation_accepted']);
  assert.deepEqual(await axeViolations(operator.page), [], 'axe on the Audit log');
  const [download] = await Promise.all([
    operator.page.waitForEvent('download'),
    operator.page.getByRole('link', { name: 'Export (JSON lines)' }).click(),
  ]);
  const lines = (await (await download.createReadStream()).toArray()).join('').trimEnd().split('\n');
  assert.deepEqual(
    lines.map((line) => (JSON.parse(line) as { action: string }).action),
    ['user.invitation_accepted', 'campaign.updated', 'campaign.restored'],
  );

  assert.deepEqual([...operator.problems, ...editor.problems], []);
  await operator.context.close();
  await editor.context.close();
});
