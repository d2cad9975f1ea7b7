// The cache modes of PROTOCOL.md §17 in bucketing mode, where what a returning page keeps is the bucketing
// file: local-cache-first uses the cached file at once and refreshes it in the background; network-first waits
// for the download and uses the cached file only when it fails (a 304 confirms it); disabled neither reads nor
// saves the file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryBucketingFileCache } from '../../../src/core/decision/bucketing-file-cache.js';
import { CacheMode, FSSdkStatus } from '../../../src/core/status.js';
import { vectorFile } from './bucketing-files.js';
import { bucketingTestContext, faultLines } from './bucketing-harness.js';

const ctx = bucketingTestContext();

/** A file cache holding a file in panic (an old copy), under the double's file URL, with `etag`. */
const cachedPanic = async (etag = '"old"'): Promise<MemoryBucketingFileCache> => {
  const cache = new MemoryBucketingFileCache();
  await cache.save(ctx.fileUrl(), {
    body: JSON.stringify(vectorFile({ panic: true })),
    etag,
    lastModified: null,
    savedAt: 0,
  });
  return cache;
};

void describe('bucketing source: cache modes (PROTOCOL.md §17)', () => {
  void test('local-cache-first: the cached file is in use at once, the download replaces it after', async () => {
    const h = await ctx.start({ cache: await cachedPanic() });
    // The cached file's panic showed first; the downloaded file (no panic) follows once it lands.
    assert.equal(h.statuses[0], FSSdkStatus.SDK_PANIC);
  });

  void test('network-first: start waits for the download; the cached copy never shows', async () => {
    const h = await ctx.start({ cache: await cachedPanic(), cacheMode: CacheMode.NETWORK_FIRST });
    assert.deepEqual(h.statuses, [FSSdkStatus.SDK_INITIALIZED]);
    // The cached file's validators made the download conditional.
    assert.equal(ctx.bucketingRequests()[0]?.['if-none-match'], '"old"');
  });

  void test('network-first: a 304 confirms the cached file, which is then used', async () => {
    const h = await ctx.start({ cache: await cachedPanic('"b1"'), cacheMode: CacheMode.NETWORK_FIRST });
    assert.deepEqual(h.statuses, [FSSdkStatus.SDK_PANIC]);
    assert.deepEqual(faultLines(h), []);
  });

  void test('network-first: when the download fails, the cached file is used', async () => {
    ctx.double.script.queued.bucketing = [{ status: 503, body: { message: 'down', code: 'unavailable' } }];
    const h = await ctx.start({ cache: await cachedPanic(), cacheMode: CacheMode.NETWORK_FIRST });
    assert.deepEqual(h.statuses, [FSSdkStatus.SDK_PANIC]);
    assert.match(faultLines(h)[0] ?? '', /the cached file is used meanwhile/);
    assert.ok(h.logs.lines.some((l) => /the cached file is in use until it succeeds/.test(l.message)));
  });

  void test('disabled: the cached file is not read, and the downloaded one is not saved', async () => {
    ctx.double.script.queued.bucketing = [{ status: 503, body: { message: 'down', code: 'unavailable' } }];
    const cache = await cachedPanic();
    const h = await ctx.start({ cache, cacheMode: CacheMode.DISABLED });
    assert.deepEqual(h.statuses, [], 'no file: the cached one was not read');
    assert.equal(ctx.bucketingRequests()[0]?.['if-none-match'], undefined);
    const fresh = new MemoryBucketingFileCache();
    await ctx.start({ cache: fresh, cacheMode: CacheMode.DISABLED });
    assert.equal(await fresh.load(ctx.fileUrl()), null);
  });
});
