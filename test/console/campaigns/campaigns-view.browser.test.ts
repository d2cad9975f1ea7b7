// <campaigns-view>, the campaign list: every campaign of the chosen environment in decision order, searchable by
// name, slug, id or flag key; a state change is one PATCH of the toggle route (interrupting asks first); a new
// environment chosen in the header (a new context value) loads its own campaigns.
import { assert, expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { html } from 'lit';
import '../../../server/console/src/campaigns/campaigns-view.js';
import type { CampaignsView } from '../../../server/console/src/campaigns/campaigns-view.js';
import {
  ENV,
  StubApi,
  answerConfirm,
  campaignOf,
  inShadow,
  mount,
  must,
  typeInto,
  until,
} from '../console-fixture.js';
import { assertReachable, assertTableRoles } from '../reachable.js';

const listOf = (envId: string) => `/environments/${envId}/campaigns?_page=1&_max_per_page=100`;
const page = (items: unknown[]) => ({
  items,
  current_items_count: items.length,
  current_page: 1,
  total_count: items.length,
  items_per_page: 100,
  last_page: 1,
});

const BUY = campaignOf();
const BANNER = campaignOf({
  id: 'camp-2',
  name: 'Checkout banner',
  slug: null,
  state: 'paused',
  variation_groups: [
    {
      id: 'vg-2',
      name: 'Everyone',
      targeting: {
        targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: true }] }],
      },
      variations: [
        {
          id: 'v-a',
          name: 'Off',
          reference: true,
          allocation: 100,
          modifications: { type: 'FLAG', value: { bannerText: '' } },
        },
      ],
    },
  ],
});

const rows = (el: CampaignsView): string[] =>
  [...(el.shadowRoot?.querySelectorAll('tbody th[scope=row] a') ?? [])].map((a) => a.textContent.trim());

const listed = async (api: StubApi) => {
  const mounted = await mount<CampaignsView>(html`<campaigns-view></campaigns-view>`, api);
  await until(() => rows(mounted.el).length > 0, { what: 'the rows' });
  return mounted;
};

