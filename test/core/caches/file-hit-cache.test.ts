// The file hit cache (`feature-ts/file-hit-cache`) on the real file system, in a fresh temporary folder per
// test: the shared hit cache contract, the file's format (the §11 map, readable as JSON), writes that replace
// the file whole, the bounds, an unreadable file, a stale lock, two cache objects on one file (as two
// processes), and wrong options. The restart across real processes is file-hit-cache-restart.test.ts.
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileHitCache, fileHitCache } from '../../../src/core/caches/file-hit-cache.js';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import { nodeHarness } from '../shared/node-harness.js';
import { defineHitCacheSuite, sampleHits } from './hit-cache.suite.js';

const root = mkdtempSync(join(tmpdir(), 'feature-ts-file-hit-cache-'));
after(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
/** A folder of its own for one test (removed with the root after the file). */
const folder = (): string => {
  const dir = join(root, `t${++folders}`);
  mkdirSync(dir);
  return dir;
};

const hit = (hid: string, createdAt: number): HitCacheRecord => ({
  version: 1,
  data: {
    visitorId: 'v1',
    anonymousId: null,
    type: 'SCREENVIEW',
    time: createdAt,
    content: { hid, createdAt, location: 'home' },
  },
});

const hidsOf = (found: Array<Record<string, HitCacheRecord>>): string[] =>
  found.flatMap((map) => Object.keys(map)).sort();

defineHitCacheSuite(nodeHarness, 'FileHitCache', () => ({
  cache: fileHitCache(join(folder(), 'nested', 'hits.json')),
}));

void describe('FileHitCache: the file', () => {
  void it('is the JSON map of PROTOCOL.md §11 records keyed by hid, made with its folders', async () => {
    const path = join(folder(), 'a', 'b', 'hits.json');
    const cache = fileHitCache(path);
    await cache.cacheHits(sampleHits());
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), sampleHits());
    assert.equal(cache.path, path);
  });

  void it('is replaced whole at each write (a new file renamed over it), leaving no temporary file', async () => {
    const dir = folder();
    const path = join(dir, 'hits.json');
    const cache = fileHitCache({ path });
    await cache.cacheHits({ a: hit('a', 1) });
    const before = statSync(path).ino;
    await cache.cacheHits({ b: hit('b', 2) });
    assert.notEqual(statSync(path).ino, before, 'a rename, never a write in place');
    assert.deepEqual(readdirSync(dir), ['hits.json'], 'no temporary or lock file left');
  });

  void it('is removed once nothing is left in it', async () => {
    const dir = folder();
    const cache = fileHitCache(join(dir, 'hits.json'));
    await cache.cacheHits({ a: hit('a', 1), b: hit('b', 2) });
    await cache.flushHits(['a', 'b']);
    assert.deepEqual(readdirSync(dir), []);
    await cache.cacheHits({ c: hit('c', 3) });
    await cache.flushAllHits();
    assert.deepEqual(readdirSync(dir), []);
  });

  void it('keeps at most maxItems records, the newest by createdAt, and counts the ones dropped', async () => {
    const cache = new FileHitCache({ path: join(folder(), 'hits.json'), maxItems: 3 });
    await cache.cacheHits({ c: hit('c', 30), a: hit('a', 10), e: hit('e', 50) });
    await cache.cacheHits({ b: hit('b', 20), d: hit('d', 40) });
    assert.deepEqual(hidsOf(await cache.lookupHits()), ['c', 'd', 'e']);
    assert.equal(cache.evicted, 2);
  });

  void it('keeps the file within maxBytes, dropping the oldest records', async () => {
    const path = join(folder(), 'hits.json');
    const records = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`h${i}`, hit(`h${i}`, 100 + i)]),
    );
    // What 4 records take in the file (one per line, as written), plus the braces and line ends.
    const line = (hid: string): number =>
      Buffer.byteLength(`${JSON.stringify(hid)}:${JSON.stringify(records[hid])}`) + 2;
    const maxBytes = 4 + line('h6') + line('h7') + line('h8') + line('h9');
    const cache = fileHitCache({ path, maxBytes });
    await cache.cacheHits(records);
    assert.deepEqual(hidsOf(await cache.lookupHits()), ['h6', 'h7', 'h8', 'h9']);
    assert.ok(statSync(path).size <= maxBytes, `${statSync(path).size} bytes > ${maxBytes}`);
  });

  void it('an unreadable file is moved aside with an error naming both paths, then the cache starts empty', async () => {
    const dir = folder();
    const path = join(dir, 'hits.json');
    const cache = fileHitCache(path);
    await cache.cacheHits({ a: hit('a', 1) });
    writeFileSync(path, '{"a": {"version": 1, "da');
    await assert.rejects(cache.lookupHits(), (error: Error) => {
      assert.match(
        error.message,
        /is not a JSON object of hit records; moved to .*hits\.json\.unreadable-\d+/,
      );
      assert.ok(error.message.includes(path));
      return true;
    });
    assert.deepEqual(await cache.lookupHits(), []);
    await cache.cacheHits({ b: hit('b', 2) });
    assert.deepEqual(hidsOf(await cache.lookupHits()), ['b']);
    const aside = readdirSync(dir).find((name) => name.startsWith('hits.json.unreadable-'));
    assert.equal(readFileSync(join(dir, aside ?? 'missing'), 'utf8'), '{"a": {"version": 1, "da');
    writeFileSync(path, '[1, 2]');
    await assert.rejects(cache.cacheHits({ c: hit('c', 3) }), /not a JSON object of hit records/);
  });

  void it('takes over a lock left by a process that died mid-write', async () => {
    const dir = folder();
    const path = join(dir, 'hits.json');
    writeFileSync(`${path}.lock`, '');
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, minuteAgo, minuteAgo);
    const cache = fileHitCache(path);
    await cache.cacheHits({ a: hit('a', 1) });
    assert.deepEqual(hidsOf(await cache.lookupHits()), ['a']);
    assert.deepEqual(readdirSync(dir), ['hits.json']);
  });

  void it('two cache objects on one file (two processes) lose none of each other’s records', async () => {
    const path = join(folder(), 'hits.json');
    const one = fileHitCache(path);
    const two = fileHitCache(path);
    const writes: Array<Promise<void>> = [];
    for (let i = 0; i < 20; i += 1) {
      writes.push(one.cacheHits({ [`one-${i}`]: hit(`one-${i}`, i) }));
      writes.push(two.cacheHits({ [`two-${i}`]: hit(`two-${i}`, i) }));
    }
    await Promise.all(writes);
    assert.equal(hidsOf(await one.lookupHits()).length, 40);
    await Promise.all([one.flushHits(['two-0', 'two-1']), two.flushHits(['one-0'])]);
    const left = hidsOf(await two.lookupHits());
    assert.equal(left.length, 37);
    assert.ok(!left.includes('one-0') && !left.includes('two-1'));
  });
});

void describe('fileHitCache options', () => {
  void it('throws at construction on an option that cannot work, saying what to pass', () => {
    assert.throws(() => fileHitCache(''), /fileHitCache: path must name the cache file/);
    assert.throws(() => fileHitCache({ path: '  ' }), /path must name the cache file/);
    assert.throws(
      () => fileHitCache({ path: 'x.json', maxItems: 0 }),
      /fileHitCache: maxItems must be a positive integer, got 0/,
    );
    assert.throws(
      () => fileHitCache({ path: 'x.json', maxBytes: 1.5 }),
      /fileHitCache: maxBytes must be a positive integer, got 1.5/,
    );
    // Plain JavaScript callers can pass anything.
    assert.throws(() => fileHitCache(undefined as unknown as string), /path must name the cache file/);
  });
});
