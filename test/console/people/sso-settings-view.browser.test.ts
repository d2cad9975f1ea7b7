// <sso-settings-view> over the stub API: the stored settings with the secret shown as Set and the redirect URI
// with a copy button; a save sends the edited fields and rows and leaves the secret out unless it is replaced;
// the first save (the empty state) sends the secret; the server's refusal is said next to the form and under
// the field it names; Remove asks first; a viewer or editor is offered nothing and nothing is asked; at 390 px
// every control is within the window.
import { assert, expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/people/sso-settings-view.js';
import type { SsoSettingsView } from '../../../server/console/src/people/sso-settings-view.js';
import { parseRoute, routeHash } from '../../../server/console/src/router.js';
import type { SsoSettings } from '../../../server/console/src/types.js';
import {
  ACCOUNT,
  StubApi,
  answerConfirm,
  inShadow,
  mount,
  must,
  typeInto,
  until,
} from '../console-fixture.js';
import { assertReachable } from '../reachable.js';

const PATH = `/accounts/${ACCOUNT.id}/sso`;
const STORED: SsoSettings = {
  account_id: ACCOUNT.id,
  name: 'Acme',
  issuer: 'https://id.example.com/realms/acme',
  client_id: 'feature-console',
  client_secret: '(set)',
  groups_claim: 'groups',
  group_roles: [{ group: 'feature-admins', role: 'admin' }],
  domain_roles: [{ domain: 'example.com', role: 'viewer' }],
  enabled: true,
  redirect_uri: 'https://feature.example.com/admin/sso/callback',
  created_at: '2026-11-04T10:00:00.000Z',
  updated_at: '2026-11-04T10:00:00.000Z',
};

const settle = async (el: Element): Promise<void> => {
  await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
};
const buttonIn = (el: Element, text: RegExp): HTMLButtonElement =>
  must(
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => text.test(b.textContent)),
    `a button ${String(text)} in <${el.localName}>`,
  );