describe('<campaigns-view>', () => {
  it('lists the campaigns in decision order and finds one by flag key', async () => {
    const api = new StubApi({ [`GET ${listOf(ENV.id)}`]: page([BUY, BANNER]) });
    const { el } = await listed(api);
    await expect(el).to.be.accessible();
    assert.deepEqual(rows(el), ['Buy button', 'Checkout banner']);
    assert.match(inShadow(el, '[role=status]').textContent, /2 campaigns, in the order decisions try them/);
    typeInto(inShadow(el, '#search'), 'bannertext');
    await el.updateComplete;
    assert.deepEqual(rows(el), ['Checkout banner']);
    assert.match(inShadow(el, '[role=status]').textContent, /1 of 2 campaigns match “bannertext”/);
    // The list and, above it, how many pages listen now (<listening-now>: unanswered here, so not shown).
    assert.deepEqual(api.made('GET', listOf(ENV.id)), [{ method: 'GET', path: listOf(ENV.id) }]);
    assert.deepEqual(
      api.calls.map((c) => c.path).sort(),
      [listOf(ENV.id), '/environments/env-1/listening'].sort(),
    );
  });

  it('pauses with one PATCH of the toggle route, and interrupts only after asking, with no Undo', async () => {
    const api = new StubApi({
      [`GET ${listOf(ENV.id)}`]: page([BUY, BANNER]),
      'PATCH /environments/env-1/campaigns/camp-1/toggle': (call: { body: { state: string } }) => ({
        ...BUY,
        state: call.body.state,
      }),
    });
    const { el, notices } = await listed(api);
    const select = () => inShadow<HTMLSelectElement>(el, 'select[aria-label="State of Buy button"]');
    typeInto(select(), 'interrupted');
    await answerConfirm('cancel');
    await until(() => select().value === 'active', { what: 'the select back to active' });
    assert.lengthOf(api.made('PATCH'), 0);

    typeInto(select(), 'paused');
    await until(() => api.made('PATCH').length === 1, { what: 'the PATCH request' });
    assert.deepEqual(api.made('PATCH'), [
      { method: 'PATCH', path: '/environments/env-1/campaigns/camp-1/toggle', body: { state: 'paused' } },
    ]);
    await until(() => el.shadowRoot?.querySelector('undo-notice') != null, { what: 'the notice' });
    assert.match(inShadow(el, '[data-testid=state-announcement]').textContent, /“Buy button” is paused/);
    assert.lengthOf(notices, 0, 'told beside the row, not in a toast over the page');
    await el.updateComplete;
    assert.strictEqual(must(el.shadowRoot?.querySelector('tbody tr .badge')).textContent, 'Paused');
    await expect(el).to.be.accessible();

    // Interrupting is confirmed first, then final: its notice offers no Undo.
    typeInto(select(), 'interrupted');
    await answerConfirm('confirm');
    await until(() => api.made('PATCH').length === 2, { what: 'the interrupting PATCH' });
    await until(() => select().disabled, { what: 'the interrupted row' });
    const notice = inShadow(el, 'undo-notice');
    await (notice as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    assert.match(notice.shadowRoot?.textContent ?? '', /Interrupted/);
    assert.isNull(notice.shadowRoot?.querySelector('button') ?? null, 'no Undo after interrupting');
    assert.lengthOf(api.made('PATCH'), 2);
  });

  it('undoes a pause through the same toggle route, and the campaign is active again', async () => {
    let stored = BUY;
    const api = new StubApi({
      [`GET ${listOf(ENV.id)}`]: page([BUY, BANNER]),
      'PATCH /environments/env-1/campaigns/camp-1/toggle': (call: { body: { state: 'active' | 'paused' } }) =>
        (stored = { ...stored, state: call.body.state }),
    });
    const { el, notices } = await listed(api);
    const select = () => inShadow<HTMLSelectElement>(el, 'select[aria-label="State of Buy button"]');
    typeInto(select(), 'paused');
    await until(() => el.shadowRoot?.querySelector('undo-notice') != null, { what: 'the notice' });
    const notice = inShadow(el, 'undo-notice');
    await (notice as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    // Beside the row it is about: in the actions cell of Buy button.
    assert.strictEqual(notice.closest('tr')?.querySelector('th')?.textContent.trim().split(/\s/)[0], 'Buy');
    const undo = inShadow<HTMLButtonElement>(notice, 'button');
    assert.strictEqual(undo.textContent.trim(), 'Undo');
    assert.strictEqual(undo.getAttribute('aria-label'), 'Undo: make Buy button active again');
    await expect(el).to.be.accessible();
    undo.click();
    await until(() => api.made('PATCH').length === 2, { what: 'the undoing PATCH' });
    assert.deepEqual(
      api.made('PATCH').map((c) => c.body),
      [{ state: 'paused' }, { state: 'active' }],
    );
    assert.strictEqual(stored.state, 'active', 'active again where the API keeps it');
    await until(() => must(el.shadowRoot?.querySelector('tbody tr .badge')).textContent === 'Active', {
      what: 'the row active again',
    });
    assert.strictEqual(select().value, 'active');
    assert.strictEqual(el.shadowRoot?.activeElement, select(), 'the focus on the state it restored');
    const after = inShadow(el, 'undo-notice');
    await (after as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    assert.match(after.shadowRoot?.textContent ?? '', /Undone\. Active/);
    assert.isNull(after.shadowRoot?.querySelector('button') ?? null, 'an undo is not undone in turn');
    assert.match(
      inShadow(el, '[data-testid=state-announcement]').textContent,
      /“Buy button” is back to active/,
    );
    assert.lengthOf(notices, 0);
  });

  it('shows 20 campaigns a page, with Previous and Next; a search starts again at page 1', async () => {
    const many = Array.from({ length: 45 }, (_, i) =>
      campaignOf({ id: `camp-${i + 1}`, name: `Campaign ${i + 1}`, slug: null }),
    );
    const { el } = await listed(new StubApi({ [`GET ${listOf(ENV.id)}`]: page(many) }));
    const pager = () => el.shadowRoot?.querySelector('nav.pager') ?? null;
    const button = (text: string) =>
      must([...(pager()?.querySelectorAll('button') ?? [])].find((b) => b.textContent.trim() === text));
    assert.lengthOf(rows(el), 20);
    assert.strictEqual(rows(el)[0], 'Campaign 1');
    assert.match(must(pager()).textContent, /Page 1 of 3/);
    assert.isTrue(button('Previous page').disabled);
    button('Next page').click();
    await el.updateComplete;
    assert.strictEqual(rows(el)[0], 'Campaign 21');
    button('Next page').click();
    await el.updateComplete;
    assert.deepEqual(rows(el), ['Campaign 41', 'Campaign 42', 'Campaign 43', 'Campaign 44', 'Campaign 45']);
    assert.isTrue(button('Next page').disabled);
    button('Previous page').click();
    await el.updateComplete;
    assert.match(must(pager()).textContent, /Page 2 of 3/);
    // 11 campaigns match "Campaign 1" (1, 10-19): one page, so no pager, and the search starts at page 1.
    typeInto(inShadow(el, '#search'), 'Campaign 1');
    await el.updateComplete;
    assert.lengthOf(rows(el), 11);
    assert.isNull(pager());
  });

  it('loads the campaigns of the environment chosen next', async () => {
    const staging = { ...ENV, id: 'env-2', name: 'Staging' };
    const api = new StubApi({
      [`GET ${listOf(ENV.id)}`]: page([BUY]),
      [`GET ${listOf('env-2')}`]: page([BANNER]),
    });
    const { el, change } = await listed(api);
    await change({ environments: [ENV, staging], environment: staging });
    await until(() => rows(el)[0] === 'Checkout banner', { what: 'the other environment’s rows' });
    assert.deepEqual(
      api.calls.map((c) => c.path).filter((path) => !path.endsWith('/listening')),
      [listOf(ENV.id), listOf('env-2')],
    );
    assert.match(inShadow(el, 'h1').textContent, /in Staging/);
  });

  it('shows each campaign as a card at 390 px, every field within the window', async () => {
    await setViewport({ width: 390, height: 800 });
    try {
      const api = new StubApi({ [`GET ${listOf(ENV.id)}`]: page([BUY, BANNER]) });
      const { el } = await listed(api);
      const root = must(el.shadowRoot);
      const wrap = inShadow(el, '.table-wrap');
      assert.isAtMost(wrap.scrollWidth, wrap.clientWidth, 'the table needs no sideways scroll');
      const cells = [...root.querySelectorAll('tbody tr > th, tbody tr > td')];
      assert.lengthOf(cells, 2 * 8, 'eight fields per campaign');
      assertReachable(root, cells, 'cell');
      assertTableRoles(root);
      assertReachable(root, [...root.querySelectorAll('tbody a, tbody select, tbody .badge')], 'control');
      // Each value keeps its column's name beside it.
      const state = must(cells.find((cell) => cell.getAttribute('data-label') === 'State'));
      assert.strictEqual(getComputedStyle(state, '::before').content, '"State"');
      await expect(el).to.be.accessible();
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});
