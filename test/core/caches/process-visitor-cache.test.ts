// Node's default visitor cache: records held as objects for the SDK, PROTOCOL.md §10's JSON for applications,
// bounded to the most recently written visitors, and sticky variations through it in bucketing mode.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProcessVisitorCache } from '../../../src/core/caches/process-visitor-cache.js';
import { contextDigest, sentContext } from '../../../src/core/decision/context-digest.js';
import { ConfigBuilder, FeatureInstance, Level, Mode } from '../../../src/core/node.js';
import { parseVisitorRecord, type HeldVisitorRecord } from '../../../src/core/visitor/visitor-record.js';
import type { DecisionCampaign } from '../../../src/protocol/index.js';
import { startProtocolDouble } from '../../support/protocol-double.js';
import { until } from '../../support/until.js';
import { VECTORS, variationId, vectorFile } from '../decision/bucketing-files.js';

const campaign: DecisionCampaign = {
  id: 'c1',
  name: 'Checkout',
  slug: 'checkout',
  type: 'ab',
  variationGroupId: 'vg1',
  variationGroupName: 'Members',
  variation: {
    id: 'v2',
    name: 'Green',
    reference: false,
    modifications: { type: 'FLAG', value: { btn: 'green' } },
  },
};

const record = (visitorId: string): HeldVisitorRecord => ({
  visitorId,
  anonymousId: null,
  consent: true,
  context: { plan: 'gold' },
  campaigns: [campaign],
  assignmentsHistory: { vg1: 'v2' },
  fetchedAt: 1_795_374_650_972,
});

void describe('ProcessVisitorCache', () => {
  void it('upserts, looks up and flushes JSON text like any visitor cache', async () => {
    const cache = new ProcessVisitorCache();
    assert.equal(await cache.lookupVisitor('v1'), null);
    await cache.cacheVisitor('v1', '{"a":1}');
    await cache.cacheVisitor('v1', '{"a":2}');
    assert.equal(await cache.lookupVisitor('v1'), '{"a":2}');
    assert.equal(cache.heldRecord('v1'), '{"a":2}', 'text an application stored comes back as text');
    await cache.flushVisitor('v1');
    assert.equal(await cache.lookupVisitor('v1'), null);
  });

  void it('gives a held record to applications as the JSON of PROTOCOL.md §10', async () => {
    const cache = new ProcessVisitorCache();
    // What the SDK holds beside the record's data (the decision's basis) stays out of the JSON, and a context
    // it sent is written as its digest.
    cache.holdRecord('user-42', {
      ...record('user-42'),
      decidedOn: {},
      sent: { context: [sentContext({ plan: 'gold' }), 1795374650972] },
    });
    const json = await cache.lookupVisitor('user-42');
    assert.deepEqual(JSON.parse(json ?? 'null'), {
      version: 1,
      data: {
        visitorId: 'user-42',
        anonymousId: null,
        consent: true,
        context: { plan: 'gold' },
        campaigns: [
          {
            campaignId: 'c1',
            campaignName: 'Checkout',
            campaignType: 'ab',
            slug: 'checkout',
            variationGroupId: 'vg1',
            variationGroupName: 'Members',
            variationId: 'v2',
            variationName: 'Green',
            isReference: false,
            type: 'FLAG',
            flags: { btn: 'green' },
          },
        ],
        assignmentsHistory: { vg1: 'v2' },
        fetchedAt: 1_795_374_650_972,
        sent: { context: [contextDigest({ plan: 'gold' }), 1_795_374_650_972] },
      },
    });
    assert.notEqual(parseVisitorRecord(json, 'user-42'), null, 'the SDK reads it back as a version-1 record');
    assert.equal(cache.heldRecord('user-42'), cache.heldRecord('user-42'), 'the SDK gets the object itself');
  });

  void it('keeps at most maxVisitors records, at least the most recent half, and a re-written visitor counts as recent', () => {
    const cache = new ProcessVisitorCache({ maxVisitors: 10 });
    const writes: string[] = [];
    const write = (id: string): void => {
      cache.holdRecord(id, record(id));
      writes.push(id);
    };
    write('first');
    for (let i = 0; i < 100; i++) {
      write(`v${i}`);
      if (i % 3 === 0) write('first');
      assert.ok(cache.size <= 10, `size ${cache.size} after ${writes.length} writes`);
      for (const id of writes.slice(-5))
        assert.notEqual(cache.heldRecord(id), null, `${id}, of the 5 latest writes`);
    }
    assert.equal(cache.heldRecord('v0'), null, 'the oldest went');
    assert.notEqual(cache.heldRecord('first'), null, 'written again recently, kept');
    assert.throws(() => new ProcessVisitorCache({ maxVisitors: 1 }), /maxVisitors must be an integer ≥ 2/);
  });
});

void describe('the Node SDK with its default visitor cache, bucketing mode', () => {
  void it('keeps variations across an allocation change and gives a new visitor object the cached flags', async () => {
    const double = await startProtocolDouble({ bucketing: vectorFile() });
    const sdk = new FeatureInstance();
    try {
      await sdk.start(
        double.script.envId,
        double.script.apiKey,
        new ConfigBuilder()
          .withMode(Mode.BUCKETING)
          .withServerUrl(double.url)
          .withLogLevel(Level.NONE)
          .withDisableDeveloperUsageTracking(true)
          .build(),
      );
      const [vector] = VECTORS;
      const first = sdk.newVisitor({ visitorId: vector.id, hasConsented: true }).build();
      await first.fetchFlags();
      assert.equal(first.getFlag('variation').value(-1, { visitorExposed: false }), vector.variation);
      // Everyone to variation 1 from now on: the visitor keeps the variation of §15's table.
      double.script.bucketing = vectorFile({ allocations25: [100, 0, 0, 0] });
      double.script.bucketingEtag = '"b2"';
      const again = sdk.newVisitor({ visitorId: vector.id, hasConsented: true }).build();
      // The creation's cache lookup is asynchronous: wait for its outcome rather than for a guessed time.
      await until(() => again.fetchReasons === 'FLAGS_FETCHED_FROM_CACHE', {
        what: 'the record found at creation',
      });
      assert.equal(again.getFlag('variation').value(-1, { visitorExposed: false }), vector.variation);
      await again.fetchFlags();
      assert.equal(again.getFlag('variation').value(-1, { visitorExposed: false }), vector.variation);
      assert.equal(
        again.getFlag('variation').metadata().variationId,
        variationId('variation', vector.variation),
      );
    } finally {
      await sdk.close();
      await double.close();
    }
  });
});