const shown = async (api: StubApi, user: Parameters<typeof mount>[2] = {}): Promise<SsoSettingsView> => {
  const { el } = await mount<SsoSettingsView>(html`<sso-settings-view></sso-settings-view>`, api, user);
  await until(() => !el.loading && el.shadowRoot?.querySelector('h1') !== null, { what: 'the screen' });
  await settle(el);
  return el;
};
const text = (el: Element): string => (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ');

describe('<sso-settings-view>', () => {
  it('has its own address under the settings', () => {
    assert.deepEqual(parseRoute('#/settings/sso'), { name: 'sso' });
    assert.strictEqual(routeHash({ name: 'sso' }), '#/settings/sso');
  });

  it('shows the stored settings, the secret as Set and the redirect URI with a copy button', async () => {
    const el = await shown(new StubApi({ [`GET ${PATH}`]: STORED }));
    assert.strictEqual(inShadow<HTMLInputElement>(el, '#sso-issuer').value, STORED.issuer);
    assert.strictEqual(inShadow<HTMLInputElement>(el, '#group-0').value, 'feature-admins');
    assert.strictEqual(inShadow<HTMLSelectElement>(el, '#group-0-role').value, 'admin');
    assert.strictEqual(inShadow<HTMLInputElement>(el, '#domain-0').value, 'example.com');
    assert.isNull(el.shadowRoot?.querySelector('#sso-secret'));
    assert.match(text(el), /Client secret Set Replace/);
    assert.include(text(el), STORED.redirect_uri);
    assert.strictEqual(
      inShadow<HTMLElement & { value: string }>(el, 'copy-button').value,
      STORED.redirect_uri,
    );
    await expect(el).to.be.accessible();
  });

  it('explains single sign-on when there is none, and the first save sends the secret', async () => {
    const api = new StubApi({ [`PUT ${PATH}`]: STORED });
    const el = await shown(api);
    assert.match(text(el), /Shop has no single sign-on yet/);
    assert.strictEqual(inShadow<HTMLInputElement>(el, '#sso-groups_claim').value, 'groups');
    assert.isNull(el.shadowRoot?.querySelector('copy-button'));
    assert.notMatch(text(el), /Remove single sign-on/);
    await expect(el).to.be.accessible();
    typeInto(inShadow<HTMLInputElement>(el, '#sso-name'), 'Acme');
    typeInto(inShadow<HTMLInputElement>(el, '#sso-issuer'), ` ${STORED.issuer} `);
    typeInto(inShadow<HTMLInputElement>(el, '#sso-client_id'), 'feature-console');
    typeInto(inShadow<HTMLInputElement>(el, '#sso-secret'), 's3cret');
    buttonIn(el, /Add a group/).click();
    await settle(el);
    typeInto(inShadow<HTMLInputElement>(el, '#group-0'), 'feature-admins');
    typeInto(inShadow<HTMLSelectElement>(el, '#group-0-role'), 'admin');
    buttonIn(el, /^\s*Save\s*$/).click();
    await until(() => /is saved/.test(text(el)), { what: 'the save' });
    assert.deepEqual(api.made('PUT')[0]?.body, {
      name: 'Acme',
      issuer: STORED.issuer,
      client_id: 'feature-console',
      groups_claim: 'groups',
      enabled: true,
      client_secret: 's3cret',
      group_roles: [{ group: 'feature-admins', role: 'admin' }],
      domain_roles: [],
    });
    assert.include(text(el), STORED.redirect_uri);
    assert.isNull(must(el.shadowRoot).querySelector('#sso-secret'));
  });

  it('keeps the stored secret on a save, and sends a replaced one', async () => {
    const api = new StubApi({ [`GET ${PATH}`]: STORED, [`PUT ${PATH}`]: { ...STORED, enabled: false } });
    const el = await shown(api);
    const enabled = inShadow<HTMLInputElement>(el, 'input[type=checkbox]');
    enabled.click();
    buttonIn(el, /Remove[\s\S]*email domain 1/).click();
    await settle(el);
    buttonIn(el, /^\s*Save\s*$/).click();
    await until(() => api.made('PUT').length === 1, { what: 'the save' });
    const first = api.made('PUT')[0]?.body as Record<string, unknown>;
    assert.notProperty(first, 'client_secret');
    assert.strictEqual(first.enabled, false);
    assert.deepEqual(first.domain_roles, []);
    await until(() => /is saved/.test(text(el)), { what: 'the status' });

    buttonIn(el, /Replace/).click();
    await settle(el);
    typeInto(inShadow<HTMLInputElement>(el, '#sso-secret'), 'n3w');
    await expect(el).to.be.accessible();
    buttonIn(el, /^\s*Save\s*$/).click();
    await until(() => api.made('PUT').length === 2, { what: 'the second save' });
    assert.strictEqual((api.made('PUT')[1]?.body as Record<string, unknown>).client_secret, 'n3w');
  });

  it("says the server's refusal next to the form and under the issuer", async () => {
    const message =
      "issuer: https://id.example.com/realms/acme could not be discovered (connect ECONNREFUSED): give the provider's issuer URL exactly as its /.well-known/openid-configuration names it, reachable from this server.";
    const api = new StubApi({
      [`GET ${PATH}`]: STORED,
      [`PUT ${PATH}`]: () => {
        throw new ConsoleApiError(
          400,
          'invalid_body',
          message,
          new Map([['issuer', 'could not be discovered (connect ECONNREFUSED)']]),
        );
      },
    });
    const el = await shown(api);
    buttonIn(el, /^\s*Save\s*$/).click();
    await until(() => el.shadowRoot?.querySelector('[role=alert]') !== null, { what: 'the refusal' });
    assert.include(inShadow(el, '[role=alert]').textContent, message);
    assert.match(inShadow(el, '#sso-issuer-error').textContent, /could not be discovered/);
    assert.strictEqual(inShadow(el, '#sso-issuer').getAttribute('aria-invalid'), 'true');
    assert.strictEqual(inShadow<HTMLInputElement>(el, '#sso-issuer').value, STORED.issuer);
    await expect(el).to.be.accessible();
  });

  it('removes single sign-on only after the confirmation', async () => {
    const api = new StubApi({ [`GET ${PATH}`]: STORED, [`DELETE ${PATH}`]: null });
    const el = await shown(api);
    buttonIn(el, /Remove single sign-on/).click();
    await answerConfirm('cancel');
    await settle(el);
    assert.lengthOf(api.made('DELETE'), 0);
    buttonIn(el, /Remove single sign-on/).click();
    await answerConfirm('confirm');
    await until(() => /is removed/.test(text(el)), { what: 'the removal' });
    assert.deepEqual(api.made('DELETE'), [{ method: 'DELETE', path: PATH }]);
    assert.match(text(el), /has no single sign-on yet/);
  });

  it("shows the server's message when the settings cannot be read", async () => {
    const el = await shown(
      new StubApi({
        [`GET ${PATH}`]: () => {
          throw new ConsoleApiError(503, 'unavailable', 'The store is not reachable.');
        },
      }),
    );
    assert.match(
      inShadow(el, '[role=alert]').textContent,
      /could not be loaded: The store is not reachable\./,
    );
    assert.isNull(el.shadowRoot?.querySelector('form'));
  });

  for (const role of ['editor', 'viewer'] as const)
    it(`offers a signed-in ${role} nothing, and asks the server nothing`, async () => {
      const api = new StubApi({ [`GET ${PATH}`]: STORED });
      const el = await shown(api, {
        user: {
          id: 'usr-x',
          email: 'x@example.com',
          name: 'X',
          accounts: [{ account_id: ACCOUNT.id, role }],
        },
      });
      assert.match(text(el), /Only an admin of Shop/);
      assert.isNull(el.shadowRoot?.querySelector('button, input, select, form'));
      assert.lengthOf(api.calls, 0);
      await expect(el).to.be.accessible();
    });

  it('keeps every control within the window at 390 px', async () => {
    await setViewport({ width: 390, height: 800 });
    try {
      const el = await shown(new StubApi({ [`GET ${PATH}`]: STORED }));
      buttonIn(el, /Replace/).click();
      await settle(el);
      const root = must(el.shadowRoot);
      assertReachable(root, [...root.querySelectorAll('input, select, button, copy-button')], 'control');
      assert.isAtMost(document.documentElement.scrollWidth, 390);
      await expect(el).to.be.accessible();
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});
