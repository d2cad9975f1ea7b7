// <webhooks-view> and its parts (<webhook-create-form>, <webhook-deliveries>) over the stub API:
// a creation posts the URL and the checked kinds and shows the signing secret once; the server's refusal of the
// URL is said beside it; Delete asks first; a webhook's delivery log shows each last answer, and Send again posts
// to the redeliver route; at 390 px every control is within the window.
import { assert, expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/settings/webhooks-view.js';
import type { WebhooksView } from '../../../server/console/src/settings/webhooks-view.js';
import { WEBHOOK_EVENT_KINDS } from '../../../server/console/src/settings/webhook-labels.js';
import type { Webhook, WebhookDelivery } from '../../../server/console/src/types.js';
import { WEBHOOK_EVENT_TYPES } from '../../../server/src/webhooks/webhook-events.js';
import { ENV, StubApi, answerConfirm, inShadow, mount, must, typeInto, until } from '../console-fixture.js';
import { assertReachable, assertTableRoles } from '../reachable.js';

const LIST = `/environments/${ENV.id}/webhooks`;
const HOOK: Webhook = {
  id: 'wh-1',
  env_id: ENV.id,
  url: 'https://hooks.example.com/feature',
  events: [],
  created_at: '2026-11-04T10:00:00.000Z',
};
const DELIVERIES = `${LIST}/wh-1/deliveries`;
const FAILED: WebhookDelivery = {
  id: 'dlv-2',
  event_id: 'evt-2',
  event_type: 'environment.panic_changed',
  state: 'failed',
  attempts: 9,
  created_at: '2026-11-05T10:00:00.000Z',
  next_attempt_at: null,
  last_attempt_at: '2026-11-06T10:00:00.000Z',
  last_status: 503,
  last_answer: 'upstream is down for maintenance',
  last_error: null,
  settled_at: '2026-11-06T10:00:00.000Z',
  body: '{}',
};
const REFUSED: WebhookDelivery = {
  ...FAILED,
  id: 'dlv-1',
  event_type: 'campaign.created',
  state: 'pending',
  attempts: 2,
  last_status: null,
  last_answer: null,
  last_error: 'connect ECONNREFUSED 10.0.0.1:443',
  next_attempt_at: '2026-11-05T10:05:00.000Z',
  settled_at: null,
};

/** The creation panel of the screen, and the screen itself, which lists the webhooks. */
const parts = (el: WebhooksView) => ({ form: inShadow(el, 'webhook-create-form'), list: el });
const settle = async (...elements: Element[]): Promise<void> => {
  for (const element of elements)
    await (element as unknown as { updateComplete: Promise<unknown> }).updateComplete;
};
const buttonIn = (el: Element, text: RegExp): HTMLButtonElement =>
  must(
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => text.test(b.textContent)),
    `a button ${String(text)} in <${el.localName}>`,
  );
const shown = async (api: StubApi): Promise<WebhooksView> => {
  const { el } = await mount<WebhooksView>(html`<webhooks-view></webhooks-view>`, api);
  await until(() => el.shadowRoot?.querySelector('section.card') !== null && !el.loading, {
    what: 'the list',
  });
  await settle(el, parts(el).form);
  return el;
};
const openLog = async (list: Element): Promise<Element> => {
  buttonIn(list, /Deliveries/).click();
  await settle(list);
  const log = inShadow(list, 'webhook-deliveries');
  await until(() => log.shadowRoot?.querySelector('tbody') !== null, { what: 'the delivery log' });
  return log;
};

