// Campaign reports (§14): exact counts from known activations and hits, persons (§14.2), attribution with
// the 1 s slack (§14.4), and the comparison figures. Expected figures come from the specification's own
// example and from Python's math.erfc (see the constants' comments), never from the code under test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CampaignReport } from '../../../src/protocol/index.js';
import { buildCampaignReport } from '../../../server/src/report/build-report.js';
import { twoProportionPValue, uplift, waldInterval95 } from '../../../server/src/report/statistics.js';
import { checkoutCampaign, describeOnEveryStore, post, seedEnvironment } from '../support.js';

const close = (actual: number | null | undefined, expected: number): void => {
  assert.ok(typeof actual === 'number', `expected a number, got ${String(actual)}`);
  assert.ok(Math.abs(actual - expected) <= 1e-12 * Math.abs(expected), `${actual} ≠ ${expected}`);
};

void describe('report statistics (§14.5 example)', () => {
  void it('matches the figures of PROTOCOL.md §14.5', () => {
    const ref = { successes: 100, trials: 1000 };
    const green = { successes: 125, trials: 990 };
    close(uplift(125 / 990, 0.1), 0.26262626262626254);
    close(twoProportionPValue(ref, green), 0.06434612717580569);
    const ci = waldInterval95(ref, green);
    close(ci?.[0], -0.0015546919457432376);
    close(ci?.[1], 0.05407994447099577);
    const purchase = { successes: 38, trials: 990 };
    close(twoProportionPValue({ successes: 0, trials: 1000 }, purchase), 3.962880821920555e-10);
    const ci2 = waldInterval95({ successes: 0, trials: 1000 }, purchase);
    close(ci2?.[0], 0.026416279538269957);
    close(ci2?.[1], 0.050351397229406805);
    assert.equal(uplift(0.5, 0), null);
    assert.equal(twoProportionPValue({ successes: 0, trials: 0 }, purchase), null);
    assert.equal(twoProportionPValue({ successes: 0, trials: 5 }, { successes: 0, trials: 5 }), null);
  });
});

