// <days-chart>: visits and the chosen goal's conversions per day for each variation, as lines with a legend, and
// the same numbers in a table behind a disclosure (what a screen reader or a copy needs).
import { assert, expect, fixture } from '@open-wc/testing';
import { html } from 'lit';
import type { VariationDailySeries } from '../../../src/protocol/index.js';
import '../../../server/console/src/report/days-chart.js';
import type { DaysChart } from '../../../server/console/src/report/days-chart.js';
import { inShadow } from '../console-fixture.js';

const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03'];
const VARIATIONS: VariationDailySeries[] = [
  {
    id: 'v1',
    name: 'Original',
    reference: true,
    visits: [10, 12, 9],
    conversions: { add_to_cart: [1, 2, 0] },
    transactions: {},
  },
  {
    id: 'v2',
    name: 'Green',
    reference: false,
    visits: [11, 8, 14],
    conversions: {},
    transactions: { shop: [0, 1, 3] },
  },
];

const rowsOf = (el: DaysChart): string[][] =>
  [...(el.shadowRoot?.querySelectorAll('tbody tr') ?? [])].map((tr) =>
    [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent.trim()),
  );

describe('<days-chart>', () => {
  it("tables each day's visits and the goal's conversions, zeros where a variation has none", async () => {
    const el = await fixture<DaysChart>(
      html`<days-chart
        .days=${DAYS}
        .variations=${VARIATIONS}
        .groupLabel=${'Everyone'}
        .goal=${{ kind: 'event', name: 'add_to_cart' }}
      ></days-chart>`,
    );
    await expect(el).to.be.accessible();
    inShadow(el, 'details summary').click();
    await el.updateComplete;
    assert.deepEqual(rowsOf(el), [
      ['2026-11-01', '10', '1', '11', '0'],
      ['2026-11-02', '12', '2', '8', '0'],
      ['2026-11-03', '9', '0', '14', '0'],
    ]);
    el.goal = { kind: 'transaction', name: 'shop' };
    await el.updateComplete;
    assert.deepEqual(
      rowsOf(el).map((row) => [row[2], row[4]]),
      [
        ['0', '0'],
        ['0', '1'],
        ['0', '3'],
      ],
    );
    await expect(el).to.be.accessible();
  });
});
