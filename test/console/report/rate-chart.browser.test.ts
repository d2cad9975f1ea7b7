// <rate-chart>: bars of conversion rate per variation of PROTOCOL.md §14.5's example, whose text alternative says
// every bar and, beside the reference, the interval of the difference the report's method gives.
import { assert, expect, fixture } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/report/rate-chart.js';
import type { RateChart } from '../../../server/console/src/report/rate-chart.js';
import { exampleReport } from '../../support/report-example.js';
import { inShadow, must } from '../console-fixture.js';

const chartOf = (method: 'sequential' | 'fixed') => {
  const report = exampleReport(method);
  return fixture<RateChart>(
    html`<rate-chart
      .group=${must(report.variation_groups[0])}
      .groupLabel=${'Everyone'}
      .goal=${{ kind: 'event', name: 'add_to_cart' }}
      .analysis=${report.analysis}
    ></rate-chart>`,
  );
};

describe('<rate-chart>', () => {
  it("says each bar in words, with the interval of the report's method", async () => {
    const sequential = await chartOf('sequential');
    await expect(sequential).to.be.accessible();
    const said = inShadow(sequential, 'svg[role=img]').getAttribute('aria-label') ?? '';
    assert.match(said, /^Conversion rate by variation \(add_to_cart, group Everyone\): /);
    assert.match(said, /Original \(reference\) 10\.0\u00a0%;/);
    // §14.5's always-valid interval of Green: [−1.8, +7.1] points.
    assert.match(
      said,
      /Green 12\.6\u00a0%, always-valid interval of the difference from the reference [^;]*1\.8[^;]*7\.1/,
    );

    const fixed = await chartOf('fixed');
    // The fixed-horizon 95 % interval: [−0.2, +5.4] points.
    assert.match(
      inShadow(fixed, 'svg[role=img]').getAttribute('aria-label') ?? '',
      /Green 12\.6\u00a0%, 95 % interval[^;]*0\.2[^;]*5\.4/,
    );
  });
});
