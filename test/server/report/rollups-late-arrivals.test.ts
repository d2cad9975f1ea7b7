// Issue 31, one case per kind of late arrival: the report read from the rollups (folded as rows arrive, and on
// each read) has exactly the figures PROTOCOL.md §14 gives by hand, and equals the report and daily series
// computed from every stored row (scanCampaign). Rows go in through the store's ingest path in the order
// written, with reads between them, so that each late row is folded after the rows it corrects.
// (j): revenue is summed in millionths, so revenue moved out of a variation leaves exactly 0.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import { describeOnEveryStoreWith } from '../support.js';
import {
  activation,
  DAY,
  DAY0,
  figuresOf,
  hit,
  HOUR,
  MINUTE,
  rollupEnvironment,
  rollupMismatches,
  rollupReport,
  seriesFiguresOf,
  type VariationFigures,
} from './rollups-support.js';

/** 10:00 UTC on day 0: every case's rows sit around it. */
const T = DAY0 + 10 * HOUR;
const C1 = ['v1', 'v2', 'v3', 'v4', 'v5'];
const C2 = ['v6', 'v7', 'v8'];
const C3 = ['v9', 'v10'];
/** The series' days: day 0 to NOW's day (DAY0 + 6 days). */
const DAYS = [
  '2026-11-20',
  '2026-11-21',
  '2026-11-22',
  '2026-11-23',
  '2026-11-24',
  '2026-11-25',
  '2026-11-26',
];

/** Expected figures: every variation of `ids` with nothing counted, then `set` over them. */
const expected = (
  ids: readonly string[],
  goals: VariationFigures['goals'],
  set: Record<string, Partial<VariationFigures>>,
): Record<string, VariationFigures> =>
  Object.fromEntries(
    ids.map((id) => [id, { visits: 0, visitors: 0, ...set[id], goals: { ...goals, ...set[id]?.goals } }]),
  );

/** A day series of 7 days with `counts` at the given day indexes. */
const days = (counts: Record<number, number> = {}): number[] => DAYS.map((_, i) => counts[i] ?? 0);

/** The rollups' report figures of a campaign, after checking they equal the reference's (report and series). */
const reportFigures = async (store: Store, envId: string, campaignId: string) => {
  assert.deepEqual(await rollupMismatches(store, envId, campaignId), [], 'rollups differ from scanCampaign');
  const { report, series } = await rollupReport(store, envId, campaignId);
  return { figures: figuresOf(report), series: seriesFiguresOf(series) };
};