describeOnEveryStore('campaign report', [checkoutCampaign()], (fixture) => {
  void it('counts visits, persons, conversions and revenue exactly', async () => {
    let n = 0;
    const hid = (): string => `hid-${++n}`;
    const activation = (vid: string, vaid: string, aid: string | null = null) => ({
      vid,
      aid,
      caid: 'vg1',
      vaid,
      qt: 0,
      hid: hid(),
    });
    const activations = {
      cid: fixture.env.envId,
      batch: [
        activation('a1', 'v1'),
        activation('u2', 'v2', 'a2'), // authenticated: person u2, and a2's person becomes u2
        activation('a3', 'v2'),
        activation('a3', 'v2'), // a second visit of the same person
        activation('a4', 'v1'),
        activation('a4', 'v2'), // a second variation of the same group: counts for v1 only
      ],
    };
    assert.equal((await post(`${fixture.server.url}/v2/activate`, activations)).status, 204);
    const event = (vid: string, ea: string, qt = 0) => ({
      t: 'EVENT',
      vid,
      cuid: null,
      qt,
      hid: hid(),
      ec: 'Action Tracking',
      ea,
    });
    const hits = {
      cid: fixture.env.envId,
      t: 'BATCH',
      h: [
        event('a1', 'add_to_cart'),
        event('a1', 'add_to_cart', 500), // created 0.5 s before the exposure: within the slack
        event('a1', 'add_to_cart', 5000), // created 5 s before: not attributed
        event('a2', 'add_to_cart'), // anonymous id of u2
        {
          t: 'TRANSACTION',
          vid: 'a3',
          cuid: null,
          qt: 0,
          hid: hid(),
          tid: 'T1',
          ta: 'Purchase',
          tr: 20,
          tc: 'EUR',
        },
        {
          t: 'EVENT',
          vid: 'a3',
          cuid: null,
          qt: 0,
          hid: hid(),
          ec: 'User Engagement',
          ea: 'fs_consent',
          el: 'feature-ts:true',
        },
        event('a4', 'add_to_cart'),
        event('a5', 'add_to_cart'), // never exposed
      ],
    };
    const answer = await post(`${fixture.server.url}/events`, hits);
    assert.deepEqual(answer.body, { accepted: 8, duplicates: 0, rejected: [], rejectedCount: 0 });

    const report: CampaignReport = await buildCampaignReport(fixture.store, fixture.env.envId, 'c1');
    assert.equal(report.campaign_id, 'c1');
    const [group] = report.variation_groups;
    assert.equal(group?.id, 'vg1');
    const [v1, v2] = group.variations;
    assert.ok(v1 !== undefined && v2 !== undefined);
    assert.deepEqual(
      { id: v1.id, name: v1.name, reference: v1.reference, visits: v1.visits, visitors: v1.visitors },
      { id: 'v1', name: 'Original', reference: true, visits: 2, visitors: 2 },
    );
    // The reference has no comparison of its own: nulls, and the verdict `reference` (§14.8).
    const none = {
      uplift: null,
      p_value: null,
      ci95: null,
      sequential: { p_value: null, interval: null, adjusted_p_value: null },
      verdict: 'reference',
    };
    assert.deepEqual(v1.events, { add_to_cart: { conversions: 3, visitors: 2, rate: 1, ...none } });
    assert.deepEqual(v1.transactions, {
      Purchase: { conversions: 0, visitors: 0, rate: 0, revenue: 0, ...none },
    });
    // No analysis stored: the defaults (§14.6); 4 visitors are too few for a sample-ratio test.
    assert.deepEqual(report.analysis, {
      primary_goal: null,
      method: 'sequential',
      alpha: 0.05,
      expected_visitors: 5000,
    });
    assert.equal(group.srm, null);
    assert.deepEqual({ visits: v2.visits, visitors: v2.visitors }, { visits: 4, visitors: 2 });
    const cart = v2.events.add_to_cart;
    assert.deepEqual(
      { c: cart?.conversions, v: cart?.visitors, r: cart?.rate, u: cart?.uplift },
      { c: 1, v: 1, r: 0.5, u: -0.5 },
    );
    // Python: math.erfc(abs(z)/sqrt(2)) with pooled SE for 2/2 vs 1/2; Wald bounds with z = 1.959963984540054.
    close(cart?.p_value, 0.24821307898992362);
    close(cart?.ci95?.[0], -1.192951912174839);
    close(cart?.ci95?.[1], 0.19295191217483898);
    // mpmath (test/fixtures/report-statistics.py's sequential()) for 1/2 against 2/2, alpha 0.05, S 5000.
    close(cart?.sequential.p_value, 0.9968604965112151);
    close(cart?.sequential.adjusted_p_value, 0.9968604965112151);
    close(cart?.sequential.interval?.[0], -11.401217317765123);
    close(cart?.sequential.interval?.[1], 10.401217317765123);
    assert.equal(cart?.verdict, 'exploratory');
    const purchase = v2.transactions.Purchase;
    assert.deepEqual(
      {
        c: purchase?.conversions,
        v: purchase?.visitors,
        r: purchase?.rate,
        rev: purchase?.revenue,
        u: purchase?.uplift,
      },
      { c: 1, v: 1, r: 0.5, rev: 20, u: null },
    );
    close(purchase?.p_value, 0.24821307898992362);
    close(purchase?.ci95?.[0], -0.19295191217483898);
    close(purchase?.ci95?.[1], 1.192951912174839);
    assert.equal(Object.keys(v2.events).includes('fs_consent'), false);
  });

  void it('keeps reporting a deleted campaign and accepts its cached activations', async () => {
    const other = await seedEnvironment(fixture.store, [checkoutCampaign()]);
    await fixture.store.replaceCampaigns(other.envId, []);
    const late = {
      cid: other.envId,
      batch: [{ vid: 'late', caid: 'vg1', vaid: 'v2', qt: 3_600_000, hid: 'late-1' }],
    };
    assert.equal((await post(`${fixture.server.url}/v2/activate`, late)).status, 204);
    const report = await buildCampaignReport(fixture.store, other.envId, 'c1');
    assert.equal(report.variation_groups[0]?.variations[1]?.visits, 1);
    await assert.rejects(buildCampaignReport(fixture.store, other.envId, 'nope'), /No campaign "nope"/);
  });
});
