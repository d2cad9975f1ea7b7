// Single sign-on end to end (issue 36), in Debian's Chromium against the server (its console built, its CSP on)
// and a real OpenID provider: the sign-in screen offers "Sign in with Acme"; the provider's own login and
// consent pages are filled in; the browser lands in the console signed in as the person, with the role their
// group gives (the session says so, and the operator routes answer as that role); signing out ends it. Then the
// four refusals, each a page that says why and opens no session: a replayed callback, a wrong state, an ID token
// for another audience, and an expired one (the server's clock moved past its end). axe checks the sign-in
// screen with the button, at desktop width and at 390 px.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, beforeEach, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Store } from '../../server/src/store/store.js';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import { checkoutCampaign, seedEnvironment, startApp, type Running } from '../server/support.js';
import { axeViolations } from '../support/axe.js';
import { launchChromium } from '../support/chromium.js';
import { buildConsole } from '../support/console-build.js';
import { ID_TOKEN_TTL_S, startTestProvider, type TestProvider } from '../support/oidc-provider.js';

const KEY = 'operator-key-for-the-sso-e2e-0123456789abcdef';

let consoleDir = '';
let store: Store;
let server: Running;
let provider: TestProvider;
let browser: Browser | undefined;
let accountId = '';
let envId = '';
let clockOffsetMs = 0;

before(async () => {
  consoleDir = buildConsole();
  store = await openFreshPgliteStore();
  const seeded = await seedEnvironment(store, [checkoutCampaign()]);
  accountId = seeded.accountId;
  envId = seeded.envId;
  server = await startApp(store, {
    operatorKeys: [KEY],
    static: { demoDir: consoleDir, sdkDir: consoleDir, consoleDir },
    now: () => Date.now() + clockOffsetMs,
  });
  provider = await startTestProvider(`${server.url}/admin/sso/callback`, {
    alice: { email: 'alice@example.com', groups: ['marketing'] },
  });
  const saved = await fetch(`${server.url}/admin/v1/accounts/${accountId}/sso`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Acme',
      issuer: provider.issuer,
      client_id: provider.client.id,
      client_secret: provider.client.secret,
      group_roles: [
        { group: 'feature-admins', role: 'admin' },
        { group: 'marketing', role: 'editor' },
      ],
    }),
  });
  assert.equal(saved.status, 200, await saved.text());
  browser = await launchChromium();
});

beforeEach(() => {
  provider.reissueIdToken = null;
  clockOffsetMs = 0;
});

after(async () => {
  await browser?.close();
  await server.close();
  await provider.close();
  await store.close();
  rmSync(consoleDir, { recursive: true, force: true });
});

/** A new browser on the console's sign-in screen; page errors are collected. */
const onSignInScreen = async (): Promise<{ context: BrowserContext; page: Page; problems: string[] }> => {
  const context = await (browser ?? assert.fail('Chromium did not start')).newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // Only the console's own pages count (the provider's development pages load fonts from the Internet).
    // Signed out, the console's first session read answers 401, and the test's own admin call 403: the browser
    // logs them as failed loads.
    if (!message.location().url.startsWith(server.url)) return;
    if (message.type() === 'error' && !/Failed to load resource: .* (401|403) /.test(message.text()))
      problems.push(`console error: ${message.text()} at ${message.location().url}`);
  });
  await page.goto(`${server.url}/admin/`);
  await page.getByRole('link', { name: 'Sign in with Acme' }).waitFor();
  return { context, page, problems };
};

/** Types the login on the provider's own sign-in page and confirms its consent page. */
const signInAtProvider = async (page: Page, login: string): Promise<void> => {
  await page.waitForURL(`${provider.issuer}/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
};

/** What the session cookie of `context` opens: the session's answer (null when none). */
const sessionOf = async (page: Page): Promise<Record<string, unknown> | null> =>
  page.evaluate(async () => {
    const answer = await fetch('/admin/session');
    return answer.status === 200 ? ((await answer.json()) as Record<string, unknown>) : null;
  });

/** The status an operator route answers the page's session. */
const statusOf = async (page: Page, path: string): Promise<number> =>
  page.evaluate(async (url) => (await fetch(url)).status, path);

void test('signs in through the provider with the role of the group, and signs out', async () => {
  const { context, page, problems } = await onSignInScreen();
  assert.deepEqual(await axeViolations(page), [], 'axe on the sign-in screen with single sign-on');
  await page.setViewportSize({ width: 390, height: 844 });
  assert.deepEqual(await axeViolations(page), [], 'axe at 390 px');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the sign-in screen fits 390 px (${overflow} px over)`);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('link', { name: 'Sign in with Acme' }).click();
  await signInAtProvider(page, 'alice');
  await page.waitForURL(`${server.url}/admin/`);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();

  const session = await sessionOf(page);
  assert.deepEqual((session?.user as { email: string; accounts: unknown[] } | undefined)?.accounts, [
    { account_id: accountId, role: 'editor' },
  ]);
  assert.equal((session?.user as { email: string }).email, 'alice@example.com');
  // An editor reads campaigns, and is refused what needs an admin (the server decides, not the buttons).
  assert.equal(await statusOf(page, `/admin/v1/environments/${envId}/campaigns`), 200);
  assert.equal(await statusOf(page, `/admin/v1/accounts/${accountId}/sso`), 403);
  assert.equal(
    (await context.cookies(`${server.url}/admin/sso`)).some((c) => c.name === 'feature_sso'),
    false,
    'the sign-in cookie is gone',
  );

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('link', { name: 'Sign in with Acme' }).waitFor();
  assert.equal(await sessionOf(page), null, 'signed out: the session opens nothing');
  assert.deepEqual(problems, []);
  await context.close();
});

