// <days-chart>: visits and the chosen goal's conversions per day for each variation, as lines with a legend, and
// the same numbers in a table behind a disclosure (what a screen reader or a copy needs).
import { assert, expect, fixture } from '@open-wc/testing';
import { html } from 'lit';
import type { VariationDailySeries } from '../../../src/protocol/index.js';
import '../../../server/console/src/report/days-chart.js';
import type { DaysChart } from '../../../server/console/src/report/days-chart.js';
import { inShadow, must } from '../console-fixture.js';

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

const chartOf = (days: string[], variations: VariationDailySeries[]) =>
  fixture<DaysChart>(
    html`<days-chart
      style="display: block; width: 358px"
      .days=${days}
      .variations=${variations}
      .groupLabel=${'Everyone'}
      .goal=${{ kind: 'event', name: 'add_to_cart' }}
    ></days-chart>`,
  );

/** Each drawn mark (marker, or bar with its marker) by series, with its box and, for a bar, the bar's box. */
const marksOf = (el: DaysChart) =>
  [...(el.shadowRoot?.querySelectorAll<SVGGElement>('svg[role=img] g.mark') ?? [])].map((g) => ({
    series: g.dataset.series ?? '',
    box: g.getBoundingClientRect(),
    bar: g.querySelector('rect')?.getBoundingClientRect() ?? new DOMRect(),
  }));

const legendOf = (el: DaysChart): string => inShadow(el, '.legend').textContent.replace(/\s+/g, ' ');

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

  it('draws a single day as bars side by side, equal values included, each series visible', async () => {
    const equal: VariationDailySeries[] = [
      { ...must(VARIATIONS[0]), visits: [10], conversions: { add_to_cart: [1] } },
      { ...must(VARIATIONS[1]), visits: [10], conversions: { add_to_cart: [1] } },
    ];
    const el = await chartOf(['2026-11-01'], equal);
    const marks = marksOf(el);
    assert.deepEqual(
      marks.map((m) => m.series),
      ['Original visits', 'Original conversions', 'Green visits', 'Green conversions'],
    );
    for (const mark of marks) {
      assert.isAbove(mark.bar.width, 3, `${mark.series} has a bar`);
      assert.isAbove(mark.bar.height, 3, `${mark.series}'s bar has a height`);
    }
    // No two bars share a pixel column: equal values stand side by side.
    const sorted = marks.map((m) => m.bar).sort((a, b) => a.left - b.left);
    for (let i = 1; i < sorted.length; i++)
      assert.isAtMost(must(sorted[i - 1]).right, must(sorted[i]).left, 'bars side by side');
    // Equal values, equal heights: the bars tell the same number.
    assert.closeTo(must(marks[0]).bar.height, must(marks[2]).bar.height, 0.5);
    assert.match(legendOf(el), /Original visits\s*\(solid bar, circles\)/);
    assert.match(legendOf(el), /Green conversions\s*\(dashed bar, squares\)/);
    await expect(el).to.be.accessible();
  });

  it('spreads the markers of equal values sideways, so none hides another', async () => {
    const twins: VariationDailySeries[] = [
      { ...must(VARIATIONS[0]), visits: [10, 12, 9], conversions: { add_to_cart: [1, 2, 0] } },
      { ...must(VARIATIONS[1]), visits: [10, 12, 9], conversions: { add_to_cart: [1, 2, 0] } },
    ];
    const el = await chartOf(DAYS, twins);
    const marks = marksOf(el);
    assert.lengthOf(marks, 4 * DAYS.length);
    // Marks drawn on the same spot would have the same box: every pair of boxes is apart.
    for (let i = 0; i < marks.length; i++)
      for (let j = i + 1; j < marks.length; j++) {
        const a = must(marks[i]).box;
        const b = must(marks[j]).box;
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        assert.isTrue(apart, `${must(marks[i]).series} and ${must(marks[j]).series} overlap`);
      }
  });
});
