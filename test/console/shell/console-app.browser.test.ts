// <console-app>, the shell, over a fetch double (its ConsoleApi is its own): with a session it loads the accounts
// and environments, provides them to the view of the route (@lit/context), and a new environment chosen in the
// header reaches the view, which reads that environment's campaigns; without a session it shows the sign-in.
import { assert, expect } from '@open-wc/testing';
import '../../../server/console/src/shell/console-app.js';
import type { ConsoleApp } from '../../../server/console/src/shell/console-app.js';
import { ACCOUNT, ENV, inShadow, must, typeInto, until } from '../console-fixture.js';

const STAGING = { ...ENV, id: 'env-2', name: 'Staging' };
const emptyPage = {
  items: [],
  current_items_count: 0,
  current_page: 1,
  total_count: 0,
  items_per_page: 100,
  last_page: 1,
};

/**
 * A fetch double that answers the console's routes by `METHOD path` (401 for the session when `signedIn` is false);
 * `more` adds answers or replaces the usual ones.
 */
const serve = (signedIn: boolean, user?: unknown, more: Record<string, unknown> = {}) => {
  const asked: string[] = [];
  const answers: Record<string, unknown> = {
    'GET /admin/v1/accounts': { items: [ACCOUNT] },
    'GET /admin/v1/accounts/acc-1/environments': { items: [ENV, STAGING] },
    'GET /admin/v1/environments/env-1/campaigns?_page=1&_max_per_page=100': emptyPage,
    'GET /admin/v1/environments/env-2/campaigns?_page=1&_max_per_page=100': emptyPage,
    // The campaigns view's "pages listening now" (a 401 here would read as signed out).
    'GET /admin/v1/environments/env-1/listening': {
      env_id: 'env-1',
      listening: 0,
      counted_on: 'this-instance',
    },
    'GET /admin/v1/environments/env-2/listening': {
      env_id: 'env-2',
      listening: 0,
      counted_on: 'this-instance',
    },
    ...more,
  };
  if (signedIn)
    answers['GET /admin/session'] = {
      csrf_token: 'csrf',
      expires_at: '2026-12-01T00:00:00.000Z',
      ...(user === undefined ? {} : { user }),
    };
  const original = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    const key = `${init?.method ?? 'GET'} ${url}`;
    asked.push(key);
    const found = Object.hasOwn(answers, key);
    return Promise.resolve(
      new Response(JSON.stringify(found ? answers[key] : { code: 'unauthorized', message: 'Sign in.' }), {
        status: found ? 200 : 401,
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
  return { asked, restore: () => (window.fetch = original) };
};

const mountApp = (): ConsoleApp => {
  const host = document.createElement('div');
  document.body.append(host);
  host.append(document.createElement('console-app'));
  return must(host.querySelector('console-app'));
};

describe('<console-app>', () => {
  let server: ReturnType<typeof serve> | undefined;
  beforeEach(() => {
    localStorage.removeItem('feature-console-choice');
    history.replaceState(null, '', `${location.pathname}${location.search}#/campaigns`);
  });
  afterEach(() => {
    server?.restore();
    document.querySelectorAll('console-app').forEach((app) => app.parentElement?.remove());
    history.replaceState(null, '', location.pathname + location.search);
    sessionStorage.clear();
  });

  it('provides the chosen environment to the view, and a new choice in the header reaches it', async () => {
    server = serve(true);
    const app = mountApp();
    await until(() => app.shadowRoot?.querySelector('campaigns-view') !== null, {
      what: 'the campaigns view',
    });
    const view = inShadow<HTMLElement & { context: { environment: { id: string } } }>(app, 'campaigns-view');
    assert.strictEqual(view.context.environment.id, 'env-1');
    await until(() => server?.asked.some((k) => k.includes('/environments/env-1/campaigns')) === true, {
      what: 'the env-1 campaigns request',
    });
    await expect(app).to.be.accessible();

    typeInto(inShadow(app, 'select[aria-label=Environment]'), 'env-2');
    await until(() => view.context.environment.id === 'env-2', { what: 'the new context in the view' });
    await until(() => server?.asked.some((k) => k.includes('/environments/env-2/campaigns')) === true, {
      what: 'the env-2 campaigns request',
    });
    assert.deepEqual(JSON.parse(must(localStorage.getItem('feature-console-choice'))), {
      accountId: 'acc-1',
      envId: 'env-2',
    });
  });

  it("offers Users only to the operator key and the account's admins, as the session says", async () => {
    const menuLinks = async (user: unknown): Promise<string[]> => {
      server = serve(true, user);
      const app = mountApp();
      await until(() => app.shadowRoot?.querySelector('#menu') !== null, { what: 'the menu' });
      const links = [...(app.shadowRoot?.querySelectorAll('#menu a') ?? [])].map((a) => a.textContent.trim());
      server.restore();
      app.parentElement?.remove();
      return links;
    };
    const person = (role: string) => ({
      id: 'usr-1',
      email: 'ada@example.com',
      name: 'Ada',
      accounts: [{ account_id: 'acc-1', role }],
    });
    assert.include(await menuLinks(undefined), 'Users');
    assert.include(await menuLinks(null), 'Users');
    assert.include(await menuLinks(person('admin')), 'Users');
    assert.notInclude(await menuLinks(person('editor')), 'Users');
    assert.notInclude(await menuLinks(person('viewer')), 'Users');
  });

  it('asks the server which screen an invitation link opens: a new person chooses a password', async () => {
    history.replaceState(null, '', `${location.pathname}${location.search}#invite=fci_new`);
    server = serve(false, undefined, {
      'POST /admin/session/invitation/peek': { screen: 'choose_password' },
    });
    const app = mountApp();
    await until(() => app.shadowRoot?.querySelector('choose-password-view') !== null, {
      what: 'the password screen',
    });
    assert.notInclude(location.href, 'fci_new');
    assert.deepEqual(server.asked, ['POST /admin/session/invitation/peek']);
    assert.isNull(sessionStorage.getItem('feature-console.join-token'));
  });

  it('keeps a join link out of the address, asks the invited person to sign in, then shows the invitation', async () => {
    // The same kind of link as a new person's: the server says it asks to join.
    history.replaceState(null, '', `${location.pathname}${location.search}#invite=fci_abc`);
    server = serve(false, undefined, { 'POST /admin/session/invitation/peek': { screen: 'join' } });
    const app = mountApp();
    await until(() => app.shadowRoot?.querySelector('sign-in-view') !== null, { what: 'the sign-in' });
    assert.notInclude(location.href, 'fci_abc');
    assert.include(server.asked, 'POST /admin/session/invitation/peek');
    const signIn = must(app.shadowRoot?.querySelector('sign-in-view'));
    await signIn.updateComplete;
    assert.match(
      signIn.shadowRoot?.textContent ?? '',
      /Sign in as the invited person to answer this invitation/,
    );
    server.restore();
    app.parentElement?.remove();

    // Signed in (here: the page loaded again after a sign-in elsewhere in this tab): the invitation, from the
    // token this tab kept, sent in a POST body.
    server = serve(
      true,
      {
        id: 'usr-1',
        email: 'ada@example.com',
        name: 'Ada',
        accounts: [{ account_id: 'acc-1', role: 'admin' }],
      },
      {
        'POST /admin/v1/console/join/peek': {
          account_id: 'acc-2',
          account_name: 'Beta shop',
          role: 'viewer',
          expires_at: '2026-12-06T10:00:00.000Z',
        },
        'POST /admin/v1/console/join': { account_id: 'acc-1', answer: 'join' },
      },
    );
    const again = mountApp();
    await until(() => again.shadowRoot?.querySelector('join-invitation-view') !== null, {
      what: 'the invitation screen',
    });
    const view = must(again.shadowRoot?.querySelector('join-invitation-view'));
    await until(
      () =>
        /Join Beta shop as viewer\?/.test(view.shadowRoot?.textContent.replace(/\s+/g, ' ') ?? '') ||
        undefined,
      {
        what: 'the question',
      },
    );
    assert.include(server.asked, 'POST /admin/v1/console/join/peek');
    assert.notInclude(server.asked.join(' '), 'fci_abc');
    await expect(again).to.be.accessible();

    // Joined: the token is forgotten, the session read again (its roles changed), and the console shown.
    const join = must(
      [...(view.shadowRoot?.querySelectorAll('button') ?? [])].find((b) =>
        /^\s*Join\s*$/.test(b.textContent),
      ),
    );
    const asked = server.asked.length;
    join.click();
    await until(() => again.shadowRoot?.querySelector('#menu') !== null, { what: 'the console' });
    assert.isNull(sessionStorage.getItem('feature-console.join-token'));
    await until(() => server?.asked.slice(asked).includes('GET /admin/session') === true || undefined, {
      what: 'the session read again',
    });
    assert.strictEqual(server.asked[asked], 'POST /admin/v1/console/join');
  });

  it('takes a sign-in link out of the address at once, and says so when the link was already used', async () => {
    history.replaceState(null, '', `${location.pathname}${location.search}#sign-in=fcl_spent`);
    server = serve(false);
    const app = mountApp();
    await until(() => app.shadowRoot?.querySelector('sign-in-view') !== null, { what: 'the sign-in' });
    assert.strictEqual(location.hash, '#/campaigns');
    assert.strictEqual(server.asked[0], 'POST /admin/session');
    assert.include(
      inShadow<HTMLElement & { message: string }>(app, 'sign-in-view').message,
      'This sign-in link was already used or has expired',
    );
  });

  it('warns above every screen while the environment is in panic mode; the header moves the focus and opens the menu', async () => {
    server = serve(true, undefined, {
      'GET /admin/v1/accounts/acc-1/environments': { items: [{ ...ENV, panic: true }, STAGING] },
    });
    const app = mountApp();
    await until(() => app.shadowRoot?.querySelector('campaigns-view') !== null, {
      what: 'the campaigns view',
    });
    const notice = inShadow(app, 'main > p.notice.danger');
    assert.include(notice.textContent, 'Panic mode is on in Production: every visitor gets the defaults.');
    assert.strictEqual(must(notice.querySelector('a')).getAttribute('href'), '#/settings/api-key');

    const toggle = inShadow(app, 'button.menu-toggle');
    assert.strictEqual(toggle.getAttribute('aria-expanded'), 'false');
    toggle.click();
    await until(() => toggle.getAttribute('aria-expanded') === 'true' || undefined, {
      what: 'the menu open',
    });
    inShadow(app, 'button.skip').click();
    assert.strictEqual(app.shadowRoot?.activeElement?.id, 'main');

    typeInto(inShadow(app, 'select[aria-label=Environment]'), 'env-2');
    await until(() => app.shadowRoot?.querySelector('main > p.notice.danger') === null || undefined, {
      what: 'no warning in an environment that is not in panic mode',
    });
  });

  it('shows the sign-in without a session', async () => {
    server = serve(false);
    const app = mountApp();
    await until(() => app.shadowRoot?.querySelector('sign-in-view') !== null, { what: 'the sign-in' });
    // The session, then (public) which accounts offer single sign-on, for the sign-in's buttons.
    await until(() => server?.asked.includes('GET /admin/sso') === true || undefined, {
      what: 'the single sign-on offers asked',
    });
    assert.deepEqual(server.asked, ['GET /admin/session', 'GET /admin/sso']);
    await expect(app).to.be.accessible();
  });
});
