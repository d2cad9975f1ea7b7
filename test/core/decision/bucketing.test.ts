// The bucketing source (PROTOCOL.md §2.5, §6, §16.1): first download, cache at start, conditional polling,
// 304, new files and panic flips, against the protocol double on 127.0.0.1 (faults: bucketing-faults.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryBucketingFileCache } from '../../../src/core/decision/bucketing-file-cache.js';
import type { DecisionOutcome } from '../../../src/core/decision/source.js';
import type { BucketingFile } from '../../../src/protocol/index.js';
import { until } from '../../support/until.js';
import { VECTORS, VG25, VG50, variationId, vectorFile } from './bucketing-files.js';
import { assigned, bucketingTestContext, input, scheduled } from './bucketing-harness.js';

const ctx = bucketingTestContext();

void describe('bucketing source: first file and cache at start', () => {
  void test('downloads the file, reports SDK_INITIALIZED once, caches it with its ETag and assigns per §15', async () => {
    const h = await ctx.start();
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED']);
    assert.equal(ctx.bucketingRequests().length, 1);
    assert.equal(ctx.bucketingRequests()[0]?.['if-none-match'], undefined, 'no validator without a file');
    const saved = await h.cache.load(ctx.fileUrl());
    assert.equal(saved?.etag, '"b1"');
    assert.deepEqual(JSON.parse(saved.body), vectorFile());
    for (const v of VECTORS) {
      const outcome = await h.source.decide(input(v.id));
      assert.ok(outcome.ok);
      const expected = {
        [VG25]: variationId('variation', v.variation),
        [VG50]: variationId('variation50', v.variation50),
      };
      assert.deepEqual(await assigned(h.source, input(v.id)), expected, v.id);
      assert.deepEqual(outcome.newAssignments, expected, 'first visit: both groups allocated now');
      assert.deepEqual(outcome.decision.extras, {
        accountSettings: { enabledXPC: false, enabled1V1T: false },
      });
    }
    assert.equal(h.changed.count, 1, 'the one new file');
  });

  void test('a history keeps its variation (even at allocation 0) and is not reported as new', async () => {
    ctx.double.script.bucketing = vectorFile({ allocations25: [100, 0, 0, 0] });
    const h = await ctx.start();
    const outcome = await h.source.decide(input(VECTORS[0].id, { [VG25]: variationId('variation', 4) }));
    assert.ok(outcome.ok);
    assert.equal(outcome.decision.campaigns[0]?.variation.id, variationId('variation', 4));
    assert.deepEqual(outcome.newAssignments, { [VG50]: variationId('variation50', 1) });
  });

  void test('a cached file is usable at once; the refresh is conditional and runs in the background', async () => {
    const cache = new MemoryBucketingFileCache();
    await cache.save(ctx.fileUrl(), {
      body: JSON.stringify(vectorFile()),
      etag: '"b1"',
      lastModified: null,
      savedAt: 1,
    });
    ctx.double.script.queued.bucketing = [{ status: 304, headers: { etag: '"b1"' }, delayMs: 300 }];
    const h = await ctx.start({ cache });
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED'], 'before the network answered');
    assert.deepEqual(await assigned(h.source, input(VECTORS[0].id)), {
      [VG25]: variationId('variation', 4),
      [VG50]: variationId('variation50', 1),
    });
    await until(() => scheduled(h).length === 1, { what: 'poll number 1 scheduled' });
    assert.equal(ctx.bucketingRequests()[0]?.['if-none-match'], '"b1"');
    assert.deepEqual(scheduled(h), [60_000], 'a 304 is a success: next poll after the interval');
    assert.equal(h.changed.count, 0, 'a 304 changes nothing');
  });

  void test('a cached file in panic starts in SDK_PANIC (one change); a cached non-file is ignored', async () => {
    const cache = new MemoryBucketingFileCache();
    await cache.save(ctx.fileUrl(), {
      body: JSON.stringify(vectorFile({ panic: true })),
      etag: '"b1"',
      lastModified: null,
      savedAt: 1,
    });
    const h = await ctx.start({ cache });
    assert.deepEqual(h.statuses, ['SDK_PANIC']);
    const { flags, basis, ...outcome } = (await h.source.decide(input('v1'))) as DecisionOutcome & {
      ok: true;
    };
    assert.ok(basis !== undefined, 'the file it was decided on');
    assert.deepEqual(outcome, {
      ok: true,
      decision: { visitorId: 'v1', campaigns: [], panic: true },
      newAssignments: {},
    });
    assert.deepEqual([...(flags ?? [])], []);

    await cache.save(ctx.fileUrl(), { body: '{"panic":fa', etag: '"old"', lastModified: null, savedAt: 1 });
    const again = await ctx.start({ cache });
    assert.deepEqual(again.statuses, ['SDK_INITIALIZED'], 'the download replaced it');
    assert.ok(
      again.logs.lines.some((l) => l.message.includes('cached bucketing file is not a bucketing file')),
    );
    assert.equal(
      ctx.bucketingRequests().at(-1)?.['if-none-match'],
      undefined,
      'the ignored file names no ETag',
    );
  });
});

