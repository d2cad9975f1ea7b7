// The operator's insight routes (operator-insights.ts): an environment's live traffic (newest first, a
// cursor that returns only what is new, the visitor filter, bounds) and a campaign report's daily series
// (days from the first exposure to today, visits and conversions on their created day, sums equal to the
// report). Rows are sent through the real collection routes with a pinned clock; every expected value is
// worked out by hand from what the test sent.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  checkoutCampaign,
  describeOnEveryStoreWith,
  post,
  premiumToggle,
  seedEnvironment,
  startApp,
  type Running,
  type SeededEnvironment,
} from '../support.js';
import type { Store } from '../../../server/src/store/store.js';

const KEY = 'operator-key-for-the-insight-tests';
const HOUR = 3_600_000;
const D1 = Date.UTC(2026, 10, 21); // 2026-11-21T00:00Z
const D2 = Date.UTC(2026, 10, 22);

interface Started {
  store: Store;
  server: Running;
  /** Seeded with the checkout A/B test (c1) and the premium toggle (c2). */
  env: SeededEnvironment;
  clock: { ms: number };
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describeOnEveryStoreWith<Started>(
  'operator insight routes',
  {
    start: async (store) => {
      const clock = { ms: D2 };
      const server = await startApp(store, { operatorKeys: [KEY], now: () => clock.ms });
      try {
        return {
          store,
          server,
          clock,
          env: await seedEnvironment(store, [checkoutCampaign(), premiumToggle()]),
        };
      } catch (error) {
        await server.close();
        throw error;
      }
    },
    stop: ({ server }) => server.close(),
  },
  (_kind, started) => {
    const get = async (path: string, key: string | null = KEY): Promise<Answer> => {
      const { server } = started('server');
      const res = await fetch(`${server.url}/admin/v1${path}`, {
        headers: key === null ? {} : { authorization: `Bearer ${key}` },
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    /** Sends at `at` (the server's clock): activations, then hits, each a 2xx with everything accepted. */
    const send = async (
      envId: string,
      at: number,
      rows: { activations?: object[]; hits?: object[] },
    ): Promise<void> => {
      const { server, clock } = started('clock');
      clock.ms = at;
      if (rows.activations !== undefined) {
        const res = await post(`${server.url}/v2/activate`, { cid: envId, batch: rows.activations });
        assert.equal(res.status, 204, JSON.stringify(res.body));
      }
      if (rows.hits !== undefined) {
        const res = await post(`${server.url}/events`, { cid: envId, t: 'BATCH', h: rows.hits });
        assert.deepEqual(res.body, {
          accepted: rows.hits.length,
          duplicates: 0,
          rejected: [],
          rejectedCount: 0,
        });
      }
    };
    const activation = (vid: string, vaid: string, extra: object = {}) => ({
      vid,
      aid: null,
      caid: 'vg1',
      vaid,
      qt: 0,
      ...extra,
    });
    const event = (vid: string, ea: string, hid: string, qt = 0) => ({
      t: 'EVENT',
      vid,
      cuid: null,
      qt,
      hid,
      ec: 'Action Tracking',
      ea,
    });
    const transaction = (vid: string, cuid: string | null, ta: string, tr: number, hid: string) => ({
      t: 'TRANSACTION',
      vid,
      cuid,
      qt: 0,
      hid,
      tid: `T-${hid}`,
      ta,
      tr,
      tc: 'EUR',
    });

    void it('traffic: newest first, a cursor for what is new, the visitor filter and limit', async () => {
      const { store } = started('store');
      const { envId } = await seedEnvironment(store, [checkoutCampaign()]);
      const other = await seedEnvironment(store, [checkoutCampaign()]);
      const t0 = D2 + 10 * HOUR;
      await send(envId, t0, { activations: [activation('alice', 'v1', { hid: 'ta-1' })] });
      await send(envId, t0 + 1000, { hits: [event('alice', 'add_to_cart', 'th-1')] });
      await send(envId, t0 + 2000, {
        activations: [activation('bob', 'v2', { aid: 'anon-b', qt: 250, hid: 'ta-2' })],
      });
      await send(envId, t0 + 3000, { hits: [transaction('anon-b', 'bob', 'Purchase', 20, 'th-2')] });
      await send(other.envId, t0 + 4000, { activations: [activation('alice', 'v2', { hid: 'elsewhere' })] });

      const all = await get(`/environments/${envId}/traffic`);
      assert.equal(all.status, 200);
      const items = all.body.items as Array<Record<string, unknown>>;
      assert.deepEqual(
        items.map((i) => [i.kind, i.hid]),
        [
          ['hit', 'th-2'],
          ['activation', 'ta-2'],
          ['hit', 'th-1'],
          ['activation', 'ta-1'],
        ],
      );
      const [purchase, bob, cart, alice] = items;
      assert.ok(purchase !== undefined && bob !== undefined && cart !== undefined && alice !== undefined);
      assert.deepEqual(bob, {
        kind: 'activation',
        seq: bob.seq,
        received_at: new Date(t0 + 2000).toISOString(),
        created_at: new Date(t0 + 2000 - 250).toISOString(),
        visitor_id: 'bob',
        anonymous_id: 'anon-b',
        campaign_id: 'c1',
        variation_group_id: 'vg1',
        variation_id: 'v2',
        hid: 'ta-2',
      });
      const { body, ...hitFields } = purchase;
      assert.deepEqual(hitFields, {
        kind: 'hit',
        seq: purchase.seq,
        received_at: new Date(t0 + 3000).toISOString(),
        created_at: new Date(t0 + 3000).toISOString(),
        type: 'TRANSACTION',
        visitor_id: 'anon-b',
        customer_id: 'bob',
        goal: 'Purchase',
        revenue: 20,
        hid: 'th-2',
      });
      assert.equal((body as Record<string, unknown>).ta, 'Purchase');
      assert.equal((body as Record<string, unknown>).tid, 'T-th-2');
      assert.equal(cart.goal, 'add_to_cart');
      assert.equal(cart.revenue, null);
      assert.equal(alice.anonymous_id, null);
      for (const item of items) assert.equal(typeof item.seq, 'number');
      assert.ok((bob.seq as number) > (alice.seq as number));
      assert.ok((purchase.seq as number) > (cart.seq as number));
      const cursor = all.body.cursor as { activation: number; hit: number };
      assert.deepEqual(cursor, { activation: bob.seq, hit: purchase.seq });

      // A poll with the cursor: only what came since; then nothing, with the same cursor.
      await send(envId, t0 + 5000, { activations: [activation('alice', 'v1', { hid: 'ta-3' })] });
      const poll = (c: { activation: number; hit: number }, more = '') =>
        get(`/environments/${envId}/traffic?after_activation=${c.activation}&after_hit=${c.hit}${more}`);
      const next = await poll(cursor);
      const fresh = next.body.items as Array<Record<string, unknown>>;
      assert.deepEqual(
        fresh.map((i) => i.hid),
        ['ta-3'],
      );
      assert.deepEqual(next.body.cursor, { activation: fresh[0]?.seq, hit: cursor.hit });
      const quiet = await poll(next.body.cursor as typeof cursor);
      assert.deepEqual(quiet.body, { items: [], cursor: next.body.cursor });
      // A cursor past the environment's rows (another environment's seq) is kept as given.
      const far = { activation: 9_007_199_254_740_991, hit: 0 };
      assert.deepEqual((await poll(far)).body.cursor, { activation: far.activation, hit: cursor.hit });
      // A poll that has seen every hit but no activation gets the activations only.
      const activationsOnly = (await poll({ activation: 0, hit: cursor.hit })).body.items as Array<{
        hid: string;
      }>;
      assert.deepEqual(
        activationsOnly.map((i) => i.hid),
        ['ta-3', 'ta-2', 'ta-1'],
      );

      const hidsOf = async (query: string) =>
        ((await get(`/environments/${envId}/traffic?${query}`)).body.items as Array<{ hid: string }>).map(
          (i) => i.hid,
        );
      assert.deepEqual(await hidsOf('visitor=bob'), ['th-2', 'ta-2'], "a hit's cuid, an activation's vid");
      assert.deepEqual(await hidsOf('visitor=anon-b'), ['th-2', 'ta-2'], "a hit's vid, an activation's aid");
      assert.deepEqual(await hidsOf('visitor=alice'), ['ta-3', 'th-1', 'ta-1']);
      assert.deepEqual(await hidsOf('visitor=ali'), [], 'exact, not a prefix');
      assert.deepEqual(await hidsOf('limit=2'), ['ta-3', 'th-2']);
      assert.deepEqual(await hidsOf('limit=1&visitor=anon-b'), ['th-2']);
      assert.deepEqual(await hidsOf(`after_activation=${cursor.activation}&limit=200`), [
        'ta-3',
        'th-2',
        'th-1',
      ]);
    });

    void it('traffic: 400 naming a wrong parameter, 404 for an unknown environment, 401 without the key', async () => {
      const { envId } = started('env').env;
      for (const [query, name] of [
        ['limit=0', 'limit'],
        ['limit=201', 'limit'],
        ['limit=ten', 'limit'],
        ['limit=1&limit=2', 'limit'],
        ['after_activation=-1', 'after_activation'],
        ['after_hit=1.5', 'after_hit'],
        ['after_hit=99999999999999999', 'after_hit'],
        ['visitor=', 'visitor'],
        [`visitor=${'v'.repeat(257)}`, 'visitor'],
      ] as const) {
        const res = await get(`/environments/${envId}/traffic?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.code, 'invalid_body', query);
        assert.deepEqual(
          (res.body.details as Array<{ path: string }>).map((d) => d.path),
          [name],
          query,
        );
      }
      assert.equal((await get(`/environments/${envId}/traffic?limit=200&after_hit=0`)).status, 200);
      const unknown = await get('/environments/nope/traffic');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'unknown_environment');
      assert.equal((await get(`/environments/${envId}/traffic`, null)).status, 401);
      assert.equal((await get(`/environments/${envId}/traffic`, 'wrong')).status, 401);
      assert.equal((await get(`/environments/${envId}/reports/c1/days`, null)).status, 401);
    });

    void it('days: visits and conversions per created day, summing to the report', async () => {
      const { envId } = started('env').env;
      const days = `/environments/${envId}/reports/c1/days`;
      assert.deepEqual((await get(days)).body.days, [], 'no exposure yet');

      // Day 1, 20:00: p1 sees v1, p2 and p3 see v2 (p3 without idempotency id: a 30-minute window opens).
      const evening = D1 + 20 * HOUR;
      await send(envId, evening, {
        activations: [
          activation('p1', 'v1', { hid: 'd-a1' }),
          activation('p2', 'v2', { hid: 'd-a2' }),
          activation('p3', 'v2'),
        ],
        hits: [event('p1', 'add_to_cart', 'd-h1'), transaction('p2', null, 'Purchase', 10, 'd-h2')],
      });
      // Day 2, 00:00:30, but queued 60 s: p3's rows are created on day 1 at 23:59:30.
      const midnight = D2 + 30_000;
      await send(envId, midnight, {
        activations: [activation('p3', 'v2', { qt: 60_000 }), activation('p4', 'v1', { hid: 'd-a4' })],
        hits: [
          event('p1', 'add_to_cart', 'd-h3'),
          event('p3', 'add_to_cart', 'd-h4', 60_000),
          event('p4', 'Purchase', 'd-h5'), // an event goal named like the transaction goal
        ],
      });
      // Day 2, 00:10: p3 again inside its window (no visit); p2 converts on day 2; p4's hit created on day 1
      // at 22:00 comes before p4's exposure (not attributed); p5 was never exposed.
      const later = D2 + 10 * 60_000;
      await send(envId, later, {
        activations: [activation('p3', 'v2')],
        hits: [
          event('p2', 'add_to_cart', 'd-h6', 5000),
          event('p4', 'add_to_cart', 'd-h7', 2 * HOUR + 10 * 60_000),
          event('p5', 'add_to_cart', 'd-h8'),
        ],
      });

      const { clock } = started('clock');
      clock.ms = D2 + 12 * HOUR;
      const series = await get(days);
      assert.equal(series.status, 200);
      const expectedVariations = [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          visits: [1, 1],
          conversions: { Purchase: [0, 1], add_to_cart: [1, 1] },
          transactions: { Purchase: [0, 0] },
        },
        {
          id: 'v2',
          name: 'Green',
          reference: false,
          visits: [3, 0],
          conversions: { Purchase: [0, 0], add_to_cart: [1, 1] },
          transactions: { Purchase: [1, 0] },
        },
      ];
      assert.deepEqual(series.body, {
        campaign_id: 'c1',
        days: ['2026-11-21', '2026-11-22'],
        variation_groups: [{ id: 'vg1', variations: expectedVariations }],
      });

      // The §14.5 report of the same rows: the hand-made totals, and each series sums to its figure.
      const reports = await get(`/environments/${envId}/reports?campaign=c1`);
      const [report] = reports.body.reports as Array<{
        variation_groups: Array<{
          variations: Array<{
            id: string;
            visits: number;
            events: Record<string, { conversions: number }>;
            transactions: Record<string, { conversions: number }>;
          }>;
        }>;
      }>;
      const reported = report?.variation_groups[0]?.variations ?? [];
      assert.deepEqual(
        reported.map((v) => [
          v.id,
          v.visits,
          v.events.add_to_cart?.conversions,
          v.transactions.Purchase?.conversions,
        ]),
        [
          ['v1', 2, 2, 0],
          ['v2', 3, 2, 1],
        ],
      );
      const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
      for (const [i, v] of expectedVariations.entries()) {
        const figures = reported[i];
        assert.ok(figures !== undefined);
        assert.equal(sum(v.visits), figures.visits, `${v.id} visits`);
        assert.deepEqual(Object.keys(v.conversions).sort(), Object.keys(figures.events).sort());
        for (const [goal, perDay] of Object.entries(v.conversions))
          assert.equal(sum(perDay), figures.events[goal]?.conversions, `${v.id} ${goal}`);
        for (const [goal, perDay] of Object.entries(v.transactions))
          assert.equal(sum(perDay), figures.transactions[goal]?.conversions, `${v.id} ${goal} transactions`);
      }

      // Two days later, the days run to today with zeros.
      clock.ms = D2 + 2 * 24 * HOUR + HOUR;
      const padded = await get(days);
      assert.deepEqual(padded.body.days, ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24']);
      const green = (padded.body.variation_groups as Array<{ variations: Array<Record<string, unknown>> }>)[0]
        ?.variations[1];
      assert.ok(green !== undefined);
      assert.deepEqual(green.visits, [3, 0, 0, 0]);
      assert.deepEqual(green.transactions, { Purchase: [1, 0, 0, 0] });

      // 100 days later, only the last 90 are shown, and none holds a row.
      clock.ms = D1 + 100 * 24 * HOUR;
      const capped = (await get(days)).body;
      const shown = capped.days as string[];
      assert.equal(shown.length, 90);
      assert.equal(shown[0], new Date(D1 + 11 * 24 * HOUR).toISOString().slice(0, 10));
      assert.equal(shown[89], new Date(D1 + 100 * 24 * HOUR).toISOString().slice(0, 10));
      const original = (capped.variation_groups as Array<{ variations: Array<{ visits: number[] }> }>)[0]
        ?.variations[0];
      assert.deepEqual(original?.visits, new Array(90).fill(0));
    });

    void it('days: none for a campaign without exposure, 404 for an unknown campaign or environment', async () => {
      const { envId } = started('env').env;
      const empty = await get(`/environments/${envId}/reports/c2/days`);
      assert.equal(empty.status, 200);
      assert.deepEqual(empty.body, {
        campaign_id: 'c2',
        days: [],
        variation_groups: [
          {
            id: 'vg2',
            variations: [
              { id: 'v3', name: 'On', reference: true, visits: [], conversions: {}, transactions: {} },
            ],
          },
        ],
      });
      const unknown = await get(`/environments/${envId}/reports/nope/days`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'not_found');
      const noEnvironment = await get('/environments/nope/reports/c1/days');
      assert.equal(noEnvironment.status, 404);
      assert.equal(noEnvironment.body.code, 'unknown_environment');
    });
  },
);
