// Bucketing mode end to end (issue 3): a real HTTP server on 127.0.0.1 (the protocol double) serves the
// bucketing file; the SDK assigns locally per PROTOCOL.md §15's vectors, keeps assignments across an
// allocation change and a restart, reacts to a panic flip and to 304s, and makes no request on fetchFlags.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  ConfigBuilder,
  FeatureInstance,
  Level,
  MemoryHitCache,
  MemoryVisitorCache,
  Mode,
  type FSSdkStatus,
  type Visitor,
  type VisitorFlagState,
} from '../../src/core/node.js';
import { nodePlatform } from '../../src/core/platform/node.js';
import { startProtocolDouble, type ProtocolDouble } from '../support/protocol-double.js';
import { VECTORS, vectorFile } from '../core/decision/bucketing-files.js';
import { hitsReceived, recordingLogs } from '../core/support.js';
import { until } from '../support/until.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const double = async (): Promise<ProtocolDouble> => {
  const d = await startProtocolDouble({ bucketing: vectorFile() });
  closers.push(() => d.close());
  return d;
};

/** An SDK in bucketing mode on `d`; `statuses` records every status change. */
const startSdk = async (
  d: ProtocolDouble,
  visitorCache = new MemoryVisitorCache(),
  pollingSeconds = 1,
): Promise<{
  instance: FeatureInstance;
  statuses: FSSdkStatus[];
  logs: ReturnType<typeof recordingLogs>;
}> => {
  const instance = new FeatureInstance(nodePlatform);
  const statuses: FSSdkStatus[] = [];
  const logs = recordingLogs();
  closers.push(() => instance.close());
  await instance.start(
    'env1',
    'key1',
    new ConfigBuilder()
      .withMode(Mode.BUCKETING)
      .withServerUrl(d.url)
      .withBucketingPollingIntervals(pollingSeconds)
      .withTrackingConfig({ batchIntervals: 60, poolMaxSize: 100 })
      .withLogManager(logs.manager)
      .withLogLevel(Level.ALL)
      .withDisableDeveloperUsageTracking(true)
      .withCacheVisitorManager(visitorCache)
      .withCacheHitManager(new MemoryHitCache())
      .withStatusListener((s) => statuses.push(s))
      .build(),
  );
  return { instance, statuses, logs };
};

const fetched = async (instance: FeatureInstance, id: string): Promise<Visitor> => {
  const visitor = instance.newVisitor({ visitorId: id, hasConsented: true }).build();
  await visitor.fetchFlags();
  return visitor;
};

const variations = (v: Visitor): [unknown, unknown] => [
  v.getFlag('variation').value(-1),
  v.getFlag('variation50').value(-1),
];

/** Every flag state the visitor goes through from now on. */
const track = (v: Visitor): VisitorFlagState['status'][] => {
  const seen: VisitorFlagState['status'][] = [];
  v.$flagStatus.listen((s) => seen.push(s.status));
  return seen;
};

const [A, B, C, D] = VECTORS;