void describe('bucketing source: flags', () => {
  void test('gives each decision its flags, the same flag objects for every visitor of a variation (built once)', async () => {
    const h = await ctx.start();
    const outcomes = [];
    for (const v of VECTORS) outcomes.push(await h.source.decide(input(v.id)));
    for (const [i, outcome] of outcomes.entries()) {
      assert.ok(outcome.ok);
      const v = VECTORS[i];
      assert.equal(outcome.flags?.get('variation')?.value, v?.variation, 'the value of §15');
      assert.equal(outcome.flags?.get('variation50')?.value, v?.variation50);
      assert.equal(outcome.flags?.get('variation')?.metadata.variationGroupId, VG25);
    }
    // §15: visitors 1 and 4 (indexes 1, 4) both get variation 1 of VG25: one flag object for both.
    const [, second, , , fifth] = outcomes;
    assert.ok(second?.ok && fifth?.ok);
    assert.equal(second.flags?.get('variation'), fifth.flags?.get('variation'));
    assert.ok(Object.isFrozen(second.flags?.get('variation')), 'shared, so frozen');
  });
});

void describe('bucketing source: a decision given again (issue 33)', () => {
  void test('gives a previous decision made on the file in use as it was, and decides anew on a new file', async () => {
    const h = await ctx.start({ pollingIntervals: 60 });
    const visitor = input(VECTORS[0].id);
    const first = await h.source.decide(visitor);
    assert.ok(first.ok && first.basis !== undefined, 'a decision names the file it was made on');
    // Campaigns the engine would never give this visitor: given back, they show that nothing was evaluated.
    const [, halves] = first.decision.campaigns;
    assert.ok(halves !== undefined);
    const kept = [halves];
    const again = await h.source.decide({ ...visitor, previous: { basis: first.basis, campaigns: kept } });
    assert.ok(again.ok);
    assert.equal(again.decision.campaigns, kept, 'the previous campaigns themselves');
    assert.deepEqual(again.newAssignments, {}, 'nothing new to remember');
    assert.equal(again.basis, first.basis);
    assert.deepEqual(
      again.decision.extras,
      first.decision.extras,
      'the account settings, as a decision gives them',
    );
    assert.deepEqual([...(again.flags?.keys() ?? [])], ['variation50']);
    const thrice = await h.source.decide({ ...visitor, previous: { basis: first.basis, campaigns: kept } });
    assert.ok(thrice.ok);
    assert.equal(thrice.flags, again.flags, 'its flags are built once');
    // Someone else's basis (another file, another SDK instance): decided anew.
    const stranger = await h.source.decide({ ...visitor, previous: { basis: {}, campaigns: kept } });
    assert.ok(stranger.ok);
    assert.equal(stranger.decision.campaigns.length, 2);

    ctx.double.script.bucketing = vectorFile({ allocations25: [100, 0, 0, 0] });
    ctx.double.script.bucketingEtag = '"b2"';
    ctx.timers.tick(60_000);
    await until(() => h.changed.count === 2, { what: 'the new file installed' });
    const onNewFile = await h.source.decide({
      ...visitor,
      previous: { basis: first.basis, campaigns: kept },
    });
    assert.ok(onNewFile.ok);
    assert.notEqual(onNewFile.basis, first.basis);
    assert.equal(onNewFile.decision.campaigns.length, 2, 'evaluated on the new file');
    // No history was given, so the new allocation applies: everyone in variation 1.
    assert.equal(onNewFile.flags?.get('variation')?.value, 1);
  });

  void test('decides anew in panic, whatever the previous decision', async () => {
    const h = await ctx.start({ pollingIntervals: 60 });
    const visitor = input(VECTORS[0].id);
    const first = await h.source.decide(visitor);
    assert.ok(first.ok);
    ctx.double.script.bucketing = vectorFile({ panic: true });
    ctx.double.script.bucketingEtag = '"p1"';
    ctx.timers.tick(60_000);
    await until(() => h.changed.count === 2, { what: 'the panic file installed' });
    const kept = first.decision.campaigns;
    const outcome = await h.source.decide({
      ...visitor,
      previous: { basis: first.basis ?? {}, campaigns: kept },
    });
    assert.ok(outcome.ok);
    assert.equal(outcome.decision.panic, true);
  });
});

