// What a visit is (PROTOCOL.md §14.1) when the client sends no idempotency id, as the platform's own SDKs do
// (one activation per flag read, again after their 2.5 s window): one visit per (vid, variation group,
// variation) per 30 minutes, the window opening at the first such activation (by created time, received −
// qt); activations with a hid count once each, after idempotency. Expected counts follow from that rule
// applied by hand to the activations each test sends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CampaignReport } from '../../../src/protocol/index.js';
import { buildCampaignReport } from '../../../server/src/report/build-report.js';
import { VISIT_WINDOW_MS, visitCounter } from '../../../server/src/report/visit-window.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { checkoutCampaign, post, seedEnvironment, startApp, type Running } from '../support.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);

void describe('visitCounter', () => {
  const at = (visitorId: string, createdMs: number, hid: string | null = null, variationId = 'v2') => ({
    visitorId,
    hid,
    variationGroupId: 'vg1',
    variationId,
    createdMs,
  });

  void it('counts one visit per vid, group and variation per window opened by the first activation', () => {
    const isVisit = visitCounter();
    const seen = [
      at('a', T0),
      at('a', T0 + 1),
      at('a', T0 + VISIT_WINDOW_MS - 1),
      at('a', T0 + VISIT_WINDOW_MS), // a new window opens here…
      at('a', T0 + VISIT_WINDOW_MS + 20 * MINUTE), // …and holds this one
      at('a', T0 + 2 * VISIT_WINDOW_MS + 1), // the second window ended at T0 + 2 × 30 min
      at('b', T0 + 5),
      at('a', T0 + 6, null, 'v1'),
    ].map(isVisit);
    assert.deepEqual(seen, [true, false, false, true, false, true, true, true]);
    assert.equal(VISIT_WINDOW_MS, 30 * MINUTE);
  });

  void it('counts every activation that has a hid, and opens no window for it', () => {
    const isVisit = visitCounter();
    assert.deepEqual(
      [at('a', T0, 'h1'), at('a', T0 + 1, 'h2'), at('a', T0 + 2), at('a', T0 + 3)].map(isVisit),
      [true, true, true, false],
    );
  });
});

void describe('visits in the campaign report, from activations without hid', () => {
  let store: Store;
  let server: Running;
  let now = T0;

  before(async () => {
    store = await openFreshPgliteStore();
    server = await startApp(store, { now: () => now });
  });
  after(async () => {
    await server.close();
    await store.close();
  });

  /** Sends `batch` received at `receivedMs` (each item's created time is receivedMs − qt). */
  const activate = async (envId: string, receivedMs: number, batch: object[]): Promise<void> => {
    now = receivedMs;
    const answer = await post(`${server.url}/v2/activate`, { cid: envId, batch });
    assert.equal(answer.status, 204, JSON.stringify(answer.body));
  };
  const item = (vid: string, vaid: string, qt = 0, extra: object = {}) => ({
    vid,
    aid: null,
    caid: 'vg1',
    vaid,
    qt,
    ...extra,
  });
  const figures = (report: CampaignReport) =>
    Object.fromEntries(
      (report.variation_groups[0]?.variations ?? []).map((v) => [
        v.id,
        { visits: v.visits, visitors: v.visitors },
      ]),
    );

  void it('counts 10 visits for 10 visitors whose SDK sent 31 activations', async () => {
    const env = await seedEnvironment(store, [checkoutCampaign()]);
    // Visitors 0-4 see v1, 5-9 see v2; each flag read sends an activation, again 2.5 s later; one more.
    const reads = (offsetMs: number) =>
      Array.from({ length: 10 }, (_, i) => item(`visitor-${i}`, i < 5 ? 'v1' : 'v2', offsetMs));
    await activate(env.envId, T0 + 10_000, [...reads(10_000), ...reads(5_000), ...reads(2_500)]);
    await activate(env.envId, T0 + 12_000, [item('visitor-3', 'v1')]);
    const report = await buildCampaignReport(store, env.envId, 'c1');
    assert.deepEqual(figures(report), {
      v1: { visits: 5, visitors: 5 },
      v2: { visits: 5, visitors: 5 },
    });
  });

  void it('opens a new visit 30 minutes after the first activation, by created time', async () => {
    const env = await seedEnvironment(store, [checkoutCampaign()]);
    // Received first but created 10 minutes after the next one: the window opens at the earlier creation.
    await activate(env.envId, T0 + 10 * MINUTE, [item('p1', 'v2')]);
    await activate(env.envId, T0 + 11 * MINUTE, [item('p1', 'v2', 11 * MINUTE)]); // created at T0
    await activate(env.envId, T0 + 29 * MINUTE, [item('p1', 'v2')]); // same window
    await activate(env.envId, T0 + 30 * MINUTE, [item('p1', 'v2')]); // a second visit opens
    await activate(env.envId, T0 + 59 * MINUTE, [item('p1', 'v2')]); // inside the second
    await activate(env.envId, T0 + 61 * MINUTE, [item('p1', 'v2')]); // a third
    const report = await buildCampaignReport(store, env.envId, 'c1');
    assert.deepEqual(figures(report), {
      v1: { visits: 0, visitors: 0 },
      v2: { visits: 3, visitors: 1 },
    });
  });

  void it('keys windows by vid, group and variation; a second variation still counts for the first', async () => {
    const env = await seedEnvironment(store, [checkoutCampaign()]);
    await activate(env.envId, T0, [
      item('p2', 'v1'),
      item('p2', 'v2'), // a second variation of the same group: a visit of v2, its person counts for v1
      item('p2', 'v2'),
      // Authenticated: vid is the user id, aid the anonymous one; both reads are one visit.
      { ...item('user-3', 'v2'), aid: 'anon-3' },
      { ...item('user-3', 'v2'), aid: 'anon-3' },
      item('anon-3', 'v2'), // another vid: its own window (the person is still user-3)
    ]);
    const report = await buildCampaignReport(store, env.envId, 'c1');
    assert.deepEqual(figures(report), {
      v1: { visits: 1, visitors: 1 },
      v2: { visits: 3, visitors: 1 },
    });
  });

  void it('counts activations with a hid once each, duplicates dropped, beside windows of those without', async () => {
    const env = await seedEnvironment(store, [checkoutCampaign()]);
    await activate(env.envId, T0, [
      item('p4', 'v2', 0, { hid: 'p4-1' }),
      item('p4', 'v2', 0, { hid: 'p4-2' }),
      item('p4', 'v2', 0, { hid: 'p4-1' }), // a re-send: a duplicate
      item('p4', 'v2'), // no hid: its own window
      item('p4', 'v2'),
    ]);
    const report = await buildCampaignReport(store, env.envId, 'c1');
    assert.deepEqual(figures(report), {
      v1: { visits: 0, visitors: 0 },
      v2: { visits: 3, visitors: 1 },
    });
  });
});
