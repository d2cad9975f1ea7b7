// The SDK in decision-API mode against the project's server (issue 7, "Done when"): flags per PROTOCOL.md
// §15 and the context, one visit per visitor and variation, hits folded into the report as conversions and
// revenue, server-side stickiness across an allocation change, experience continuity on authenticate, and
// consent false sending nothing but fs_consent. Every expected figure is written here, from the spec.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Event, EventCategory, Mode, Transaction } from '../../src/core/node.js';
import {
  assigned,
  describeE2eOnEveryStore,
  report,
  startSdk,
  variationOf,
  visitsOf,
} from './sdk-server-support.js';
import { VECTORS, VG25, campaignsFile } from './sdk-server-campaigns.js';
import { until } from '../support/until.js';

const [A, B, C, D] = VECTORS;

describeE2eOnEveryStore('SDK against the server, decision-API mode', (fixture) => {
  const activationsOf = (envId: string) =>
    fixture.server.received.activations.filter((a) => a.envId === envId).map((a) => a.row);
  const hitsOf = (envId: string) =>
    fixture.server.received.hits.filter((h) => h.envId === envId).map((h) => h.row);
  const storedVariation = async (envId: string, visitorId: string): Promise<string | undefined> =>
    (await fixture.server.store.getAssignments(envId, [visitorId]))[0]?.history[VG25];

  void it('reads the flags of §15 and of the context from the decision route, exposing nothing unread', async () => {
    const env = await fixture.server.seed();
    const sdk = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    for (const [i, v] of VECTORS.entries()) {
      const visitor = await sdk.fetched(v.id, { plan: i === 0 ? 'premium' : 'free' });
      assert.equal(visitor.flagStatus, 'FETCHED');
      assert.deepEqual(assigned(visitor), [v.variation, v.variation50], v.id);
      assert.equal(visitor.getFlag('discount').value(0, { visitorExposed: false }), i === 0 ? 10 : 0);
      const metadata = visitor.getFlag('q').metadata();
      assert.equal(metadata.campaignId, 'quarters');
      assert.equal(metadata.variationGroupId, VG25);
      assert.equal(metadata.variationId, `q-${v.variation}`);
      assert.equal(metadata.isReference, false);
    }
    await sdk.instance.close();
    const decisions = fixture.server.received.requests.filter((r) => r === `POST /v2/${env.envId}/campaigns`);
    assert.equal(decisions.length, VECTORS.length);
    assert.deepEqual(activationsOf(env.envId), [], 'nothing was exposed');
  });

  void it('counts one visit per visitor and variation, and its hits as conversions and revenue', async () => {
    const env = await fixture.server.seed();
    const sdk = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    const visitor = await sdk.fetched(A.id);
    const flag = visitor.getFlag('q');
    assert.equal(flag.value(-1), 4);
    assert.equal(flag.value(-1), 4);
    assert.equal(visitor.getFlag('q').value(-1), 4);
    await flag.visitorExposed();
    await visitor.fetchFlags(); // the same variation again: nothing new to report
    assert.equal(visitor.getFlag('q').value(-1), 4);
    await visitor.sendHit(
      new Event({ category: EventCategory.Action_Tracking, action: 'add_to_cart', value: 3 }),
    );
    await visitor.sendHit(
      new Transaction({ transactionId: 'T1', affiliation: 'Purchase', revenue: 20.5, currency: 'EUR' }),
    );
    await sdk.instance.close(); // flushes the pool and waits

    assert.deepEqual(
      activationsOf(env.envId).map((a) => [a.visitorId, a.anonymousId, a.variationGroupId, a.variationId]),
      [[A.id, null, VG25, 'q-4']],
    );
    assert.deepEqual(sdk.exposures, [{ visitorId: A.id, key: 'q', variationId: 'q-4' }]);
    const quarters = await report(fixture.server, env.envId, 'quarters');
    assert.deepEqual(visitsOf(quarters), { 'q-4': 1 });
    const exposed = variationOf(quarters, 'q-4');
    assert.equal(exposed.visitors, 1);
    assert.deepEqual([exposed.events.add_to_cart?.conversions, exposed.events.add_to_cart?.visitors], [1, 1]);
    assert.deepEqual(
      [exposed.transactions.Purchase?.conversions, exposed.transactions.Purchase?.revenue],
      [1, 20.5],
    );
    assert.equal(variationOf(quarters, 'q-1').events.add_to_cart?.conversions, 0, 'every goal, zeros too');
    assert.deepEqual(
      visitsOf(await report(fixture.server, env.envId, 'halves')),
      {},
      'flag h was never read',
    );
  });

  void it('keeps a stored assignment after the allocation changes (the server remembers it)', async () => {
    const env = await fixture.server.seed();
    const first = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    const a = await first.fetched(A.id);
    assert.deepEqual(assigned(a), [A.variation, A.variation50]);
    // Assignments are written behind, within a second (§3).
    await until(async () => (await storedVariation(env.envId, A.id)) === 'q-4', {
      what: `${A.id}'s assignment stored`,
    });

    const before = await fixture.server.bucketingEtag(env.envId);
    await fixture.server.importFile(env.envId, campaignsFile({ quarters: [100, 0, 0, 0] }));
    await until(async () => (await fixture.server.bucketingEtag(env.envId)) !== before, {
      what: 'the imported file published',
    });

    await a.fetchFlags();
    assert.deepEqual(assigned(a), [4, A.variation50], 'the same visitor object');
    const second = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    assert.deepEqual(
      assigned(await second.fetched(A.id)),
      [4, A.variation50],
      'a new SDK with an empty cache',
    );
    assert.deepEqual(
      assigned(await second.fetched(C.id)),
      [1, C.variation50],
      `§15 gives ${C.variation} before the change`,
    );
    assert.deepEqual(
      assigned(await second.fetched(D.id)),
      [1, D.variation50],
      `§15 gives ${D.variation} before the change`,
    );
  });

  void it('with continuity on, authenticate keeps the anonymous variation, stored under both ids', async () => {
    const env = await fixture.server.seed(campaignsFile(), { enabledXPC: true });
    const sdk = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    const visitor = await sdk.fetched(A.id);
    assert.equal(visitor.getFlag('q').value(-1), 4);
    visitor.authenticate(B.id); // alone, §15 gives B [1, 2]
    assert.equal(visitor.fetchReasons, 'VISITOR_AUTHENTICATED');
    await visitor.fetchFlags();
    assert.deepEqual([visitor.visitorId, visitor.anonymousId], [B.id, A.id]);
    assert.deepEqual(assigned(visitor), [A.variation, A.variation50]);
    assert.equal(visitor.getFlag('q').value(-1), 4);
    await visitor.sendHit(new Event({ category: EventCategory.Action_Tracking, action: 'signed_in' }));
    await until(async () => (await storedVariation(env.envId, B.id)) === 'q-4', {
      what: `the assignment stored under ${B.id}`,
    });

    const other = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    assert.deepEqual(
      assigned(await other.fetched(B.id)),
      [A.variation, A.variation50],
      'B alone now has the stored variations',
    );
    await sdk.instance.close();
    const quarters = await report(fixture.server, env.envId, 'quarters');
    assert.deepEqual(visitsOf(quarters), { 'q-4': 1 }, 'the same variation after login: no second visit');
    const exposed = variationOf(quarters, 'q-4');
    assert.equal(exposed.visitors, 1, 'the anonymous id and B are one person');
    assert.deepEqual([exposed.events.signed_in?.conversions, exposed.events.signed_in?.visitors], [1, 1]);
  });

  void it('consent false: flags work, and the only thing stored is the fs_consent event', async () => {
    const env = await fixture.server.seed();
    const sdk = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    const visitor = await sdk.fetched('no-consent-1', { plan: 'premium' }, false);
    assert.equal(visitor.getFlag('discount').value(0), 10);
    assert.notEqual(visitor.getFlag('q').value<number>(-1), -1);
    await visitor.sendHit(new Event({ category: EventCategory.Action_Tracking, action: 'add_to_cart' }));
    await sdk.instance.close();

    assert.equal(
      fixture.server.received.requests.filter((r) => r === `POST /v2/${env.envId}/campaigns`).length,
      1,
      'the decision was asked for',
    );
    assert.deepEqual(activationsOf(env.envId), []);
    assert.deepEqual(
      hitsOf(env.envId).map((h) => [h.type, h.visitorId, h.body.ec, h.body.ea, h.body.el]),
      [['EVENT', 'no-consent-1', 'User Engagement', 'fs_consent', 'feature-ts:false']],
    );
    assert.deepEqual(visitsOf(await report(fixture.server, env.envId, 'premium')), {});
  });
});
