// <report-group>: one variation group of PROTOCOL.md §14.5's example report for the chosen goal: the figures
// table (reference not compared), a verdict sentence led by a word (not by colour alone), a revenue column for a
// transaction goal, and the red banner of a broken split (§14.8) with no verdict under it.
import { assert, expect, fixture } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { html } from 'lit';
import '../../../server/console/src/report/report-group.js';
import type { ReportGroupView } from '../../../server/console/src/report/report-group.js';
import { exampleReport } from '../../support/report-example.js';
import { inShadow, must, until } from '../console-fixture.js';
import { assertReachable, assertTableRoles } from '../reachable.js';

const groupOf = async (mismatch = false) => {
  const report = exampleReport('sequential', mismatch);
  return fixture<ReportGroupView>(
    html`<report-group
      .group=${must(report.variation_groups[0])}
      .analysis=${report.analysis}
      .groupLabel=${'Everyone'}
      .goal=${{ kind: 'event', name: 'add_to_cart' }}
    ></report-group>`,
  );
};

const cells = (el: ReportGroupView, variation: string): string[] => {
  const row = must(
    [...(el.shadowRoot?.querySelectorAll('tbody tr') ?? [])].find((r) =>
      r.querySelector('th')?.textContent.startsWith(variation),
    ),
    `the row of ${variation}`,
  );
  return [...row.querySelectorAll('td')].map((td) => td.textContent.replace(/[ \t\n]+/g, ' ').trim());
};

describe('<report-group>', () => {
  it("shows the example's figures and an undecided verdict on the primary goal", async () => {
    const el = await groupOf();
    await expect(el).to.be.accessible();
    // §14.5: Green has 1180 visits, 990 visitors, 160 conversions by 125 visitors (12.63 %, +26.3 % uplift).
    assert.deepEqual(cells(el, 'Green').slice(0, 6), [
      '1180',
      '990',
      '160',
      '125',
      '12.63\u00a0%',
      '+26.3\u00a0%',
    ]);
    assert.strictEqual(cells(el, 'Green')[8], 'inconclusive');
    assert.match(cells(el, 'Original')[5] ?? '', /not compared: this is the reference/);
    const sentence = inShadow(el, '[data-testid=verdict-v2]');
    assert.strictEqual(must(sentence.querySelector('strong')).textContent, 'Undecided.');
    assert.isNull(el.shadowRoot?.querySelector('[data-testid=sample-ratio-mismatch]') ?? null);
    assert.isFalse(
      [...(el.shadowRoot?.querySelectorAll('thead th') ?? [])].some((th) => th.textContent === 'Revenue'),
    );

    el.goal = { kind: 'transaction', name: 'Purchase' };
    await el.updateComplete;
    assert.strictEqual(
      cells(el, 'Green').at(-1),
      (812.5).toLocaleString(undefined, { minimumFractionDigits: 2 }),
    );
    await expect(el).to.be.accessible();
  });

  it('says the split is broken and draws no verdict', async () => {
    const el = await groupOf(true);
    const banner = inShadow(el, '[data-testid=sample-ratio-mismatch]');
    assert.strictEqual(banner.getAttribute('role'), 'alert');
    assert.match(
      banner.textContent,
      /1000 \/ 990; the allocations promise 995 \/ 995 \(sample-ratio test p\s+< 0\.0001\)/,
    );
    assert.strictEqual(
      must(inShadow(el, '[data-testid=verdict-v2]').querySelector('strong')).textContent,
      'No verdict.',
    );
    assert.strictEqual(cells(el, 'Green')[8], 'sample ratio mismatch');
    await expect(el).to.be.accessible();
  });

  it('shows each variation as a card at 390 px, every figure within the window', async () => {
    await setViewport({ width: 390, height: 800 });
    try {
      const report = exampleReport('sequential');
      const el = await fixture<ReportGroupView>(
        html`<report-group
          .group=${must(report.variation_groups[0])}
          .analysis=${report.analysis}
          .groupLabel=${'Everyone'}
          .goal=${{ kind: 'transaction', name: 'shop' }}
        ></report-group>`,
      );
      const root = must(el.shadowRoot);
      // The rate chart draws at a default width first, then at its box's (chart-kit.ts WidthController).
      await until(() => document.documentElement.scrollWidth <= window.innerWidth, {
        what: 'the chart redrawn at the window width',
      });
      const wrap = inShadow(el, '.table-wrap');
      assert.isAtMost(wrap.scrollWidth, wrap.clientWidth, 'the table needs no sideways scroll');
      const rows = [...root.querySelectorAll('tbody tr')];
      assert.isAbove(rows.length, 1);
      for (const row of rows) {
        // Variation, ten figures and the verdict: Revenue included, as the goal is a transaction.
        const cells = [...row.querySelectorAll(':scope > th, :scope > td')];
        assert.lengthOf(cells, 11);
        assertReachable(root, cells, 'cell');
      }
      const labels = [...root.querySelectorAll('tbody tr:first-child td')].map((td) =>
        td.getAttribute('data-label'),
      );
      assert.deepEqual(labels.slice(-2), ['Verdict', 'Revenue']);
      assertTableRoles(root);
      await expect(el).to.be.accessible();
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});
