// <report-view>: reads the campaign, its report and its daily series from the chosen environment; leads with the
// primary goal; a goal chosen in the select reaches every group; Download CSV saves the figures on screen; a
// series that cannot be read is said without hiding the figures.
import { assert, expect } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/report/report-view.js';
import type { ReportView } from '../../../server/console/src/report/report-view.js';
import type { ReportGroupView } from '../../../server/console/src/report/report-group.js';
import { exampleReport } from '../../support/report-example.js';
import { StubApi, campaignOf, inShadow, mount, must, typeInto, until } from '../console-fixture.js';

const CAMPAIGN = campaignOf({ id: 'c1', name: 'Buy button' });
const api = () =>
  new StubApi({
    'GET /environments/env-1/campaigns/c1': {
      ...CAMPAIGN,
      variation_groups: [{ ...must(CAMPAIGN.variation_groups[0]), id: 'vg1' }],
    },
    'GET /environments/env-1/campaigns/c1/report': exampleReport(),
    // No route for /reports/c1/days: the stub answers 404, as a server without the series would.
  });

const open = async (stub: StubApi) => {
  const mounted = await mount<ReportView>(html`<report-view .campaignId=${'c1'}></report-view>`, stub);
  await until(() => mounted.el.shadowRoot?.querySelector('report-group') !== null, { what: 'the report' });
  return mounted;
};

describe('<report-view>', () => {
  it('reads the report of the chosen environment and leads with the primary goal', async () => {
    const stub = api();
    const { el } = await open(stub);
    assert.deepEqual(stub.calls.map((c) => `${c.method} ${c.path}`).sort(), [
      'GET /environments/env-1/campaigns/c1',
      'GET /environments/env-1/campaigns/c1/report',
      'GET /environments/env-1/listening',
      'GET /environments/env-1/reports/c1/days',
    ]);
    assert.strictEqual(inShadow(el, 'h1').textContent.trim(), 'Report: Buy button');
    assert.strictEqual(inShadow<HTMLSelectElement>(el, '#goal').value, 'event:add_to_cart');
    const group = inShadow<ReportGroupView>(el, 'report-group');
    assert.strictEqual(group.groupLabel, 'Everyone');
    assert.match(group.daysError, /The daily series could not be read/);
    await expect(el).to.be.accessible();

    typeInto(inShadow(el, '#goal'), 'transaction:Purchase');
    await el.updateComplete;
    assert.deepEqual(group.goal, { kind: 'transaction', name: 'Purchase' });
  });

  it('downloads the figures on screen as CSV', async () => {
    const { el } = await open(api());
    const made: Blob[] = [];
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      if (blob instanceof Blob) made.push(blob);
      return create(blob);
    };
    let name = '';
    const onClick = (event: Event) => {
      const link = event.composedPath()[0];
      if (link instanceof HTMLAnchorElement) {
        name = link.download;
        event.preventDefault();
      }
    };
    document.addEventListener('click', onClick, true);
    try {
      must(
        [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find(
          (b) => b.textContent.trim() === 'Download CSV',
        ),
      ).click();
    } finally {
      URL.createObjectURL = create;
      document.removeEventListener('click', onClick, true);
    }
    assert.lengthOf(made, 1);
    const bytes = new Uint8Array(await must(made[0]).arrayBuffer());
    // A UTF-8 byte order mark, so that spreadsheets read the names (text() would drop it).
    assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
    const text = await must(made[0]).text();
    assert.match(text, /Everyone/);
    assert.match(name, /\.csv$/);
  });
});