/** Opens the refusal page the browser lands on: its status and reason. */
const refusalAfter = async (
  page: Page,
  login: () => Promise<void>,
): Promise<{ status: number; reason: string }> => {
  const landed = page.waitForResponse((response) =>
    response.url().startsWith(`${server.url}/admin/sso/callback`),
  );
  await login();
  const answer = await landed;
  await page.getByRole('heading', { name: 'Single sign-on refused' }).waitFor();
  const reason = (await page.locator('[data-reason]').getAttribute('data-reason')) ?? '';
  return { status: answer.status(), reason };
};

/** Starts a sign-in from the sign-in screen and signs in at the provider's login page. */
const viaProvider = (page: Page) => async (): Promise<void> => {
  // The provider remembers a person who signed in there: forgotten, so its login page shows each time.
  await page.context().clearCookies();
  await page.goto(`${server.url}/admin/`);
  await page.getByRole('link', { name: 'Sign in with Acme' }).click();
  await signInAtProvider(page, 'alice');
};

void test('refuses a replayed callback, a wrong state, another audience and an expired ID token', async () => {
  const { context, page } = await onSignInScreen();

  // Replayed: the callback signs in once; the same URL again is refused, and opens nothing more.
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(`${server.url}/admin/sso/callback`)) seen.push(request.url());
  });
  await viaProvider(page)();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('link', { name: 'Sign in with Acme' }).waitFor();
  const first = seen[0] ?? assert.fail('no callback seen');
  const replayed = await page.goto(first);
  await page.getByRole('heading', { name: 'Single sign-on refused' }).waitFor();
  assert.equal(replayed?.status(), 400);
  assert.equal(await page.locator('[data-reason]').getAttribute('data-reason'), 'not_started');
  assert.equal(await sessionOf(page), null);
  assert.deepEqual(await axeViolations(page), [], 'axe on the refusal page');

  // A wrong state: the provider is sent a state this browser did not start with (the start's redirect is
  // rewritten on its way), and sends it back.
  await page.route(`${server.url}/admin/sso/*/start`, async (route) => {
    const answer = await route.fetch({ maxRedirects: 0 });
    const location = new URL(answer.headers().location ?? '');
    location.searchParams.set('state', 'not-the-state-this-browser-started');
    await route.fulfill({ response: answer, headers: { ...answer.headers(), location: location.href } });
  });
  assert.deepEqual(await refusalAfter(page, viaProvider(page)), { status: 400, reason: 'state_mismatch' });
  await page.unroute(`${server.url}/admin/sso/*/start`);
  assert.equal(await sessionOf(page), null);

  // An ID token for another relying party.
  provider.reissueIdToken = (claims) => ({ ...claims, aud: provider.otherClient.id });
  assert.deepEqual(await refusalAfter(page, viaProvider(page)), { status: 400, reason: 'id_token_refused' });
  assert.match(await page.locator('[data-reason]').innerText(), /"aud" \(audience\)/);
  provider.reissueIdToken = null;
  assert.equal(await sessionOf(page), null);

  // Expired: the server's clock is past the ID token's end (and its 30 s tolerance) when it comes back.
  clockOffsetMs = (ID_TOKEN_TTL_S + 60) * 1000;
  assert.deepEqual(await refusalAfter(page, viaProvider(page)), { status: 400, reason: 'id_token_refused' });
  assert.match(await page.locator('[data-reason]').innerText(), /"exp" \(expiration time\)/);
  clockOffsetMs = 0;
  assert.equal(await sessionOf(page), null);
  await context.close();
});
