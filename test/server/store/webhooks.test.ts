// Webhooks in the store (issue 36) on every store kind: each change that reports an event queues one delivery
// per target of its environment, in the change's own transaction (a refused change queues nothing); a target
// is sent only the kinds it asked for; claims lease each target's oldest unsettled delivery only, once; an
// attempt's outcome settles or reschedules it; deleting a target gives up what it had not been sent.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ClaimedDelivery, WebhookDelivery } from '../../../server/src/store/webhook-store.js';
import type { WebhookEventBody } from '../../../server/src/webhooks/webhook-events.js';
import { checkoutCampaign, describeStoreOnEveryKind, premiumToggle } from '../support.js';

const FAR = Number.MAX_SAFE_INTEGER;

const bodyOf = (delivery: WebhookDelivery): WebhookEventBody => JSON.parse(delivery.body) as WebhookEventBody;

describeStoreOnEveryKind('webhooks', (opened) => {
  void it('queues one delivery per change and target, with what changed', async () => {
    const { store, envId } = opened();
    const { webhook: all, secret } = await store.createWebhook(envId, {
      url: 'http://127.0.0.1:9/all',
      events: [],
    });
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    const { webhook: panicOnly } = await store.createWebhook(envId, {
      url: 'http://127.0.0.1:9/panic',
      events: ['environment.panic_changed'],
    });
    assert.deepEqual(
      (await store.listWebhooks(envId)).map((w) => [w.id, w.events]),
      [
        [all.id, []],
        [panicOnly.id, ['environment.panic_changed']],
      ],
    );

    const campaign = checkoutCampaign('wh-');
    await store.createCampaign(envId, campaign, { description: '', state: 'active' });
    await store.updateCampaign(envId, campaign.id, { ...campaign, name: 'Renamed' }, { description: 'd' });
    await store.setCampaignState(envId, campaign.id, 'paused');
    await store.setCampaignState(envId, campaign.id, 'paused'); // no change: no event
    await store.setPanic(envId, true);
    await store.setPanic(envId, true); // no change: no event
    await store.setAccountSettings(envId, { enabledXPC: true });
    await store.setAccountSettings(envId, { enabledXPC: true }); // no change: no event
    await store.rotateApiKey(envId);
    await store.replaceCampaigns(envId, [premiumToggle('wh-')]);
    await store.deleteCampaign(envId, premiumToggle('wh-').id);
    // A refused change (interrupted is final) makes no event: the event lives in the change's transaction.
    await store.setCampaignState(envId, premiumToggle('wh-').id, 'paused').catch(() => undefined);

    const sent = (await store.listDeliveries(all.id, 50)).reverse();
    assert.deepEqual(
      sent.map((d) => d.eventType),
      [
        'campaign.created',
        'campaign.updated',
        'campaign.state_changed',
        'environment.panic_changed',
        'environment.settings_changed',
        'environment.api_key_rotated',
        'campaigns.imported',
        'campaign.deleted',
      ],
    );
    const bodies = sent.map(bodyOf);
    assert.deepEqual(bodies[1]?.data, {
      campaign: { id: campaign.id, name: 'Renamed', slug: campaign.slug ?? null, state: 'active' },
    });
    assert.deepEqual(bodies[2]?.data, {
      campaign: { id: campaign.id, name: 'Renamed', slug: campaign.slug ?? null, state: 'paused' },
      previousState: 'active',
    });
    assert.deepEqual(bodies[3]?.data, { panic: true });
    assert.deepEqual(bodies[4]?.data, { enabledXPC: true, enabled1V1T: false });
    assert.deepEqual(bodies[6]?.data, { campaigns: 1 });
    for (const [i, d] of sent.entries()) {
      assert.equal(bodies[i]?.envId, envId);
      assert.equal(bodies[i].type, d.eventType);
      assert.equal(d.id, `${d.eventId}.${all.id}`, 'the delivery id names the event and the target');
      assert.equal(d.state, 'pending');
      assert.equal(d.attempts, 0);
    }
    assert.ok(!sent.some((d) => d.body.includes('fk_')), 'a rotated key is announced, never sent');

    const panicSent = await store.listDeliveries(panicOnly.id, 50);
    assert.deepEqual(
      panicSent.map((d) => d.eventType),
      ['environment.panic_changed'],
      'only the kinds it asked for',
    );
    assert.equal(panicSent[0]?.eventId, sent[3]?.eventId ?? 'none', 'one event, one id, for every target');
  });

  void it("claims each target's oldest unsettled delivery once, and settles or reschedules it", async () => {
    const { store, envId } = opened();
    await store.setPanic(envId, false);
    const { webhook } = await store.createWebhook(envId, {
      url: 'http://127.0.0.1:9/order',
      events: ['environment.panic_changed'],
    });
    for (const panic of [true, false, true]) await store.setPanic(envId, panic);
    const now = Date.now() + 1;
    const claim = async (at: number, until: number): Promise<ClaimedDelivery[]> =>
      (await store.claimDueDeliveries(at, until, 16)).filter((d) => d.webhookId === webhook.id);
    const firstOf = <T>(list: readonly T[]): T => {
      const item = list.at(0);
      assert.ok(item !== undefined, 'a delivery claimed');
      return item;
    };

    const first = await claim(now, now + 30_000);
    assert.equal(first.length, 1, 'one at a time per target');
    const head = firstOf(first);
    assert.equal(head.url, 'http://127.0.0.1:9/order');
    assert.equal((bodyOf(head).data as { panic: boolean }).panic, true, 'the oldest first');
    assert.deepEqual(
      await claim(now, now + 30_000),
      [],
      'leased: neither claimed again nor passed by the next one',
    );

    // A failure: rescheduled, and still the head (the next waits behind it).
    await store.settleDelivery(head, {
      atMs: now,
      status: 503,
      answer: 'busy',
      error: null,
      retryAtMs: now + 5_000,
    });
    assert.deepEqual(await claim(now + 4_999, FAR), [], 'not before its retry time');
    const again = await claim(now + 5_000, now + 60_000);
    assert.equal(firstOf(again).id, head.id);
    assert.equal(firstOf(again).attempts, 1);
    assert.equal(firstOf(again).lastStatus, 503);
    assert.equal(firstOf(again).lastAnswer, 'busy');

    await store.settleDelivery(firstOf(again), {
      atMs: now + 5_000,
      status: 204,
      answer: '',
      error: null,
      retryAtMs: null,
    });
    const next = await claim(now + 5_001, now + 60_000);
    assert.equal((bodyOf(firstOf(next)).data as { panic: boolean }).panic, false, 'then the next, in order');
    const settled = firstOf((await store.listDeliveries(webhook.id, 50)).filter((d) => d.id === head.id));
    assert.equal(settled.state, 'delivered');
    assert.equal(settled.attempts, 2);
    assert.equal(settled.settledMs, now + 5_000);

    // Given up: failed, and the target moves on.
    await store.settleDelivery(firstOf(next), {
      atMs: now + 6_000,
      status: null,
      answer: null,
      error: 'connect ECONNREFUSED',
      retryAtMs: null,
    });
    const failed = (await store.listDeliveries(webhook.id, 50)).find((d) => d.id === firstOf(next).id);
    assert.ok(failed !== undefined);
    assert.equal(failed.state, 'failed');
    assert.equal(failed.lastError, 'connect ECONNREFUSED');
    const third = await claim(now + 6_001, now + 60_000);
    assert.equal(third.length, 1);

    // Sent again on demand: pending and due at once, with the same id and body.
    await store.settleDelivery(firstOf(third), {
      atMs: now + 7_000,
      status: 200,
      answer: 'ok',
      error: null,
      retryAtMs: null,
    });
    const redone = await store.redeliver(webhook.id, failed.id, now + 8_000);
    assert.equal(redone?.state, 'pending');
    assert.equal(redone.body, failed.body);
    const claimedAgain = await claim(now + 8_000, now + 60_000);
    assert.equal(claimedAgain.at(0)?.id, failed.id);
    assert.equal(await store.redeliver(webhook.id, 'nope', now), null);
  });

  void it('a redeliver during an attempt is sent again, and never beside another delivery of its target', async () => {
    const { store, envId } = opened();
    await store.setPanic(envId, false);
    const { webhook } = await store.createWebhook(envId, {
      url: 'http://127.0.0.1:9/redeliver',
      events: ['environment.panic_changed'],
    });
    for (const panic of [true, false]) await store.setPanic(envId, panic);
    const now = Date.now() + 1;
    const claim = async (at: number, until: number): Promise<ClaimedDelivery[]> =>
      (await store.claimDueDeliveries(at, until, 16)).filter((d) => d.webhookId === webhook.id);
    const [first] = await claim(now, now + 30_000);
    assert.ok(first !== undefined);
    await store.settleDelivery(first, { atMs: now, status: 200, answer: '', error: null, retryAtMs: null });
    const [second] = await claim(now + 1, now + 30_000);
    assert.ok(second !== undefined && second.id !== first.id);

    // The first is sent again while the second is in flight: it waits, so the target never has two at once.
    await store.redeliver(webhook.id, first.id, now + 2);
    assert.deepEqual(await claim(now + 3, now + 30_000), [], 'one delivery of a target in flight at a time');

    // The second is asked again while its attempt is under way: the attempt's outcome does not settle it.
    await store.redeliver(webhook.id, second.id, now + 4);
    await store.settleDelivery(second, {
      atMs: now + 5,
      status: 200,
      answer: '',
      error: null,
      retryAtMs: null,
    });
    const afterSettle = (await store.listDeliveries(webhook.id, 50)).find((d) => d.id === second.id);
    assert.equal(afterSettle?.state, 'pending', 'asked again after the attempt began: sent again');
    assert.equal(afterSettle.attempts, 1, 'the attempt is still counted');

    // The first (older) goes now, then the second once more; an attempt whose lease ran out and was claimed
    // again by another instance does not lift that instance's lease.
    const [redone] = await claim(now + 6, now + 30_000);
    assert.equal(redone?.id, first.id);
    await store.settleDelivery(redone, {
      atMs: now + 7,
      status: 200,
      answer: '',
      error: null,
      retryAtMs: null,
    });
    const [slow] = await claim(now + 8, now + 10);
    assert.equal(slow?.id, second.id);
    const [other] = await claim(now + 11, now + 30_000);
    assert.equal(other?.id, second.id, 'the lease ran out: claimed again');
    await store.settleDelivery(slow, {
      atMs: now + 12,
      status: 500,
      answer: '',
      error: null,
      retryAtMs: now + 13,
    });
    assert.deepEqual(
      await claim(now + 14, now + 30_000),
      [],
      "the late outcome left the other instance's lease",
    );
    await store.settleDelivery(other, {
      atMs: now + 15,
      status: 204,
      answer: '',
      error: null,
      retryAtMs: null,
    });
    const done = (await store.listDeliveries(webhook.id, 50)).find((d) => d.id === second.id);
    assert.equal(done?.state, 'delivered');
    assert.equal(done.attempts, 2, 'the late outcome is not counted');
  });

  void it('a deleted target is sent nothing more, and its unsent deliveries are given up', async () => {
    const { store, envId } = opened();
    const { webhook } = await store.createWebhook(envId, { url: 'http://127.0.0.1:9/gone', events: [] });
    await store.setAccountSettings(envId, { enabled1V1T: true });
    assert.equal(await store.deleteWebhook(envId, webhook.id), true);
    assert.equal(await store.deleteWebhook(envId, webhook.id), false);
    assert.equal(await store.getWebhook(envId, webhook.id), null);
    await store.setAccountSettings(envId, { enabled1V1T: false });
    const deliveries = await store.listDeliveries(webhook.id, 50);
    assert.deepEqual(
      deliveries.map((d) => [d.state, d.lastError]),
      [['failed', 'the webhook was deleted']],
    );
    assert.deepEqual(
      (await store.claimDueDeliveries(FAR - 1, FAR, 16)).filter((d) => d.webhookId === webhook.id),
      [],
    );
  });
});