describe('<webhooks-view>', () => {
  it('lists the kinds the server sends, in its order', () => {
    assert.deepEqual(WEBHOOK_EVENT_KINDS, [...WEBHOOK_EVENT_TYPES]);
  });

  it('creates a webhook with the checked kinds and shows its secret once', async () => {
    const api = new StubApi({
      [`GET ${LIST}`]: { items: [] },
      [`POST ${LIST}`]: (call: { body?: unknown }) => ({
        ...HOOK,
        events: (call.body as { events?: string[] }).events ?? [],
        secret: 'whsec_abc123',
      }),
    });
    const el = await shown(api);
    await expect(el).to.be.accessible();
    const { form, list } = parts(el);
    assert.match(list.shadowRoot?.textContent ?? '', /No webhook yet/);
    typeInto(inShadow<HTMLInputElement>(form, '#webhook-url'), ' https://hooks.example.com/feature ');
    inShadow<HTMLInputElement>(form, 'input[value="campaign.state_changed"]').click();
    inShadow<HTMLInputElement>(form, 'input[value="environment.panic_changed"]').click();
    buttonIn(form, /Create the webhook/).click();
    await until(() => form.shadowRoot?.querySelector('secret-once') !== null, { what: 'the secret' });
    assert.deepEqual(api.made('POST'), [
      {
        method: 'POST',
        path: LIST,
        body: {
          url: 'https://hooks.example.com/feature',
          events: ['campaign.state_changed', 'environment.panic_changed'],
        },
      },
    ]);
    const secret = inShadow(form, 'secret-once');
    await settle(secret);
    assert.strictEqual(inShadow(secret, '[data-testid=webhook-secret]').textContent, 'whsec_abc123');
    assert.isNotNull(secret.shadowRoot?.querySelector('copy-button'), 'a copy button');
    // The new webhook is listed with its kinds, and the form is empty again.
    await settle(el, list);
    const row = inShadow(list, 'tbody tr');
    assert.match(
      row.textContent,
      /hooks\.example\.com[\s\S]*campaign\.state_changed, environment\.panic_changed/,
    );
    assert.strictEqual(inShadow<HTMLInputElement>(form, '#webhook-url').value, '');
    await expect(el).to.be.accessible();
    // Done forgets it: it is nowhere on the page any more.
    buttonIn(secret, /Done/).click();
    await settle(form);
    assert.isNull(form.shadowRoot?.querySelector('secret-once'));
    assert.notInclude(must(form.shadowRoot).innerHTML, 'whsec_abc123');
  });

  it('sends no kinds when none is checked, and the list says "Every event"', async () => {
    const api = new StubApi({
      [`GET ${LIST}`]: { items: [] },
      [`POST ${LIST}`]: { ...HOOK, secret: 'whsec_x' },
    });
    const el = await shown(api);
    const { form, list } = parts(el);
    typeInto(inShadow<HTMLInputElement>(form, '#webhook-url'), HOOK.url);
    buttonIn(form, /Create the webhook/).click();
    await until(() => api.made('POST').length === 1, { what: 'the creation' });
    assert.deepEqual(api.made('POST')[0]?.body, { url: HOOK.url });
    await until(() => list.shadowRoot?.querySelector('tbody') !== null, { what: 'the row' });
    assert.match(inShadow(list, 'tbody tr').textContent, /Every event/);
  });

  it("shows the server's refusal of the URL beside it, and an empty URL without a request", async () => {
    const api = new StubApi({
      [`GET ${LIST}`]: { items: [] },
      [`POST ${LIST}`]: () => {
        throw new ConsoleApiError(
          400,
          'invalid_body',
          'url: must be an http:// or https:// URL, not ftp://',
          new Map([['url', 'must be an http:// or https:// URL, not ftp://']]),
        );
      },
    });
    const el = await shown(api);
    const { form } = parts(el);
    const url = inShadow<HTMLInputElement>(form, '#webhook-url');
    buttonIn(form, /Create the webhook/).click();
    await settle(form);
    assert.lengthOf(api.made('POST'), 0);
    assert.match(inShadow(form, '#webhook-url-error').textContent, /Enter the URL/);

    typeInto(url, 'ftp://hooks.example.com/feature');
    buttonIn(form, /Create the webhook/).click();
    await until(
      () => /ftp:\/\//.test(form.shadowRoot?.querySelector('#webhook-url-error')?.textContent ?? ''),
      {
        what: 'the URL error',
      },
    );
    assert.strictEqual(
      inShadow(form, '#webhook-url-error').textContent,
      'The URL must be an http:// or https:// URL, not ftp://.',
    );
    assert.strictEqual(url.getAttribute('aria-invalid'), 'true');
    assert.include(url.getAttribute('aria-describedby') ?? '', 'webhook-url-error');
    assert.strictEqual(form.shadowRoot?.activeElement, url, 'the URL has the focus');
    assert.isNull(form.shadowRoot?.querySelector('secret-once'));
    await expect(el).to.be.accessible();
  });

  it('deletes a webhook only after the confirmation', async () => {
    const api = new StubApi({ [`GET ${LIST}`]: { items: [HOOK] }, [`DELETE ${LIST}/wh-1`]: null });
    const el = await shown(api);
    const { list } = parts(el);
    buttonIn(list, /Delete/).click();
    await answerConfirm('cancel');
    await settle(list);
    assert.lengthOf(api.made('DELETE'), 0);
    assert.isNotNull(list.shadowRoot?.querySelector('tbody'));

    buttonIn(list, /Delete/).click();
    await answerConfirm('confirm');
    await until(() => list.shadowRoot?.querySelector('tbody') === null, { what: 'the row gone' });
    assert.deepEqual(api.made('DELETE'), [{ method: 'DELETE', path: `${LIST}/wh-1` }]);
    assert.match(inShadow(list, '[role=status]').textContent, /is deleted/);
  });

  it('lists the deliveries with their last answer, sends one again and refreshes', async () => {
    const api = new StubApi({
      [`GET ${LIST}`]: { items: [HOOK] },
      [`GET ${DELIVERIES}`]: { items: [FAILED, REFUSED] },
      [`POST ${DELIVERIES}/dlv-2/redeliver`]: {
        ...FAILED,
        state: 'pending',
        next_attempt_at: FAILED.created_at,
      },
    });
    const el = await shown(api);
    const { list } = parts(el);
    const log = await openLog(list);
    const rows = [...(log.shadowRoot?.querySelectorAll('tbody tr') ?? [])].map((r) =>
      r.textContent.replace(/\s+/g, ' '),
    );
    assert.lengthOf(rows, 2);
    assert.match(
      rows[0] ?? '',
      /environment\.panic_changed.*failed.*9.*HTTP 503.*upstream is down for maintenance.*—/,
    );
    assert.match(rows[1] ?? '', /campaign\.created.*pending.*2.*connect ECONNREFUSED 10\.0\.0\.1:443/);
    await expect(el).to.be.accessible();

    buttonIn(log, /Send again[\s\S]*panic_changed/).click();
    await until(() => api.made('POST').length === 1, { what: 'the redelivery' });
    assert.deepEqual(api.made('POST'), [{ method: 'POST', path: `${DELIVERIES}/dlv-2/redeliver` }]);
    await settle(log);
    assert.match(inShadow(log, 'tbody tr').textContent, /pending/);
    assert.match(inShadow(log, '.row [role=status]').textContent, /environment\.panic_changed is sent again/);

    api.answer(`GET ${DELIVERIES}`, { items: [] });
    buttonIn(log, /Refresh/).click();
    await until(() => /No delivery yet/.test(log.shadowRoot?.textContent ?? ''), {
      what: 'the refreshed log',
    });
    assert.lengthOf(api.made('GET', DELIVERIES), 2);
  });

  it('keeps every control within the window at 390 px', async () => {
    await setViewport({ width: 390, height: 800 });
    try {
      const api = new StubApi({
        [`GET ${LIST}`]: { items: [{ ...HOOK, events: ['campaign.state_changed'] }] },
        [`GET ${DELIVERIES}`]: { items: [FAILED, REFUSED] },
      });
      const el = await shown(api);
      const { form, list } = parts(el);
      const log = await openLog(list);
      const formRoot = must(form.shadowRoot);
      assertReachable(formRoot, [...formRoot.querySelectorAll('input, button')], 'form control');
      const listRoot = must(list.shadowRoot);
      assertReachable(
        listRoot,
        [...listRoot.querySelectorAll('tbody button, tbody th, tbody td[data-label]')],
        'list field',
      );
      const logRoot = must(log.shadowRoot);
      assertReachable(
        logRoot,
        [...logRoot.querySelectorAll('button, tbody th, tbody td[data-label]')],
        'log field',
      );
      const state = must(logRoot.querySelector('td[data-label="State"]'));
      assert.strictEqual(getComputedStyle(state, '::before').content, '"State"', 'a card names its fields');
      assertTableRoles(listRoot);
      assertTableRoles(logRoot);
      await expect(el).to.be.accessible();
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});