void describe('bucketing mode end to end', () => {
  void test('assigns per §15 locally: fetchFlags makes no request; the context goes out as a SEGMENT hit once per change', async () => {
    const d = await double();
    const { instance, statuses } = await startSdk(d, new MemoryVisitorCache(), 60);
    assert.deepEqual(statuses, ['SDK_INITIALIZING', 'SDK_INITIALIZED']);
    const before = d.requests.length;
    const visitors: Visitor[] = [];
    for (const v of VECTORS) {
      const visitor = await fetched(instance, v.id);
      assert.equal(visitor.flagStatus, 'FETCHED');
      assert.deepEqual(variations(visitor), [v.variation, v.variation50], v.id);
      visitors.push(visitor);
    }
    const [first] = visitors;
    assert.ok(first);
    await first.fetchFlags(); // same context: no second SEGMENT
    first.updateContext('plan', 'premium');
    await first.fetchFlags();
    assert.equal(d.requests.length, before, 'no request at all while fetching flags');
    assert.equal(d.requestsTo('decision').length, 0);

    await instance.close(); // flushes the pool
    const segments = hitsReceived(d).filter((h) => h.t === 'SEGMENT');
    assert.equal(segments.length, VECTORS.length + 1);
    const mine = segments.filter((h) => h.vid === A.id).map((h) => h.s as Record<string, string>);
    assert.equal(mine.length, 2);
    assert.equal(mine[0]?.fs_users, A.id);
    assert.equal(mine[1]?.plan, 'premium');
  });

  void test('keeps assignments across 304s, an allocation change (new file, new ETag) and a restart', async () => {
    const d = await double();
    const visitorCache = new MemoryVisitorCache();
    const first = await startSdk(d, visitorCache);
    const a = await fetched(first.instance, A.id);
    assert.deepEqual(variations(a), [4, 1]);
    const states = track(a);

    await until(() => d.requestsTo('bucketing').some((r) => r.headers['if-none-match'] === '"b1"'), {
      what: 'a poll with If-None-Match "b1"',
      timeoutMs: 3000,
    });
    await until(() => d.requestsTo('bucketing').length >= 3, {
      what: 'three bucketing requests',
      timeoutMs: 4000,
    });
    assert.deepEqual(states, [], 'a 304 re-evaluates nobody');

    // All of group bs8qvmo4nlr01fl9bbbb's allocation moves to variation 1.
    d.script.bucketing = vectorFile({ allocations25: [100, 0, 0, 0] });
    d.script.bucketingEtag = '"b2"';
    await until(() => states.length >= 2, { what: 'the re-evaluation on the new file', timeoutMs: 4000 });
    assert.deepEqual(states.slice(0, 2), ['FETCHING', 'FETCHED'], 're-evaluated on the new file');
    assert.deepEqual(variations(a), [4, 1], 'sticky: the first variation stays');
    assert.deepEqual(
      variations(await fetched(first.instance, C.id)),
      [1, C.variation50],
      'new visitors: new allocation',
    );
    assert.deepEqual(
      first.statuses,
      ['SDK_INITIALIZING', 'SDK_INITIALIZED'],
      'no status change for a new file',
    );

    await first.instance.close();
    // The next download is held back: the restarted SDK must be usable from the cached file before it lands.
    d.script.queued.bucketing = [{ status: 304, headers: { etag: '"b2"' }, delayMs: 1500 }];
    const requestsBefore = d.requestsTo('bucketing').length;
    const second = await startSdk(d, visitorCache);
    assert.deepEqual(second.statuses, ['SDK_INITIALIZING', 'SDK_INITIALIZED']);
    const restarted = await fetched(second.instance, A.id);
    assert.deepEqual(variations(restarted), [4, 1], 'sticky across the restart');
    assert.deepEqual(variations(await fetched(second.instance, D.id)), [1, D.variation50]);
    await until(() => d.requestsTo('bucketing').length > requestsBefore, {
      what: "the restarted SDK's held-back download",
      timeoutMs: 3000,
    });
    assert.equal(d.requestsTo('bucketing')[requestsBefore]?.headers['if-none-match'], '"b2"');
    assert.equal(d.requestsTo('decision').length, 0);
  });

  void test('a panic flip puts the SDK and its visitors in panic, and back', async () => {
    const d = await double();
    const { instance, statuses } = await startSdk(d);
    const a = await fetched(instance, A.id);
    d.script.bucketing = vectorFile({ panic: true });
    d.script.bucketingEtag = '"p1"';
    await until(() => a.flagStatus === 'PANIC', { what: 'the panic file applied', timeoutMs: 4000 });
    assert.equal(instance.getStatus(), 'SDK_PANIC');
    assert.deepEqual(variations(a), [-1, -1], 'defaults in panic');

    d.script.bucketing = vectorFile();
    d.script.bucketingEtag = '"p2"';
    await until(() => a.flagStatus === 'FETCHED', { what: 'the file after panic applied', timeoutMs: 4000 });
    assert.deepEqual(statuses, ['SDK_INITIALIZING', 'SDK_INITIALIZED', 'SDK_PANIC', 'SDK_INITIALIZED']);
    assert.deepEqual(variations(a), [4, 1]);
  });

  void test('no file at all: SDK_INITIALIZING, defaults and FLAGS_FETCHING_ERROR until a retry brings one', async () => {
    const d = await double();
    d.script.bucketing = null; // the double answers 404
    const { instance, statuses, logs } = await startSdk(d);
    assert.deepEqual(statuses, ['SDK_INITIALIZING'], 'start resolved without a file');
    const a = await fetched(instance, A.id);
    assert.equal(a.flagStatus, 'FETCH_REQUIRED');
    assert.equal(a.fetchReasons, 'FLAGS_FETCHING_ERROR');
    assert.deepEqual(variations(a), [-1, -1]);
    assert.ok(logs.lines.some((l) => /bucketing file download was refused \(answered 404/.test(l.message)));

    d.script.bucketing = vectorFile();
    await until(() => a.flagStatus === 'FETCHED', { what: 'the file that a retry brings', timeoutMs: 4000 });
    assert.deepEqual(statuses, ['SDK_INITIALIZING', 'SDK_INITIALIZED']);
    assert.deepEqual(variations(a), [4, 1], 're-evaluated once the file arrived');
  });

  void test("the file's enabledXPC reaches the SDK: an authenticated visitor keeps its anonymous variations", async () => {
    const d = await double();
    d.script.bucketing = vectorFile({ xpc: true });
    const { instance, logs } = await startSdk(d, new MemoryVisitorCache(), 60);
    const visitor = await fetched(instance, A.id);
    assert.deepEqual(variations(visitor), [4, 1]);
    visitor.authenticate(B.id); // alone, B.id would get [1, 2]
    await visitor.fetchFlags();
    assert.deepEqual(variations(visitor), [4, 1]);
    assert.ok(!logs.lines.some((l) => l.message.includes('experience continuity is off')));
  });
});
