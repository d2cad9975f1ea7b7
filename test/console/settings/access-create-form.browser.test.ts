// <access-create-form>: a name, environments and actions go in one POST to the account's accesses; the secret is
// shown once, never sent on in the event, and gone when dismissed; a missing name or action is said next to its
// field without a request, and the server's field messages land at their fields.
import { assert, expect, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/settings/access-create-form.js';
import type { AccessCreateForm } from '../../../server/console/src/settings/access-create-form.js';
import type { Access } from '../../../server/console/src/types.js';
import { ENV, StubApi, inShadow, mount, until } from '../console-fixture.js';

const CREATED: Access & { client_secret: string } = {
  id: 'acs-1',
  account_id: 'acc-1',
  name: 'checkout-bot',
  environments: [ENV.id],
  actions: ['campaign.read', 'campaign.toggle'],
  client_id: 'client-123',
  client_secret: 'secret-456',
  created_at: '2026-11-04T10:00:00.000Z',
  revoked_at: null,
};

const check = (el: AccessCreateForm, selector: string): void =>
  inShadow<HTMLInputElement>(el, selector).click();
const submit = (el: AccessCreateForm): void => inShadow<HTMLButtonElement>(el, 'button[type=submit]').click();

describe('<access-create-form>', () => {
  it('posts the access, emits it without its secret, and shows the secret once', async () => {
    const api = new StubApi({ 'POST /accounts/acc-1/accesses': CREATED });
    const { el } = await mount<AccessCreateForm>(html`<access-create-form></access-create-form>`, api);
    await expect(el).to.be.accessible();
    inShadow<HTMLInputElement>(el, '#access-name').value = '  checkout-bot ';
    check(el, `input[name=environment][value="${ENV.id}"]`);
    check(el, 'input[name=action][value="campaign.read"]');
    check(el, 'input[name=action][value="campaign.toggle"]');
    const created = oneEvent(el, 'access-created');
    submit(el);
    const event = (await created) as HTMLElementEventMap['access-created'];
    assert.deepEqual(api.calls, [
      {
        method: 'POST',
        path: '/accounts/acc-1/accesses',
        body: { name: 'checkout-bot', actions: ['campaign.read', 'campaign.toggle'], environments: [ENV.id] },
      },
    ]);
    assert.notProperty(event.detail, 'client_secret');
    assert.strictEqual(event.detail.client_id, 'client-123');
    await el.updateComplete;
    const secret = inShadow(el, 'secret-once');
    await (secret as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    assert.strictEqual(inShadow(secret, '[data-testid=client-secret]').textContent, 'secret-456');
    // Under the secret, the token request with this server's origin and the access's own credentials.
    const curl = inShadow(el, 'secret-once token-curl');
    await (curl as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    assert.strictEqual(
      inShadow(curl, '[data-testid=token-curl]').textContent,
      [
        `curl '${location.origin}/oauth/acc-1/token' \\`,
        '  -d grant_type=client_credentials \\',
        "  --data-urlencode 'client_id=client-123' \\",
        "  --data-urlencode 'client_secret=secret-456'",
      ].join('\n'),
    );
    await expect(el).to.be.accessible();
    // Dismissed: the secret leaves the page, and the focus goes back to the name for the next access.
    [...(secret.shadowRoot?.querySelectorAll('button') ?? [])].at(-1)?.click();
    await until(() => el.shadowRoot?.querySelector('secret-once') === null, { what: 'the secret gone' });
    assert.notInclude(el.shadowRoot?.innerHTML ?? '', 'secret-456');
    assert.isNull(el.shadowRoot?.querySelector('token-curl') ?? null, 'the token request leaves with it');
    assert.strictEqual(el.shadowRoot?.activeElement?.id, 'access-name');
  });

  it('asks for a name and an action before sending, and shows the server’s messages at their fields', async () => {
    const api = new StubApi({
      'POST /accounts/acc-1/accesses': () => {
        throw new ConsoleApiError(
          400,
          'invalid_body',
          'The access is not valid.',
          new Map([['environments[0]', 'is not an environment of this account']]),
        );
      },
    });
    const { el } = await mount<AccessCreateForm>(html`<access-create-form></access-create-form>`, api);
    submit(el);
    await el.updateComplete;
    assert.lengthOf(api.calls, 0);
    assert.strictEqual(inShadow(el, '#access-name').getAttribute('aria-invalid'), 'true');
    assert.match(inShadow(el, '#name-error').textContent, /Enter a name/);
    assert.match(inShadow(el, '#actions-error').textContent, /at least one action/);

    inShadow<HTMLInputElement>(el, '#access-name').value = 'nightly';
    check(el, 'input[name=action][value="report.read"]');
    check(el, `input[name=environment][value="${ENV.id}"]`);
    submit(el);
    await until(() => el.shadowRoot?.querySelector('#environments-error') !== null, {
      what: 'the environments error',
    });
    assert.strictEqual(
      inShadow(el, '#environments-error').textContent,
      'is not an environment of this account',
    );
    assert.isNull(el.shadowRoot?.querySelector('secret-once') ?? null);
    await expect(el).to.be.accessible();
  });
});
