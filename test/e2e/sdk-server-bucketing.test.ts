// The SDK in bucketing mode against the project's server (issue 7, "Done when"): it downloads
// /cdn/{env}/bucketing.json from the real server, assigns what the decision API assigns to the same visitors
// (both per PROTOCOL.md §15), makes no decision request on fetchFlags, picks a campaign change up at its next
// poll, and its exposures and hits land in the same report as the decision API's.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Event, EventCategory, Mode } from '../../src/core/node.js';
import { until } from '../support/until.js';
import {
  assigned,
  describeE2eOnEveryStore,
  report,
  startSdk,
  variationOf,
  visitsOf,
} from './sdk-server-support.js';
import { VECTORS, campaignsFile } from './sdk-server-campaigns.js';

const [A, B, C] = VECTORS;

describeE2eOnEveryStore('SDK against the server, bucketing mode', (fixture) => {
  const requestsTo = (path: string): number =>
    fixture.server.received.requests.filter((r) => r === path).length;

  void it('assigns what the decision API assigns, from the downloaded file, with no decision request', async () => {
    const env = await fixture.server.seed();
    const decisionRoute = `POST /v2/${env.envId}/campaigns`;
    const bucketing = await startSdk(fixture.server, env, Mode.BUCKETING, fixture.closers);
    assert.equal(bucketing.instance.getStatus(), 'SDK_INITIALIZED');
    assert.ok(requestsTo(`GET /cdn/${env.envId}/bucketing.json`) >= 1, 'the file came from the server');
    const local = [];
    for (const [i, v] of VECTORS.entries()) {
      const visitor = await bucketing.fetched(v.id, { plan: i === 0 ? 'premium' : 'free' });
      assert.equal(visitor.flagStatus, 'FETCHED');
      local.push([...assigned(visitor), visitor.getFlag('discount').value(0, { visitorExposed: false })]);
    }
    assert.equal(requestsTo(decisionRoute), 0, 'fetchFlags evaluated locally');

    const api = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    const remote = [];
    for (const [i, v] of VECTORS.entries()) {
      const visitor = await api.fetched(v.id, { plan: i === 0 ? 'premium' : 'free' });
      remote.push([...assigned(visitor), visitor.getFlag('discount').value(0, { visitorExposed: false })]);
    }
    assert.equal(requestsTo(decisionRoute), VECTORS.length);
    const expected = VECTORS.map((v, i) => [v.variation, v.variation50, i === 0 ? 10 : 0]);
    assert.deepEqual(local, expected, 'bucketing mode: §15');
    assert.deepEqual(remote, expected, 'decision API: §15');
  });

  void it('picks a campaign change up at the next poll, keeping the variations it assigned', async () => {
    const env = await fixture.server.seed();
    const sdk = await startSdk(fixture.server, env, Mode.BUCKETING, fixture.closers, 1);
    const visitor = await sdk.fetched(A.id);
    assert.deepEqual(assigned(visitor), [A.variation, A.variation50]);
    assert.equal(visitor.getFlag('banner').value<string>('off', { visitorExposed: false }), 'off');

    // Everything of the quarters group to variation 1, and a new campaign for everyone.
    await fixture.server.importFile(env.envId, campaignsFile({ quarters: [100, 0, 0, 0], extra: true }));
    // Polling every second; the visitor is re-evaluated when the new file lands (PROTOCOL.md §16.2).
    await until(() => visitor.getFlag('banner').value<string>('off', { visitorExposed: false }) === 'on', {
      what: "the banner flag 'on' from the next bucketing file",
      timeoutMs: 6000,
    });
    assert.equal(visitor.flagStatus, 'FETCHED');
    assert.deepEqual(
      assigned(visitor),
      [A.variation, A.variation50],
      'sticky: the SDK keeps what it assigned',
    );
    const newcomer = await sdk.fetched(C.id);
    assert.deepEqual(
      assigned(newcomer),
      [1, C.variation50],
      `the new allocation (§15 gives ${C.variation} before)`,
    );
    assert.equal(newcomer.getFlag('banner').value<string>('off', { visitorExposed: false }), 'on');
    assert.equal(requestsTo(`POST /v2/${env.envId}/campaigns`), 0);
  });

  void it("lands its exposures and hits in the same report as the decision API's", async () => {
    const env = await fixture.server.seed();
    const bucketing = await startSdk(fixture.server, env, Mode.BUCKETING, fixture.closers);
    const api = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    const local = await bucketing.fetched(A.id);
    const remote = await api.fetched(B.id);
    for (const visitor of [local, remote]) {
      visitor.getFlag('q').value(-1);
      visitor.getFlag('q').value(-1);
      await visitor.sendHit(new Event({ category: EventCategory.Action_Tracking, action: 'add_to_cart' }));
    }
    await bucketing.instance.close();
    await api.instance.close();

    assert.deepEqual(bucketing.exposures, [{ visitorId: A.id, key: 'q', variationId: `q-${A.variation}` }]);
    const quarters = await report(fixture.server, env.envId, 'quarters');
    assert.deepEqual(visitsOf(quarters), { [`q-${A.variation}`]: 1, [`q-${B.variation}`]: 1 });
    for (const id of [`q-${A.variation}`, `q-${B.variation}`]) {
      const figures = variationOf(quarters, id);
      assert.equal(figures.visitors, 1, id);
      assert.equal(figures.events.add_to_cart?.conversions, 1, id);
    }
  });
});
