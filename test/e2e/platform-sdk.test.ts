// The platform's own JS SDK (@flagship.io/js-sdk 5.2.0, unchanged) against our server in decision-API mode,
// its hosts mapped as docs/http-api.md says (platform-sdk-support.ts): decisions (PROTOCOL.md §15's table),
// more than 100 exposures in one activation batch, every hit type, continuity through login (XPC), consent,
// usage analytics; the SDK sees no 4xx answer, and the report counts one visit per visitor (vid) and
// variation although that SDK sends an activation, without idempotency id, on every flag read (§14.1).
// The bucketing mode runs in platform-sdk-bucketing.test.ts: the SDK is a process-wide singleton.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CacheStrategy,
  DecisionMode,
  EventCategory,
  Flagship,
  HitType,
  LogLevel,
  type Visitor,
} from '@flagship.io/js-sdk';
import { buildCampaignReport } from '../../server/src/report/build-report.js';
import { openFreshPgliteStore } from '../server/template-data-dir.js';
import type { Store } from '../../server/src/store/store.js';
import { campaignsFile, VECTORS } from './sdk-server-campaigns.js';
import { startE2eServer, type E2eServer } from './sdk-server-support.js';
import {
  acknowledgedActivations,
  clientErrors,
  exposureLedger,
  mapPlatformHosts,
  MemoryVisitorCache,
  rejectedItems,
  sendEveryHit,
  stopPlatformSdk,
  usageSampledVisitorId,
  type HostMapping,
} from './platform-sdk-support.js';
import { until } from '../support/until.js';

/** Visitors that each read flags three times: more than 100 exposures, sent in one batch. */
const VISITORS = 120;
/** The SDK's batching loop, in seconds. */
const BATCH_INTERVAL_S = 0.2;

