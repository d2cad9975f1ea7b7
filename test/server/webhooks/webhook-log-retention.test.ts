// The webhook delivery log's retention (issue 36 follow-up) on every store kind: deliveries settled (delivered
// or given up) before the kept time are purged with their bodies and answers; pending ones stay however old
// (still being sent, or sent again on demand), and so do recent settled ones. The app's hourly upkeep (run once
// at start) purges with FEATURE_WEBHOOK_LOG_DAYS by its clock.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ClaimedDelivery } from '../../../server/src/store/webhook-store.js';
import { until } from '../../support/until.js';
import { describeStoreOnEveryKind, startApp } from '../support.js';

const DAY_MS = 86_400_000;
const FAR = Number.MAX_SAFE_INTEGER;

describeStoreOnEveryKind('webhook delivery log retention', (opened) => {
  void it('purges settled deliveries older than the kept time; pending and recent ones stay', async () => {
    const { store, envId } = opened();
    const now = Date.now();
    const target = async (name: string): Promise<string> =>
      (await store.createWebhook(envId, { url: `https://hooks.example.com/${name}`, events: [] })).webhook.id;
    const [oldDelivered, oldFailed, recent, retrying, redelivered] = await Promise.all(
      ['old-delivered', 'old-failed', 'recent', 'retrying', 'redelivered'].map(target),
    );
    await store.setPanic(envId, true);
    const claimed = await store.claimDueDeliveries(Date.now(), FAR, 100);
    const of = (webhookId: string | undefined): ClaimedDelivery => {
      const found = claimed.find((d) => d.webhookId === webhookId);
      assert.ok(found, `a delivery claimed for ${webhookId}`);
      return found;
    };
    const longAgo = now - 40 * DAY_MS;
    const answered = { status: 200, answer: 'ok', error: null, retryAtMs: null };
    await store.settleDelivery(of(oldDelivered), { ...answered, atMs: longAgo });
    await store.settleDelivery(of(oldFailed), {
      atMs: longAgo,
      status: 500,
      answer: 'no',
      error: null,
      retryAtMs: null,
    });
    await store.settleDelivery(of(recent), { ...answered, atMs: now - DAY_MS });
    // Attempted long ago and still retried: pending, never purged.
    await store.settleDelivery(of(retrying), {
      atMs: longAgo,
      status: null,
      answer: null,
      error: 'connect ECONNREFUSED',
      retryAtMs: now + DAY_MS,
    });
    // Settled long ago, then sent again on demand: pending again, so it stays.
    await store.settleDelivery(of(redelivered), { ...answered, atMs: longAgo });
    assert.ok(await store.redeliver(String(redelivered), of(redelivered).id, now));
    // Never attempted yet: pending.
    await store.setPanic(envId, false);

    const before = async (webhookId: string | undefined): Promise<string[]> =>
      (await store.listDeliveries(String(webhookId), 50)).map((d) => d.state);
    assert.deepEqual(await before(oldDelivered), ['pending', 'delivered']);
    assert.equal(await store.purgeDeliveries(now - 30 * DAY_MS), 2);
    assert.deepEqual(await before(oldDelivered), ['pending'], 'the old delivered one went');
    assert.deepEqual(await before(oldFailed), ['pending'], 'the old given-up one went');
    assert.deepEqual(await before(recent), ['pending', 'delivered'], 'settled a day ago: kept');
    assert.deepEqual(await before(retrying), ['pending', 'pending'], 'still retried: kept');
    assert.deepEqual(await before(redelivered), ['pending', 'pending'], 'sent again: kept');
    assert.equal(await store.purgeDeliveries(now - 30 * DAY_MS), 0, 'nothing more to purge');
  });

  void it("is purged by the app's upkeep at start, by FEATURE_WEBHOOK_LOG_DAYS", async () => {
    const { store, envId } = opened();
    await store.setPanic(envId, false);
    const { webhook } = await store.createWebhook(envId, {
      url: 'https://hooks.example.com/upkeep',
      events: ['environment.panic_changed'],
    });
    await store.setPanic(envId, true);
    const mine = (await store.claimDueDeliveries(Date.now(), FAR, 100)).find(
      (d) => d.webhookId === webhook.id,
    );
    assert.ok(mine);
    await store.settleDelivery(mine, {
      atMs: Date.now(),
      status: 204,
      answer: '',
      error: null,
      retryAtMs: null,
    });
    assert.equal((await store.listDeliveries(webhook.id, 50)).length, 1);
    // A clock 8 days ahead with a week kept: the delivery settled now is past it.
    const now = Date.now() + 8 * DAY_MS;
    const server = await startApp(store, { webhookLogDays: 7, now: () => now });
    try {
      await until(async () => (await store.listDeliveries(webhook.id, 50)).length === 0, {
        what: 'the settled delivery purged by the upkeep',
      });
    } finally {
      await server.close();
    }
  });
});
