// <environment-card>: a switch is one PATCH of its field and emits the environment as the server has it; panic
// mode asks first and stays off when the question is declined; a key rotation asks, posts, and hands the new key
// to the owner, which shows it once until dismissed.
import { assert, expect, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/settings/environment-card.js';
import type { EnvironmentCard } from '../../../server/console/src/settings/environment-card.js';
import { ENV, StubApi, answerConfirm, inShadow, mount, until } from '../console-fixture.js';

const cardOf = (api: StubApi, apiKey = '') =>
  mount<EnvironmentCard>(
    html`<environment-card .environment=${ENV} .apiKey=${apiKey}></environment-card>`,
    api,
  );

describe('<environment-card>', () => {
  it('turns experience continuity on with one PATCH and emits the environment now', async () => {
    const stored = { ...ENV, settings: { ...ENV.settings, enabledXPC: true } };
    const api = new StubApi({ 'PATCH /environments/env-1': stored });
    const { el } = await cardOf(api);
    await expect(el).to.be.accessible();
    const changed = oneEvent(el, 'environment-changed');
    inShadow<HTMLInputElement>(el, '#enabledXPC-env-1').click();
    const event = await changed;
    assert.deepEqual(api.calls, [
      { method: 'PATCH', path: '/environments/env-1', body: { enabledXPC: true } },
    ]);
    assert.deepEqual(event.detail, stored);
    await el.updateComplete;
    assert.match(
      inShadow(el, '.status').textContent,
      /Saved: Experience continuity \(XPC\) is on in Production/,
    );
  });

  it('leaves panic mode off when the question is declined, and turns it on when confirmed', async () => {
    const api = new StubApi({ 'PATCH /environments/env-1': { ...ENV, panic: true } });
    const { el } = await cardOf(api);
    const panic = inShadow<HTMLInputElement>(el, '#panic-env-1');
    panic.click();
    await answerConfirm('cancel');
    await until(() => el.status === 'Panic mode left off.', { what: 'the panic-off status' });
    assert.isFalse(panic.checked);
    assert.lengthOf(api.calls, 0);
    panic.click();
    await answerConfirm('confirm');
    await until(() => api.calls.length === 1, { what: 'the request' });
    assert.deepEqual(api.calls, [{ method: 'PATCH', path: '/environments/env-1', body: { panic: true } }]);
  });

  it('rotates the key after asking and shows the new one once, until dismissed', async () => {
    const api = new StubApi({ 'POST /environments/env-1/rotate-key': { id: 'env-1', api_key: 'key-new' } });
    const { el } = await cardOf(api);
    const rotated = oneEvent(el, 'key-rotated');
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => /Rotate/.test(b.textContent))?.click();
    await answerConfirm('confirm');
    assert.deepEqual((await rotated).detail, { envId: 'env-1', apiKey: 'key-new' });
    assert.deepEqual(api.calls, [{ method: 'POST', path: '/environments/env-1/rotate-key' }]);
    // The owner hands the key back to show (environments-view does so on key-rotated).
    el.apiKey = 'key-new';
    el.keyReason = 'rotated';
    await el.updateComplete;
    const secret = inShadow(el, 'secret-once');
    await (secret as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    assert.strictEqual(inShadow(secret, '[data-testid=api-key]').textContent, 'key-new');
    await expect(el).to.be.accessible();
    const dismissed = oneEvent(el, 'key-dismissed');
    [...(secret.shadowRoot?.querySelectorAll('button') ?? [])].at(-1)?.click();
    await dismissed;
  });
});