void describe("the platform's JS SDK in decision-API mode, hosts mapped to our server", () => {
  let store: Store;
  let server: E2eServer;
  let env: { envId: string; apiKey: string };
  let hosts: HostMapping;
  const errors: string[] = [];
  const ledger = exposureLedger();

  const visitorOf = (visitorId: string, context: Record<string, string> = {}): Visitor =>
    Flagship.newVisitor({ visitorId, hasConsented: true, context });
  const hitsOf = (visitorId: string) =>
    server.received.hits.filter((h) => h.row.visitorId === visitorId).map((h) => h.row);
  /** Waits for what the SDK sends at its next ticks, or for a 4xx answer (then the asserts say which). */
  const delivered = (check: () => boolean, what: string) =>
    until(() => check() || clientErrors(hosts.seen).length > 0, { what, timeoutMs: 10_000 });

  before(async () => {
    store = await openFreshPgliteStore();
    server = await startE2eServer(store);
    env = await server.seed(campaignsFile(), { enabledXPC: true });
    hosts = mapPlatformHosts(server.running.url);
    await Flagship.start(env.envId, env.apiKey, {
      decisionMode: DecisionMode.DECISION_API,
      fetchNow: false,
      logLevel: LogLevel.WARNING,
      onLog: (level, tag, message) => {
        if (level <= LogLevel.ERROR) errors.push(`${tag}: ${message}`);
      },
      // Every read sends its activation: what the SDK does after its 2.5 s window, without the wait.
      hitDeduplicationTime: 0,
      // Activations wait in the pool with the hits, and leave in one batch at each tick of the batching loop
      // (its close() flushes nothing in Node: it reads an instance the Node build never sets).
      batchActivateHits: true,
      trackingManagerConfig: {
        cacheStrategy: CacheStrategy.PERIODIC_CACHING,
        batchIntervals: BATCH_INTERVAL_S,
        poolMaxSize: 10_000,
      },
      visitorCacheImplementation: new MemoryVisitorCache(),
    });
  });
  after(async () => {
    await stopPlatformSdk(env.envId, DecisionMode.DECISION_API);
    hosts.restore();
    await server.close();
    await store.close();
  });

  void it('keeps the variation through login (XPC), with the anonymous visitor’s allocation', async () => {
    // §15: the anonymous id gets quarter 4 and half 1; the authenticated id alone would get 1 and 2.
    const [anonymous, user] = VECTORS;
    const visitor = visitorOf(anonymous.id);
    await visitor.fetchFlags();
    assert.deepEqual(ledger.read(visitor, anonymous.id), {
      q: anonymous.variation,
      h: anonymous.variation50,
    });
    visitor.authenticate(user.id);
    await visitor.fetchFlags();
    assert.deepEqual(ledger.read(visitor, user.id, anonymous.id), {
      q: anonymous.variation,
      h: anonymous.variation50,
    });
  });

  void it('decides as PROTOCOL.md §15 says, and more than 100 exposures reach the report', async () => {
    for (const vector of VECTORS.slice(2)) {
      const visitor = visitorOf(vector.id, { plan: 'premium' });
      await visitor.fetchFlags();
      assert.deepEqual(ledger.read(visitor, vector.id), { q: vector.variation, h: vector.variation50 });
      assert.equal(visitor.getFlag('discount').getValue(0, false), 10);
    }
    const visitors: Visitor[] = [];
    for (let i = 0; i < VISITORS; i++) {
      const visitor = visitorOf(`platform-${i}`, { plan: 'free' });
      await visitor.fetchFlags();
      visitors.push(visitor);
    }
    // Read without awaiting anything: every activation is in the pool at the next tick.
    for (const [i, visitor] of visitors.entries()) {
      const read = ledger.read(visitor, `platform-${i}`);
      assert.ok(read.q >= 1 && read.q <= 4 && read.h >= 1 && read.h <= 2, JSON.stringify(read));
      assert.equal(
        visitor.getFlag('discount').getValue(0, false),
        0,
        'the premium toggle is for premium only',
      );
    }
    assert.ok(ledger.activations > 3 * VISITORS, `${ledger.activations} activations pooled`);
    await delivered(() => acknowledgedActivations(hosts.seen) >= ledger.activations, 'every activation');
    const activations = hosts.seen.filter((s) => s.path === '/v2/activate');
    assert.ok(activations.length > 0, 'the pooled activations were sent');
    const largest = Math.max(
      ...activations.map((s) => (JSON.parse(s.body) as { batch: unknown[] }).batch.length),
    );
    assert.ok(largest > 100, `one batch of ${largest} activations`);
  });

  void it('sends every hit type to the events host, and the server keeps them', async () => {
    const visitor = visitorOf('hits-1', { plan: 'free' });
    await visitor.fetchFlags();
    await sendEveryHit(visitor);
    await delivered(() => hitsOf('hits-1').length >= 7, 'the hits (and the consent event)');
    const counts = await store.countHits(env.envId);
    for (const type of ['PAGEVIEW', 'SCREENVIEW', 'EVENT', 'TRANSACTION', 'ITEM', 'SEGMENT'])
      assert.ok((counts[type] ?? 0) > 0, `${type}: ${JSON.stringify(counts)}`);
    assert.equal(counts.PAGEVIEW, 2);
    assert.ok(hosts.seen.some((s) => s.host === 'events.flagship.io' && s.path === '/' && s.status === 200));
  });

  void it('stops tracking a visitor who withdraws consent, and says so once', async () => {
    const visitor = visitorOf('consent-1');
    await visitor.fetchFlags();
    visitor.setConsent(false);
    await visitor.sendHit({
      type: HitType.EVENT,
      category: EventCategory.ACTION_TRACKING,
      action: 'after_no',
    });
    await delivered(
      () => hitsOf('consent-1').filter((r) => r.type === 'EVENT').length >= 2,
      'consent events',
    );
    // A consenting visitor's event, pooled after 'after_no': once it has arrived, anything pooled before it
    // has left too (each tick sends the whole pool), so 'after_no' is absent because it was never sent.
    const marker = visitorOf('consent-marker');
    await marker.sendHit({
      type: HitType.EVENT,
      category: EventCategory.ACTION_TRACKING,
      action: 'after_consent_1',
    });
    await delivered(
      () => hitsOf('consent-marker').some((r) => r.type === 'EVENT' && r.goal === 'after_consent_1'),
      'the later event of a consenting visitor',
    );
    // Its decision context is stored as a SEGMENT (§3); its events are the consent's only.
    const rows = hitsOf('consent-1').filter((r) => r.type === 'EVENT');
    assert.deepEqual(
      rows.map((r) => [r.type, r.goal, (r.body as { el?: string }).el]),
      [
        ['EVENT', 'fs_consent', 'TypeScript:true'],
        ['EVENT', 'fs_consent', 'TypeScript:false'],
      ],
    );
  });

  void it('sends its usage analytics to the events host, counted per SDK', async () => {
    const visitor = visitorOf(usageSampledVisitorId());
    await visitor.fetchFlags();
    await until(() => hosts.seen.some((s) => s.path === '/analytics'), {
      what: 'a usage hit',
      timeoutMs: 5000,
    });
    assert.deepEqual(
      (await store.usageCounts(env.envId)).map((u) => [u.sdkName, u.sdkVersion]),
      [['TypeScript', '5.2.0']],
    );
  });

  void it('saw no 4xx, mapped every request, and reports one visit per visitor and variation', async () => {
    await delivered(() => acknowledgedActivations(hosts.seen) >= ledger.activations, 'every activation');
    assert.deepEqual(hosts.unmapped, []);
    assert.deepEqual(clientErrors(hosts.seen), [], 'answers the SDK got');
    assert.deepEqual(rejectedItems(hosts.seen), [], 'hits and activations rejected one by one');
    assert.deepEqual(errors, [], "the SDK's error logs");
    const report = await buildCampaignReport(store, env.envId, 'quarters');
    const figures = report.variation_groups.flatMap((g) =>
      g.variations.map((v) => ({ id: v.id, visits: v.visits, visitors: v.visitors })),
    );
    assert.deepEqual(figures, ledger.expected('q', ['q-ref', 'q-1', 'q-2', 'q-3', 'q-4']));
    // Three activations per visitor and variation were sent, one visit each is counted.
    assert.ok(ledger.activations >= 3 * figures.reduce((sum, v) => sum + v.visits, 0));
  });
});
