// Bucketing mode in Chromium (PROTOCOL.md §16.1): a file cached in IndexedDB makes the SDK usable at once,
// before the network answers; a downloaded file lands in IndexedDB; fetchFlags makes no request.
import { assert } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import {
  ConfigBuilder,
  FeatureInstance,
  Level,
  MemoryHitCache,
  MemoryVisitorCache,
  Mode,
  type FSSdkStatus,
} from '../../../src/core/index.js';
import { IdbBucketingFileCache } from '../../../src/core/decision/bucketing-file-cache.js';
import { VECTORS, vectorFile } from './bucketing-files.js';
import { until } from '../../support/until.js';

interface Recorded {
  path: string;
  headers: Record<string, string>;
}

const startDouble = (script: object) =>
  executeServerCommand<{ id: string; url: string }, object>('double-start', { script });
const requests = (id: string, kind?: string) =>
  executeServerCommand<Recorded[], object>('double-requests', kind ? { id, kind } : { id });
const stopDouble = (id: string) => executeServerCommand('double-stop', { id });

const files = new IdbBucketingFileCache({ warning: () => undefined });

const start = async (url: string): Promise<{ instance: FeatureInstance; statuses: FSSdkStatus[] }> => {
  const instance = new FeatureInstance();
  const statuses: FSSdkStatus[] = [];
  await instance.start(
    'env1',
    'key1',
    new ConfigBuilder()
      .withMode(Mode.BUCKETING)
      .withServerUrl(url)
      .withLogLevel(Level.NONE)
      .withDisableDeveloperUsageTracking(true)
      // No batch during the test: every request it sees comes from the SDK's own calls.
      .withTrackingConfig({ batchIntervals: 60, poolMaxSize: 100 })
      .withCacheVisitorManager(new MemoryVisitorCache())
      .withCacheHitManager(new MemoryHitCache())
      .withStatusListener((s) => statuses.push(s))
      .build(),
  );
  return { instance, statuses };
};

const [A] = VECTORS;

describe('bucketing mode in the browser', () => {
  it('starts from the file cached in IndexedDB before the network answers, then applies the answer', async () => {
    // The network's answer is a file in panic, held back: SDK_INITIALIZED at start can only come from the cache.
    const double = await startDouble({
      bucketing: vectorFile(),
      queued: {
        bucketing: [
          { status: 200, body: vectorFile({ panic: true }), headers: { etag: '"p1"' }, delayMs: 1500 },
        ],
      },
    });
    try {
      const fileUrl = `${double.url}/cdn/env1/bucketing.json`;
      await files.save(fileUrl, {
        body: JSON.stringify(vectorFile()),
        etag: '"b1"',
        lastModified: null,
        savedAt: Date.now(),
      });
      const { instance, statuses } = await start(double.url);
      assert.deepEqual(statuses, ['SDK_INITIALIZING', 'SDK_INITIALIZED']);
      const visitor = instance.newVisitor({ visitorId: A.id, hasConsented: true }).build();
      await visitor.fetchFlags();
      assert.equal(visitor.getFlag('variation').value(-1), A.variation);
      assert.equal(visitor.getFlag('variation50').value(-1), A.variation50);
      assert.deepEqual(statuses, ['SDK_INITIALIZING', 'SDK_INITIALIZED'], 'still before the answer');

      // The background refresh may still be on its way to the server: wait until it has arrived.
      await until(async () => (await requests(double.id, 'bucketing')).length > 0, {
        what: 'the refresh request',
      });
      const [refresh] = await requests(double.id, 'bucketing');
      assert.equal(refresh?.headers['if-none-match'], '"b1"', 'the refresh names the cached ETag');
      await until(() => visitor.flagStatus === 'PANIC', { what: 'the PANIC status' });
      assert.deepEqual(statuses, ['SDK_INITIALIZING', 'SDK_INITIALIZED', 'SDK_PANIC']);
      await until(async () => (await files.load(fileUrl))?.etag === '"p1"', { what: 'the new file kept' });
      await instance.close();
    } finally {
      await stopDouble(double.id);
    }
  });

  it('caches a downloaded file in IndexedDB; fetchFlags makes no request', async () => {
    const double = await startDouble({ bucketing: vectorFile() });
    try {
      const { instance, statuses } = await start(double.url);
      assert.deepEqual(statuses, ['SDK_INITIALIZING', 'SDK_INITIALIZED']);
      const saved = await files.load(`${double.url}/cdn/env1/bucketing.json`);
      assert.equal(saved?.etag, '"b1"');
      const before = (await requests(double.id)).length;
      for (const v of VECTORS) {
        const visitor = instance.newVisitor({ visitorId: v.id, hasConsented: true }).build();
        await visitor.fetchFlags();
        assert.equal(visitor.getFlag('variation').value(-1), v.variation, v.id);
      }
      assert.equal((await requests(double.id)).length, before);
      await instance.close();
    } finally {
      await stopDouble(double.id);
    }
  });
});
