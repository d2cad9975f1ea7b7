// Webhook claims under two server instances on one PostgreSQL database (issue 36): both claim and settle as
// fast as they can, at once, over several targets with several deliveries each. Every delivery is sent exactly
// once, each target's in the order its events were made, and never two of one target at a time. PGlite holds
// one process only, so there the two "instances" share its connection: the same rules, without the race.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import { describeOnEveryStoreWith, seedEnvironment } from '../support.js';

const TARGETS = 4;
const EVENTS = 6;

describeOnEveryStoreWith(
  'webhook claims from two instances',
  {
    start: async (store) => ({ store, ...(await seedEnvironment(store, [])) }),
    stop: () => Promise.resolve(),
  },
  (kind, started) => {
    void it('send each delivery once, in order per target, one at a time per target', async () => {
      const { store, envId } = started('store');
      const sibling = kind.openSibling === undefined ? null : await kind.openSibling();
      const instances: Store[] = sibling === null ? [store, store] : [store, sibling];
      try {
        const hooks = [];
        for (let t = 0; t < TARGETS; t += 1)
          hooks.push(
            (
              await store.createWebhook(envId, {
                url: `http://127.0.0.1:9/t${t}`,
                events: ['environment.panic_changed'],
              })
            ).webhook.id,
          );
        for (let e = 0; e < EVENTS; e += 1) await store.setPanic(envId, e % 2 === 0);
        const mine = new Set(hooks);
        const order = new Map<string, string[]>();
        for (const id of hooks)
          order.set(id, (await store.listDeliveries(id, 50)).map((d) => d.id).reverse());

        const sent: Array<{ webhookId: string; id: string }> = [];
        const inFlight = new Set<string>();
        const overlaps: string[] = [];
        // Each instance: claim, "send" (note it, yield), settle delivered; until a claim finds nothing of ours.
        const run = async (instance: Store): Promise<void> => {
          for (let round = 0; round < TARGETS * EVENTS * 4; round += 1) {
            const at = Date.now();
            const claimed = (await instance.claimDueDeliveries(at, at + 60_000, 16)).filter((d) =>
              mine.has(d.webhookId),
            );
            if (claimed.length === 0 && sent.length >= TARGETS * EVENTS) return;
            await Promise.all(
              claimed.map(async (delivery) => {
                if (inFlight.has(delivery.webhookId)) overlaps.push(delivery.id);
                inFlight.add(delivery.webhookId);
                sent.push({ webhookId: delivery.webhookId, id: delivery.id });
                await new Promise((resolve) => setImmediate(resolve));
                inFlight.delete(delivery.webhookId);
                await instance.settleDelivery(delivery, {
                  atMs: Date.now(),
                  status: 204,
                  answer: '',
                  error: null,
                  retryAtMs: null,
                });
              }),
            );
          }
        };
        await Promise.all(instances.map(run));

        assert.deepEqual(overlaps, [], 'never two deliveries of one target in flight');
        assert.equal(sent.length, TARGETS * EVENTS, 'each delivery sent once');
        assert.equal(new Set(sent.map((s) => s.id)).size, TARGETS * EVENTS);
        for (const id of hooks)
          assert.deepEqual(
            sent.filter((s) => s.webhookId === id).map((s) => s.id),
            order.get(id),
            'in the order the events were made',
          );
        for (const id of hooks)
          assert.ok(
            (await store.listDeliveries(id, 50)).every((d) => d.state === 'delivered' && d.attempts === 1),
          );
      } finally {
        await sibling?.close();
      }
    });
  },
);
