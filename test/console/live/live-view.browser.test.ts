// <live-view> with its <traffic-table>: the newest traffic of the chosen environment, exposures named after
// their campaign; a visitor id clicked in a row (a `visitor-filter` event) becomes the filter, and the screen
// reads that visitor's traffic afresh.
import { assert, expect, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import type { TrafficAnswer, TrafficExposure, TrafficHit } from '../../../src/protocol/index.js';
import '../../../server/console/src/live/live-view.js';
import type { LiveView } from '../../../server/console/src/live/live-view.js';
import type { TrafficTable } from '../../../server/console/src/live/traffic-table.js';
import { StubApi, campaignOf, inShadow, mount, must, until } from '../console-fixture.js';

const EXPOSURE = {
  kind: 'activation',
  seq: 1,
  received_at: '2026-11-05T10:00:01.000Z',
  created_at: '2026-11-05T10:00:01.000Z',
  visitor_id: 'visitor-a',
  anonymous_id: null,
  campaign_id: 'camp-1',
  variation_group_id: 'vg-1',
  variation_id: 'v-green',
  hid: null,
} satisfies TrafficExposure;
const HIT = {
  kind: 'hit',
  seq: 1,
  received_at: '2026-11-05T10:00:02.000Z',
  created_at: '2026-11-05T10:00:02.000Z',
  type: 'EVENT',
  visitor_id: 'visitor-b',
  customer_id: null,
  goal: 'add_to_cart',
  revenue: null,
  hid: null,
  body: { t: 'EVENT', vid: 'visitor-b', ea: 'add_to_cart' },
} satisfies TrafficHit;
const CURSOR = { activation: 1, hit: 1 };
const TRAFFIC = '/environments/env-1/traffic?limit=100';

const answers = (): Record<string, unknown> => ({
  'GET /environments/env-1/campaigns?items_per_page=100': { items: [campaignOf()] },
  [`GET ${TRAFFIC}`]: { items: [HIT, EXPOSURE], cursor: CURSOR } satisfies TrafficAnswer,
  [`GET ${TRAFFIC}&after_activation=1&after_hit=1`]: { items: [], cursor: CURSOR },
  [`GET ${TRAFFIC}&visitor=visitor-b`]: { items: [HIT], cursor: CURSOR },
  [`GET ${TRAFFIC}&after_activation=1&after_hit=1&visitor=visitor-b`]: { items: [], cursor: CURSOR },
});

const tableOf = (el: LiveView): TrafficTable => inShadow<TrafficTable>(el, 'traffic-table');

describe('<live-view>', () => {
  it('shows the newest traffic with campaign names, and filters by a clicked visitor', async () => {
    const api = new StubApi(answers());
    const { el } = await mount<LiveView>(html`<live-view></live-view>`, api);
    await until(() => el.shadowRoot?.querySelector('traffic-table') !== null, { what: 'the rows' });
    await until(() => tableOf(el).names.campaigns.size > 0, { what: 'the campaign names' });
    const table = tableOf(el);
    await table.updateComplete;
    assert.deepEqual(
      table.items.map((i) => i.visitor_id),
      ['visitor-b', 'visitor-a'],
    );
    assert.match(must(table.shadowRoot).textContent, /Buy button/);
    await expect(el).to.be.accessible();

    const filter = oneEvent(table, 'visitor-filter');
    must(
      [...(table.shadowRoot?.querySelectorAll('button') ?? [])].find(
        (b) => b.textContent.trim() === 'visitor-b',
      ),
    ).click();
    assert.deepEqual((await filter).detail, { visitor: 'visitor-b' });
    await until(() => api.made('GET', `${TRAFFIC}&visitor=visitor-b`).length === 1, {
      what: 'the filtered read',
    });
    assert.strictEqual(inShadow<HTMLInputElement>(el, '#visitor-id').value, 'visitor-b');
    await until(() => tableOf(el).items.length === 1, { what: 'the filtered rows' });
    assert.strictEqual(must(tableOf(el).items[0]).visitor_id, 'visitor-b');
  });
});