describeOnEveryStoreWith(
  'report rollups: late arrivals',
  {
    start: async (store) => ({ store, accountId: (await store.createAccount('late arrivals')).id }),
    stop: () => Promise.resolve(),
  },
  (_kind, started) => {
    const environment = (name: string): Promise<{ store: Store; envId: string }> => {
      const { store, accountId } = started('store');
      return rollupEnvironment(store, accountId, name).then((envId) => ({ store, envId }));
    };

    void it('(a) a goal hit stored before its exposure is attributed once the exposure arrives', async () => {
      const { store, envId } = await environment('a');
      await store.insertHits(envId, [
        hit({ type: 'EVENT', vid: 'a1', goal: 'add_to_cart', createdMs: T + MINUTE, hid: 'h1' }),
      ]);
      // Not exposed yet: the goal is not even seen in the campaign.
      assert.deepEqual((await reportFigures(store, envId, 'c1')).figures, expected(C1, {}, {}));
      await store.insertActivations(envId, [
        activation({ vid: 'a1', group: 'g1', variation: 'v1', createdMs: T, qt: 2 * MINUTE, hid: 'e1' }),
      ]);
      const { figures, series } = await reportFigures(store, envId, 'c1');
      assert.deepEqual(
        figures,
        expected(
          C1,
          { add_to_cart: [0, 0] },
          { v1: { visits: 1, visitors: 1, goals: { add_to_cart: [1, 1] } } },
        ),
      );
      assert.deepEqual(series.days, DAYS);
      assert.deepEqual(series.variations.v1, {
        visits: days({ 0: 1 }),
        goals: { add_to_cart: days({ 0: 1 }) },
      });
      assert.deepEqual(series.variations.v2, { visits: days(), goals: { add_to_cart: days() } });
    });

    void it('(b) an exposure older than the stored first one moves the person, and their conversions, to its variation', async () => {
      const { store, envId } = await environment('b');
      await store.insertActivations(envId, [
        activation({ vid: 'a2', group: 'g1', variation: 'v1', createdMs: T + HOUR, hid: 'e1' }),
      ]);
      await store.insertHits(envId, [
        hit({ type: 'EVENT', vid: 'a2', goal: 'add_to_cart', createdMs: T + 2 * HOUR, hid: 'h1' }),
        hit({
          type: 'TRANSACTION',
          vid: 'a2',
          goal: 'purchase',
          revenue: 30.5,
          createdMs: T + 3 * HOUR,
          hid: 'h2',
        }),
      ]);
      const goals: VariationFigures['goals'] = { add_to_cart: [0, 0], $purchase: [0, 0, 0] };
      assert.deepEqual(
        (await reportFigures(store, envId, 'c1')).figures,
        expected(C1, goals, {
          v1: { visits: 1, visitors: 1, goals: { add_to_cart: [1, 1], $purchase: [1, 1, 30.5] } },
        }),
      );
      // Created at T (an hour before the stored first exposure), received after everything else.
      await store.insertActivations(envId, [
        activation({ vid: 'a2', group: 'g1', variation: 'v2', createdMs: T, qt: 4 * HOUR, hid: 'e2' }),
      ]);
      const { figures, series } = await reportFigures(store, envId, 'c1');
      assert.deepEqual(
        figures,
        expected(C1, goals, {
          v1: { visits: 1, visitors: 0 },
          v2: { visits: 1, visitors: 1, goals: { add_to_cart: [1, 1], $purchase: [1, 1, 30.5] } },
        }),
      );
      assert.deepEqual(series.variations.v1, {
        visits: days({ 0: 1 }),
        goals: { add_to_cart: days(), $purchase: days() },
      });
      assert.deepEqual(series.variations.v2, {
        visits: days({ 0: 1 }),
        goals: { add_to_cart: days({ 0: 1 }), $purchase: days({ 0: 1 }) },
      });
    });

    void it('(c) a late identity link merges an anonymous visitor into a person exposed on another device', async () => {
      const { store, envId } = await environment('c');
      await store.insertActivations(envId, [
        activation({ vid: 'u3', group: 'g1', variation: 'v1', createdMs: T, hid: 'e1' }),
        activation({ vid: 'a3', group: 'g1', variation: 'v2', createdMs: T + 10 * MINUTE, hid: 'e2' }),
      ]);
      await store.insertHits(envId, [
        hit({ type: 'EVENT', vid: 'a3', goal: 'add_to_cart', createdMs: T + 20 * MINUTE, hid: 'h1' }),
      ]);
      assert.deepEqual(
        (await reportFigures(store, envId, 'c1')).figures,
        expected(
          C1,
          { add_to_cart: [0, 0] },
          {
            v1: { visits: 1, visitors: 1 },
            v2: { visits: 1, visitors: 1, goals: { add_to_cart: [1, 1] } },
          },
        ),
      );
      // A page view signed in on the anonymous device: a3's person is u3 from now on (§14.2).
      await store.insertHits(envId, [
        hit({ type: 'PAGEVIEW', vid: 'a3', cuid: 'u3', createdMs: T + 30 * MINUTE, hid: 'h2' }),
      ]);
      const { figures, series } = await reportFigures(store, envId, 'c1');
      // One person: counted once, for their first exposure (v1 at T); the conversion follows it.
      assert.deepEqual(
        figures,
        expected(
          C1,
          { add_to_cart: [0, 0] },
          {
            v1: { visits: 1, visitors: 1, goals: { add_to_cart: [1, 1] } },
            v2: { visits: 1, visitors: 0 },
          },
        ),
      );
      assert.deepEqual(series.variations.v1, {
        visits: days({ 0: 1 }),
        goals: { add_to_cart: days({ 0: 1 }) },
      });
      assert.deepEqual(series.variations.v2, { visits: days({ 0: 1 }), goals: { add_to_cart: days() } });
    });

    void it('(d) an exposure queued for a day counts the hits sent after it that arrived before it', async () => {
      const { store, envId } = await environment('d');
      await store.insertHits(envId, [
        hit({ type: 'EVENT', vid: 'a4', goal: 'signup', createdMs: T + 5 * MINUTE, hid: 'h1' }),
        hit({
          type: 'TRANSACTION',
          vid: 'a4',
          goal: 'purchase',
          revenue: 12.25,
          createdMs: T + 2 * HOUR,
          hid: 'h2',
        }),
      ]);
      await store.insertHits(envId, [
        // 09:00 on day 1.
        hit({ type: 'EVENT', vid: 'a4', goal: 'signup', createdMs: T + 23 * HOUR, hid: 'h3' }),
      ]);
      assert.deepEqual((await reportFigures(store, envId, 'c2')).figures, expected(C2, {}, {}));
      await store.insertActivations(envId, [
        activation({ vid: 'a4', group: 'g3', variation: 'v7', createdMs: T, qt: DAY, hid: 'e1' }),
      ]);
      const { figures, series } = await reportFigures(store, envId, 'c2');
      assert.deepEqual(
        figures,
        expected(
          C2,
          { signup: [0, 0], $purchase: [0, 0, 0] },
          {
            v7: { visits: 1, visitors: 1, goals: { signup: [2, 1], $purchase: [1, 1, 12.25] } },
          },
        ),
      );
      assert.deepEqual(series.days, DAYS);
      assert.deepEqual(series.variations.v7, {
        visits: days({ 0: 1 }),
        goals: { signup: days({ 0: 1, 1: 1 }), $purchase: days({ 0: 1 }) },
      });
    });

    void it('(e) the same hid twice, in one batch and across batches, counts once', async () => {
      const { store, envId } = await environment('e');
      const exposure = activation({ vid: 'a5', group: 'g1', variation: 'v2', createdMs: T, hid: 'd1' });
      const goal = hit({
        type: 'TRANSACTION',
        vid: 'a5',
        goal: 'purchase',
        revenue: 20,
        createdMs: T + MINUTE,
        hid: 'd2',
      });
      assert.equal(await store.insertActivations(envId, [exposure, { ...exposure, receivedMs: T + 5 }]), 1);
      assert.equal(await store.insertHits(envId, [goal, { ...goal, receivedMs: goal.receivedMs + 5 }]), 1);
      const once = expected(
        C1,
        { $purchase: [0, 0, 0] },
        {
          v2: { visits: 1, visitors: 1, goals: { $purchase: [1, 1, 20] } },
        },
      );
      assert.deepEqual((await reportFigures(store, envId, 'c1')).figures, once);
      // Re-sent later (an SDK retry after a lost answer): duplicates, nothing stored.
      assert.equal(await store.insertActivations(envId, [{ ...exposure, receivedMs: T + HOUR }]), 0);
      assert.equal(await store.insertHits(envId, [{ ...goal, receivedMs: T + HOUR }]), 0);
      const { figures, series } = await reportFigures(store, envId, 'c1');
      assert.deepEqual(figures, once);
      assert.deepEqual(series.variations.v2, {
        visits: days({ 0: 1 }),
        goals: { $purchase: days({ 0: 1 }) },
      });
    });

    void it('(f) activations without hid arriving out of created order: the 30-minute windows are computed again', async () => {
      const { store, envId } = await environment('f');
      const at = (minutes: number) =>
        activation({ vid: 'a6', group: 'g1', variation: 'v3', createdMs: T + minutes * MINUTE, hid: null });
      const visits = async (): Promise<number> =>
        (await reportFigures(store, envId, 'c1')).figures.v3?.visits ?? -1;
      // §14.1 by hand, windows opening at the first activation of the key not inside an open one:
      await store.insertActivations(envId, [at(40), at(65)]);
      assert.equal(await visits(), 1); // 40 opens [40, 70): 65 inside
      await store.insertActivations(envId, [at(0)]);
      assert.equal(await visits(), 2); // 0 opens [0, 30); 40 opens [40, 70): 65 inside
      await store.insertActivations(envId, [at(20)]);
      assert.equal(await visits(), 2); // 20 inside [0, 30)
      await store.insertActivations(envId, [at(35)]);
      assert.equal(await visits(), 3); // 35 opens [35, 65): 40 inside; 65 opens a third
      const { figures, series } = await reportFigures(store, envId, 'c1');
      assert.deepEqual(figures, expected(C1, {}, { v3: { visits: 3, visitors: 1 } }));
      assert.deepEqual(series.variations.v3, { visits: days({ 0: 3 }), goals: {} });
    });

    void it('(g) a hit created 1 s before the exposure counts, 1.001 s before does not (both arrival orders)', async () => {
      const { store, envId } = await environment('g');
      const edges = (vid: string, exposedMs: number) => [
        hit({ type: 'EVENT', vid, goal: 'add_to_cart', createdMs: exposedMs - 1000, hid: `${vid}-h1` }),
        hit({ type: 'EVENT', vid, goal: 'signup', createdMs: exposedMs - 1001, hid: `${vid}-h2` }),
      ];
      // Exposure folded first, hits after (one step on the person's ledger)…
      await store.insertActivations(envId, [
        activation({ vid: 'a7', group: 'g4', variation: 'v9', createdMs: T, hid: 'e1' }),
      ]);
      await reportFigures(store, envId, 'c3');
      await store.insertHits(envId, edges('a7', T));
      // …and hits folded first, exposure after (the person computed again).
      await store.insertHits(envId, edges('b7', T + HOUR));
      await reportFigures(store, envId, 'c3');
      await store.insertActivations(envId, [
        activation({ vid: 'b7', group: 'g4', variation: 'v10', createdMs: T + HOUR, hid: 'e2' }),
      ]);
      const { figures, series } = await reportFigures(store, envId, 'c3');
      const both: Partial<VariationFigures> = {
        visits: 1,
        visitors: 1,
        goals: { add_to_cart: [1, 1], signup: [0, 0] },
      };
      assert.deepEqual(figures, expected(C3, {}, { v9: both, v10: both }));
      assert.deepEqual(series.variations.v10, {
        visits: days({ 0: 1 }),
        goals: { add_to_cart: days({ 0: 1 }), signup: days() },
      });
    });

    void it('(h) a person exposed in two campaigns (and two groups of one) counts in each', async () => {
      const { store, envId } = await environment('h');
      await store.insertHits(envId, [
        hit({
          type: 'TRANSACTION',
          vid: 'a8',
          goal: 'purchase',
          revenue: 99.99,
          createdMs: T + 5 * MINUTE,
          hid: 'h1',
        }),
      ]);
      await store.insertActivations(envId, [
        activation({ vid: 'u8', aid: 'a8', group: 'g1', variation: 'v1', createdMs: T, hid: 'e1' }),
      ]);
      await reportFigures(store, envId, 'c1');
      await store.insertActivations(envId, [
        activation({ vid: 'u8', aid: 'a8', group: 'g3', variation: 'v6', createdMs: T + MINUTE, hid: 'e2' }),
        activation({ vid: 'a8', group: 'g2', variation: 'v5', createdMs: T + 2 * MINUTE, hid: 'e3' }),
      ]);
      const bought: Partial<VariationFigures> = {
        visits: 1,
        visitors: 1,
        goals: { $purchase: [1, 1, 99.99] },
      };
      const goals: VariationFigures['goals'] = { $purchase: [0, 0, 0] };
      assert.deepEqual(
        (await reportFigures(store, envId, 'c1')).figures,
        expected(C1, goals, { v1: bought, v5: bought }),
      );
      assert.deepEqual(
        (await reportFigures(store, envId, 'c2')).figures,
        expected(C2, goals, { v6: bought }),
      );
      // Not exposed to c3: the purchase is not seen there.
      assert.deepEqual((await reportFigures(store, envId, 'c3')).figures, expected(C3, {}, {}));
    });

    void it('(i) a report read between two late arrivals reflects each correction, and its revision rises', async () => {
      const { store, envId } = await environment('i');
      await store.insertActivations(envId, [
        activation({ vid: 'u9', group: 'g1', variation: 'v3', createdMs: T - HOUR, hid: 'e1' }),
        activation({ vid: 'a9', group: 'g1', variation: 'v1', createdMs: T + HOUR, hid: 'e2' }),
      ]);
      await store.insertHits(envId, [
        hit({ type: 'EVENT', vid: 'a9', goal: 'add_to_cart', createdMs: T + 90 * MINUTE, hid: 'h1' }),
      ]);
      const goals: VariationFigures['goals'] = { add_to_cart: [0, 0] };
      const read = async () => ({
        figures: (await reportFigures(store, envId, 'c1')).figures,
        revision: await store.campaignRollupRevision(envId, 'c1'),
      });
      const first = await read();
      assert.deepEqual(
        first.figures,
        expected(C1, goals, {
          v1: { visits: 1, visitors: 1, goals: { add_to_cart: [1, 1] } },
          v3: { visits: 1, visitors: 1 },
        }),
      );
      assert.equal((await read()).revision, first.revision, 'nothing new: the revision stays');
      // Late exposure: a9 saw v2 at T, before v1.
      await store.insertActivations(envId, [
        activation({ vid: 'a9', group: 'g1', variation: 'v2', createdMs: T, qt: 3 * HOUR, hid: 'e3' }),
      ]);
      const second = await read();
      assert.deepEqual(
        second.figures,
        expected(C1, goals, {
          v1: { visits: 1, visitors: 0 },
          v2: { visits: 1, visitors: 1, goals: { add_to_cart: [1, 1] } },
          v3: { visits: 1, visitors: 1 },
        }),
      );
      assert.ok(second.revision > first.revision, `${second.revision} > ${first.revision}`);
      // Late link: a9 is u9, whose first exposure in g1 (v3 at T − 1 h) is older than all of a9's.
      await store.insertHits(envId, [
        hit({ type: 'PAGEVIEW', vid: 'a9', cuid: 'u9', createdMs: T + 2 * HOUR, hid: 'h2' }),
      ]);
      const third = await read();
      assert.deepEqual(
        third.figures,
        expected(C1, goals, {
          v1: { visits: 1, visitors: 0 },
          v2: { visits: 1, visitors: 0 },
          v3: { visits: 1, visitors: 1, goals: { add_to_cart: [1, 1] } },
        }),
      );
      assert.ok(third.revision > second.revision, `${third.revision} > ${second.revision}`);
    });

    void it('(j) revenue taken out of a variation as its converters move away leaves exactly 0, not a float residue', async () => {
      const { store, envId } = await environment('j');
      await store.insertActivations(envId, [
        activation({ vid: 'ja', group: 'g1', variation: 'v1', createdMs: T + HOUR, hid: 'e1' }),
        activation({ vid: 'jb', group: 'g1', variation: 'v1', createdMs: T + HOUR, hid: 'e2' }),
      ]);
      await reportFigures(store, envId, 'c1');
      await store.insertHits(envId, [
        hit({
          type: 'TRANSACTION',
          vid: 'ja',
          goal: 'purchase',
          revenue: 0.1,
          createdMs: T + 2 * HOUR,
          hid: 'h1',
        }),
        hit({
          type: 'TRANSACTION',
          vid: 'jb',
          goal: 'purchase',
          revenue: 0.2,
          createdMs: T + 2 * HOUR,
          hid: 'h2',
        }),
      ]);
      await reportFigures(store, envId, 'c1');
      // Both persons saw v2 first (late exposures, one fold each): v1 keeps no conversion and no revenue.
      await store.insertActivations(envId, [
        activation({ vid: 'jb', group: 'g1', variation: 'v2', createdMs: T, qt: 3 * HOUR, hid: 'e3' }),
      ]);
      await reportFigures(store, envId, 'c1');
      await store.insertActivations(envId, [
        activation({ vid: 'ja', group: 'g1', variation: 'v2', createdMs: T, qt: 3 * HOUR, hid: 'e4' }),
      ]);
      const { report } = await rollupReport(store, envId, 'c1');
      const v1 = report.variation_groups[0]?.variations.find((v) => v.id === 'v1');
      assert.deepEqual(v1?.transactions.purchase, {
        ...v1?.transactions.purchase,
        conversions: 0,
        visitors: 0,
        revenue: 0,
      });
      assert.deepEqual(await rollupMismatches(store, envId, 'c1'), []);
    });
  },
);
