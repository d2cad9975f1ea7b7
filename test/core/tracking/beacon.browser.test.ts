// Page hide in Chromium (PROTOCOL.md §5.3): the pool goes out by navigator.sendBeacon as text/plain, stays
// cached (a beacon's answer cannot be read), and a later flush sends the same hids again and cleans up.
import { assert } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { IdbHitCache } from '../../../src/core/caches/idb.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { browserPlatform } from '../../../src/core/platform/browser.js';
import { BatchCachingStrategy } from '../../../src/core/status.js';
import { createTracker } from '../../../src/core/tracking/manager.js';
import type { TrackedVisitor } from '../../../src/core/tracking/tracker.js';
import { until } from '../../support/until.js';

interface Recorded {
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

const visitor: TrackedVisitor = { visitorId: 'user-42', anonymousId: 'anon-7', authenticated: true };

describe('page hide', () => {
  let double: { id: string; url: string };
  const requests = async (kind: string) =>
    await executeServerCommand<Recorded[], { id: string; kind: string }>('double-requests', {
      id: double.id,
      kind,
    });

  beforeEach(async () => {
    double = await executeServerCommand<{ id: string; url: string }, object>('double-start', {});
  });
  afterEach(async () => {
    await executeServerCommand('double-stop', { id: double.id });
  });

  it('beacons hits and activations, keeps them cached, and a later flush acknowledges them', async () => {
    // The page-hide listeners load with browser-page.ts; once it is in, they register within a microtask.
    await import('../../../src/core/platform/browser-page.js');
    const hitCache = new IdbHitCache({ dbName: `feature-beacon-${Date.now()}` });
    const tracker = createTracker({
      envId: 'env1',
      apiKey: 'key1',
      decisionApiUrl: `${double.url}/v2`,
      eventsUrl: `${double.url}/events`,
      config: {
        batchIntervals: 3600,
        poolMaxSize: 100,
        batchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
      },
      hitCache,
      logger: new Logger(Level.NONE),
      onPageHide: (send) => browserPlatform.onPageHide?.(send) ?? (() => undefined),
    });
    await tracker.addHit(visitor, { type: 'SCREENVIEW', content: { location: 'checkout' } });
    await tracker.addActivation(visitor, { variationGroupId: 'vg1', variationId: 'v2', flagKey: 'btnColor' });

    window.dispatchEvent(new PageTransitionEvent('pagehide'));
    await until(
      async () => (await requests('events')).length === 1 && (await requests('activate')).length === 1,
      { what: 'the two beacons' },
    );

    const [events] = await requests('events');
    assert.match(String(events?.headers['content-type']), /^text\/plain/);
    const [hit] = (events?.body as { cid: string; h: Array<Record<string, unknown>> }).h;
    assert.include(hit, { t: 'SCREENVIEW', vid: 'anon-7', cuid: 'user-42', dl: 'checkout' });
    const [activate] = await requests('activate');
    assert.strictEqual(activate?.headers['x-api-key'], undefined, 'a beacon cannot set headers');
    const [activation] = (activate?.body as { cid: string; batch: Array<Record<string, unknown>> }).batch;
    assert.include(activation, { vid: 'user-42', aid: 'anon-7', caid: 'vg1', vaid: 'v2' });

    const copies = Object.keys(Object.assign({}, ...(await hitCache.lookupHits())) as object);
    assert.sameMembers(copies, [hit?.hid, activation?.hid]);

    window.dispatchEvent(new PageTransitionEvent('pagehide'));
    await tracker.flush();
    const eventRequests = await requests('events');
    assert.strictEqual(eventRequests.length, 2, 'a second page hide beacons nothing again');
    const again = (eventRequests[1]?.body as { h: Array<Record<string, unknown>> }).h[0];
    assert.strictEqual(again?.hid, hit?.hid, 'the flush re-sends with the same hid');
    assert.deepEqual(await hitCache.lookupHits(), []);

    await tracker.close();
    await hitCache.close();
  });
});
