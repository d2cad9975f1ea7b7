// The cache modes of PROTOCOL.md §17 as a returning visitor meets them (decision-API mode): what the visitor
// reads first, and what it reads when the network fails or times out. The visitor cache records its calls, so
// `disabled`'s "no reads, no writes" is checked on the calls themselves.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { IVisitorCacheImplementation } from '../../../src/protocol/index.js';
import { CacheMode, FetchFlagsRequiredStatusReason as Reason, FlagStatus } from '../../../src/core/status.js';
import type { Visitor } from '../../../src/core/visitor/visitor.js';
import { until } from '../../support/until.js';
import { makeVisitorRecordText } from '../records.js';
import { campaign, decision, startSdk, type Sdk } from '../support.js';

const red = campaign('c1', 'vg1', 'v1', { btnColor: 'red' });
const blue = decision('*', [campaign('c1', 'vg1', 'v2', { btnColor: 'blue' })]);

/** A visitor cache in memory that records each call; seeded with a record of `returning`, who saw red. */
class RecordingCache implements IVisitorCacheImplementation {
  readonly calls: string[] = [];
  readonly records = new Map<string, string>([['returning', makeVisitorRecordText('returning', [red])]]);
  cacheVisitor(visitorId: string, json: string): void {
    this.calls.push(`cacheVisitor ${visitorId}`);
    this.records.set(visitorId, json);
  }
  lookupVisitor(visitorId: string): Promise<string | null> {
    this.calls.push(`lookupVisitor ${visitorId}`);
    return Promise.resolve(this.records.get(visitorId) ?? null);
  }
  flushVisitor(visitorId: string): void {
    this.calls.push(`flushVisitor ${visitorId}`);
    this.records.delete(visitorId);
  }
}

/** Every value of `btnColor` the visitor showed, from its creation on ("none": the default). */
const shown = (visitor: Visitor): string[] => {
  const values = [visitor.getFlag('btnColor').value<string>('none')];
  visitor.$flags.listen(() => values.push(visitor.getFlag('btnColor').value<string>('none')));
  return values;
};

void describe('cache modes (PROTOCOL.md §17)', () => {
  let sdk: Sdk | undefined;
  let cache: RecordingCache;
  afterEach(async () => {
    await sdk?.close();
    sdk = undefined;
  });
  const start = async (mode: CacheMode | undefined, timeout = 2000): Promise<Sdk> => {
    cache = new RecordingCache();
    sdk = await startSdk({ decide: () => blue }, (b) => {
      const c = b.withCacheVisitorManager(cache).withTimeout(timeout);
      return mode === undefined ? c : c.withCacheMode(mode);
    });
    return sdk;
  };
  const returning = (s: Sdk): Visitor =>
    s.instance.newVisitor({ visitorId: 'returning', hasConsented: true }).build();

  void it('local-cache-first (default): the kept flags show at once, FLAGS_FETCHED_FROM_CACHE, then the answer', async () => {
    const s = await start(undefined);
    const visitor = returning(s);
    const values = shown(visitor);
    await until(() => visitor.fetchReasons === Reason.FLAGS_FETCHED_FROM_CACHE, { what: 'the kept flags' });
    assert.equal(visitor.getFlag('btnColor').value('none'), 'red');
    await visitor.fetchFlags();
    assert.deepEqual(values, ['none', 'red', 'blue']);
  });

  void it('network-first: no kept flag shows before the answer; the answer is the first variation seen', async () => {
    const s = await start(CacheMode.NETWORK_FIRST);
    const visitor = returning(s);
    const values = shown(visitor);
    // fetchFlags waits for the creation lookup: every value shown from creation to the answer is recorded.
    await visitor.fetchFlags();
    assert.deepEqual(values, ['none', 'blue']);
    assert.deepEqual([visitor.flagStatus, visitor.fetchReasons], [FlagStatus.FETCHED, Reason.NONE]);
    // The record is still read (sticky history, what was sent) and written.
    assert.deepEqual(cache.calls, ['lookupVisitor returning', 'cacheVisitor returning']);
  });

  void it('network-first: when the fetch fails, the kept flags are used, FLAGS_FETCHED_FROM_CACHE', async () => {
    const s = await start(CacheMode.NETWORK_FIRST);
    s.double.script.queued.decision = [{ status: 500, body: { message: 'down' } }];
    const visitor = returning(s);
    const values = shown(visitor);
    await visitor.fetchFlags();
    assert.deepEqual(values, ['none', 'red']);
    assert.deepEqual(
      [visitor.flagStatus, visitor.fetchReasons],
      [FlagStatus.FETCH_REQUIRED, Reason.FLAGS_FETCHED_FROM_CACHE],
    );
    // Once fetched, a later failure keeps the fetched flags (§9.4), never the older kept copy.
    await visitor.fetchFlags();
    s.double.script.queued.decision = [{ status: 500, body: { message: 'down' } }];
    await visitor.fetchFlags();
    assert.deepEqual(values, ['none', 'red', 'blue']);
  });

  void it('network-first: a fetch that times out falls back to the kept flags', async () => {
    const s = await start(CacheMode.NETWORK_FIRST, 100);
    s.double.script.queued.decision = [{ status: 200, body: blue, delayMs: 2000 }];
    const visitor = returning(s);
    await visitor.fetchFlags();
    assert.equal(visitor.getFlag('btnColor').value('none'), 'red');
    assert.equal(visitor.fetchReasons, Reason.FLAGS_FETCHED_FROM_CACHE);
  });

  void it('network-first: a visitor with no record shows the defaults on failure (FLAGS_FETCHING_ERROR)', async () => {
    const s = await start(CacheMode.NETWORK_FIRST);
    s.double.script.queued.decision = [{ status: 500, body: { message: 'down' } }];
    const visitor = s.instance.newVisitor({ visitorId: 'new', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.equal(visitor.getFlag('btnColor').value('none'), 'none');
    assert.equal(visitor.fetchReasons, Reason.FLAGS_FETCHING_ERROR);
  });

  void it('disabled: the visitor cache is neither read nor written; a consent withdrawal still erases the record', async () => {
    const s = await start(CacheMode.DISABLED);
    const visitor = returning(s);
    const values = shown(visitor);
    await visitor.fetchFlags();
    assert.deepEqual(values, ['none', 'blue']);
    s.double.script.queued.decision = [{ status: 500, body: { message: 'down' } }];
    const again = returning(s);
    await again.fetchFlags();
    assert.equal(again.getFlag('btnColor').value('none'), 'none');
    assert.equal(again.fetchReasons, Reason.FLAGS_FETCHING_ERROR);
    assert.deepEqual(cache.calls, []);
    await visitor.setConsent(false);
    assert.deepEqual(cache.calls, ['flushVisitor returning']);
  });
});
