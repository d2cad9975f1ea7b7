// The platform's own JS SDK (@flagship.io/js-sdk 5.2.0, unchanged) against our server in bucketing mode, its
// hosts mapped as docs/http-api.md says (platform-sdk-support.ts): it downloads our bucketing file from the CDN
// host's root path and decides locally with its own engine, which must agree with PROTOCOL.md §15's table;
// it polls the file and picks a change up; more than 100 exposures leave in one batch; every hit type, its
// context (SEGMENT) included; continuity through login from its visitor cache; consent; no 4xx answer; and
// the report counts one visit per visitor (vid) and variation (§14.1). The decision-API mode runs in
// platform-sdk.test.ts: the SDK is a process-wide singleton.
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
import { environmentCompatibility } from '../../server/src/remote/compatibility.js';
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
/** The SDK's batching loop and bucketing polling, in seconds. */
const BATCH_INTERVAL_S = 0.2;
const POLLING_INTERVAL_S = 0.25;

void describe("the platform's JS SDK in bucketing mode, hosts mapped to our server", () => {
  let store: Store;
  let server: E2eServer;
  let env: { envId: string; apiKey: string };
  let hosts: HostMapping;
  const errors: string[] = [];
  const updates: Date[] = [];
  const ledger = exposureLedger();

  const visitorOf = (visitorId: string, context: Record<string, string> = {}): Visitor =>
    Flagship.newVisitor({ visitorId, hasConsented: true, context });
  const hitsOf = (visitorId: string) =>
    server.received.hits.filter((h) => h.row.visitorId === visitorId).map((h) => h.row);
  /** Waits for what the SDK sends at its next ticks, or for a 4xx answer (then the asserts say which). */
  const delivered = (check: () => boolean, what: string) =>
    until(() => check() || clientErrors(hosts.seen).length > 0, { what, timeoutMs: 10_000 });
  const fileRequests = () => hosts.seen.filter((s) => s.path === `/${env.envId}/bucketing.json`);

  before(async () => {
    store = await openFreshPgliteStore();
    server = await startE2eServer(store);
    env = await server.seed(campaignsFile(), { enabledXPC: true });
    hosts = mapPlatformHosts(server.running.url);
    await Flagship.start(env.envId, env.apiKey, {
      decisionMode: DecisionMode.BUCKETING,
      pollingInterval: POLLING_INTERVAL_S,
      onBucketingUpdated: (lastModified) => updates.push(lastModified),
      fetchNow: false,
      fetchFlagsBufferingTime: 0,
      logLevel: LogLevel.WARNING,
      onLog: (level, tag, message) => {
        if (level <= LogLevel.ERROR) errors.push(`${tag}: ${message}`);
      },
      // Every read sends its activation: what the SDK does after its 2.5 s window, without the wait.
      hitDeduplicationTime: 0,
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
    await stopPlatformSdk(env.envId, DecisionMode.BUCKETING);
    hosts.restore();
    await server.close();
    await store.close();
  });

  void it('downloads the bucketing file from the CDN host root, then polls it with If-Modified-Since', async () => {
    // The file holds nothing that this SDK evaluates otherwise than our engine (compatibility.ts).
    assert.deepEqual(environmentCompatibility(campaignsFile().campaigns, { enabledXPC: true }), []);
    const [first] = fileRequests();
    assert.equal(first?.host, 'cdn.flagship.io');
    assert.equal(first.status, 200);
    // Unchanged: 304. (A poll in the second after the seeding may get 200: the file's Last-Modified, a whole
    // second never later than the answer's Date, moves once when that second is over, §2.5.)
    await until(() => fileRequests().some((s) => s.status === 304), {
      what: 'a poll answered 304',
      timeoutMs: 5000,
    });
    const polls = fileRequests().slice(1);
    for (const poll of polls) {
      assert.ok([200, 304].includes(poll.status), `poll answered ${poll.status}`);
      assert.ok(Date.parse(poll.headers['if-modified-since'] ?? '') > 0, 'polls with If-Modified-Since');
    }
  });

  void it('keeps the variation through login (XPC), from its visitor cache', async () => {
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

  void it('decides as PROTOCOL.md §15 says with its own engine, and sends more than 100 exposures', async () => {
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
    await delivered(() => acknowledgedActivations(hosts.seen) >= ledger.activations, 'every activation');
    const batches = hosts.seen
      .filter((s) => s.path === '/v2/activate')
      .map((s) => (JSON.parse(s.body) as { batch: unknown[] }).batch.length);
    assert.ok(Math.max(...batches) > 100, `batches of ${batches.join(', ')} activations`);
    assert.equal(
      hosts.seen.filter((s) => s.path.startsWith(`/v2/${env.envId}/campaigns`)).length,
      0,
      'no decision request in bucketing mode',
    );
  });

  void it('sends every hit type, its context as a SEGMENT among them, and the server keeps them', async () => {
    const visitor = visitorOf('hits-1', { plan: 'free' });
    await visitor.fetchFlags();
    await sendEveryHit(visitor);
    await delivered(() => hitsOf('hits-1').length >= 8, 'the hits (the consent event and the context too)');
    const types = hitsOf('hits-1').map((r) => r.type);
    for (const type of ['PAGEVIEW', 'SCREENVIEW', 'EVENT', 'TRANSACTION', 'ITEM', 'SEGMENT'])
      assert.ok(types.includes(type), `${type}: ${types.join(', ')}`);
    const segment = hitsOf('hits-1').find((r) => r.type === 'SEGMENT');
    assert.equal((segment?.body as { s?: Record<string, string> }).s?.plan, 'free');
  });

  void it('picks a change of the campaigns up at a poll', async () => {
    const before = updates.length;
    await server.importFile(env.envId, campaignsFile({ extra: true }));
    // Not the first update after the import: a file published in the same second as the one before it carries
    // the next second once that second has come (conditional.ts), so the SDK may take the same file again
    // just before the changed one.
    const visitor = visitorOf('after-change');
    await until(
      async () => {
        await visitor.fetchFlags();
        const banner: string = visitor.getFlag('banner').getValue('off', false);
        return updates.length > before && banner === 'on';
      },
      { what: 'a poll bringing the changed bucketing file', timeoutMs: 8000 },
    );
    assert.ok(fileRequests().some((s, i) => i > 0 && s.status === 200));
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
    await delivered(() => hitsOf('consent-1').length >= 2, 'the consent events');
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
    assert.deepEqual(
      hitsOf('consent-1').map((r) => [r.type, r.goal, (r.body as { el?: string }).el]),
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