void describe('bucketing source: polling', () => {
  void test('polls every interval with If-None-Match; 304 keeps the file; new bytes replace it and call changed()', async () => {
    const h = await ctx.start({ pollingIntervals: 60 });
    assert.equal(h.changed.count, 1);
    ctx.timers.tick(59_999);
    // The poll runs only from its timer, which fires inside tick(): still armed, it has not run.
    assert.deepEqual(ctx.timers.pending(), [1], 'not before the interval: the poll is due in 1 ms');
    assert.equal(ctx.bucketingRequests().length, 1);
    ctx.timers.tick(1);
    await until(() => scheduled(h).length === 2, { what: 'poll number 2 scheduled' });
    assert.equal(ctx.bucketingRequests()[1]?.['if-none-match'], '"b1"');
    assert.equal(h.changed.count, 1, '304: no change');

    const moved: BucketingFile = vectorFile({ allocations25: [100, 0, 0, 0] });
    ctx.double.script.bucketing = moved;
    ctx.double.script.bucketingEtag = '"b2"';
    ctx.timers.tick(60_000);
    await until(() => h.changed.count === 2, { what: 'changed() call 2' });
    assert.equal(ctx.bucketingRequests()[2]?.['if-none-match'], '"b1"');
    assert.equal((await h.cache.load(ctx.fileUrl()))?.etag, '"b2"', 'the new file is cached with its ETag');
    // A visitor without history now lands in variation 1 (all of the allocation); §15's bucket 70 visitor.
    assert.equal((await assigned(h.source, input(VECTORS[2].id)))[VG25], variationId('variation', 1));
    await until(() => scheduled(h).length === 3, { what: 'poll number 3 scheduled' });
    ctx.timers.tick(60_000);
    await until(() => scheduled(h).length === 4, { what: 'poll number 4 scheduled' });
    assert.equal(ctx.bucketingRequests()[3]?.['if-none-match'], '"b2"');
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED']);
  });

  void test('If-Modified-Since with Last-Modified when the file came without an ETag', async () => {
    const lastModified = 'Sun, 22 Nov 2026 10:00:00 GMT';
    ctx.double.script.queued.bucketing = [
      { status: 200, body: vectorFile(), headers: { 'last-modified': lastModified } },
      { status: 304 },
    ];
    const h = await ctx.start();
    assert.equal((await h.cache.load(ctx.fileUrl()))?.lastModified, lastModified);
    ctx.timers.tick(60_000);
    await until(() => scheduled(h).length === 2, { what: 'poll number 2 scheduled' });
    const headers = ctx.bucketingRequests()[1];
    assert.equal(headers?.['if-modified-since'], lastModified);
    assert.equal(headers['if-none-match'], undefined);
    assert.equal(h.changed.count, 1);
  });

  void test('panic in a new file → SDK_PANIC, and back → SDK_INITIALIZED; each re-evaluates visitors', async () => {
    const h = await ctx.start();
    ctx.double.script.bucketing = vectorFile({ panic: true });
    ctx.double.script.bucketingEtag = '"p1"';
    ctx.timers.tick(60_000);
    await until(() => h.changed.count === 2, { what: 'changed() call 2' });
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED', 'SDK_PANIC']);
    const outcome = await h.source.decide(input('v1'));
    assert.ok(outcome.ok && outcome.decision.panic === true);

    ctx.double.script.bucketing = vectorFile();
    ctx.double.script.bucketingEtag = '"p2"';
    await until(() => scheduled(h).length === 2, { what: 'poll number 2 scheduled' });
    ctx.timers.tick(60_000);
    await until(() => h.changed.count === 3, { what: 'changed() call 3' });
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED', 'SDK_PANIC', 'SDK_INITIALIZED']);
    assert.equal((await assigned(h.source, input(VECTORS[0].id)))[VG25], variationId('variation', 4));
  });
});
