// <listening-now>: reads how many pages listen to the chosen environment on this server and says so, with the
// instance named; follows another environment; shows nothing when the count cannot be read. In the campaign list
// and the report header.
import { assert, expect } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/widgets/listening-now.js';
import '../../../server/console/src/campaigns/campaigns-view.js';
import type { ListeningNow } from '../../../server/console/src/widgets/listening-now.js';
import { ENV, StubApi, campaignOf, mount, until } from '../console-fixture.js';

const listening = (count: number, envId = 'env-1') => ({
  env_id: envId,
  listening: count,
  counted_on: 'this-instance',
});

const textOf = (el: Element): string => el.shadowRoot?.textContent.replace(/\s+/g, ' ').trim() ?? '';

describe('<listening-now>', () => {
  it('says how many pages listen now on this server, and follows the chosen environment', async () => {
    const stub = new StubApi({
      'GET /environments/env-1/listening': listening(2),
      'GET /environments/env-2/listening': listening(1, 'env-2'),
    });
    const { el, change } = await mount<ListeningNow>(html`<listening-now></listening-now>`, stub);
    await until(() => textOf(el) !== '', { what: 'the count' });
    assert.strictEqual(textOf(el), '2 pages listening now (this server)');
    await expect(el).to.be.accessible();

    await change({ environment: { ...ENV, id: 'env-2', name: 'staging' } });
    await until(() => textOf(el) === '1 page listening now (this server)', { what: 'the other environment' });
  });

  it('shows nothing when the count cannot be read', async () => {
    // No answer for …/listening: the stub answers 404, as a server without the route would.
    const stub = new StubApi();
    const { el } = await mount<ListeningNow>(html`<listening-now></listening-now>`, stub);
    await until(() => stub.made('GET', '/environments/env-1/listening').length === 1, { what: 'the read' });
    await el.updateComplete;
    assert.strictEqual(textOf(el), '');
  });

  it('is shown in the campaign list', async () => {
    const stub = new StubApi({
      'GET /environments/env-1/campaigns?_page=1&_max_per_page=100': {
        items: [campaignOf({ id: 'c1', name: 'Buy button' })],
        current_items_count: 1,
        current_page: 1,
        total_count: 1,
        items_per_page: 100,
        last_page: 1,
      },
      'GET /environments/env-1/listening': listening(3),
    });
    const { el } = await mount<HTMLElement>(html`<campaigns-view></campaigns-view>`, stub);
    const widget = await until(() => el.shadowRoot?.querySelector('listening-now'), { what: 'the widget' });
    await until(() => textOf(widget) === '3 pages listening now (this server)', { what: 'the count' });
  });
});
