// Developer usage tracking (PROTOCOL.md §12): sampling, once per visitor and day, the body, the opt-out.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { until } from '../../support/until.js';
import { startSdk, type Sdk } from '../support.js';

/** An independent MurmurHash3 x86 32-bit (seed 0) over UTF-8 bytes, checked below on PROTOCOL.md §15's vectors. */
const reference = (input: string): number => {
  const bytes = Buffer.from(input, 'utf8');
  let h = 0;
  const blocks = bytes.length - (bytes.length % 4);
  const mix = (k: number): number => {
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    return Math.imul(k, 0x1b873593);
  };
  for (let i = 0; i < blocks; i += 4) {
    h ^= mix(bytes.readUInt32LE(i));
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  for (let i = bytes.length - 1; i >= blocks; i--) k = (k << 8) | (bytes[i] ?? 0);
  if (bytes.length > blocks) h ^= mix(k);
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

let sdk: Sdk | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

void describe('developer usage tracking (PROTOCOL.md §12)', () => {
  void test('the reference hash matches the vectors of §15', () => {
    assert.equal(reference(''), 0);
    assert.equal(reference('a'), 1009084850);
    assert.equal(reference('123visitor_1'), 3635969351);
    assert.equal(reference('vg1訪問者'), 1327157629);
    assert.equal(reference('vg1😀'), 3030894495);
  });

  void test('a sampled visitor-day sends one text/plain usage hit with the configuration; others send none', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const ids = Array.from({ length: 5000 }, (_, i) => `visitor-${i}`);
    const sampled = ids.find((id) => reference(id + day) % 1000 < 2);
    const unsampled = ids.filter((id) => reference(id + day) % 1000 >= 2).slice(0, 20);
    assert.ok(sampled !== undefined);
    sdk = await startSdk({}, (c) => c.withDisableDeveloperUsageTracking(false).withTimeout(1500));
    for (const id of unsampled) sdk.instance.newVisitor({ visitorId: id, hasConsented: true }).build();
    sdk.instance.newVisitor({ visitorId: sampled, hasConsented: true }).build();
    sdk.instance.newVisitor({ visitorId: sampled, hasConsented: false }).build();
    const { double } = sdk;
    await until(() => double.requestsTo('usage').length >= 1, { what: 'the usage hit' });
    await sdk.instance.close();
    const usage = sdk.double.requestsTo('usage');
    assert.equal(usage.length, 1);
    const [request] = usage;
    assert.equal(request?.headers['content-type'], 'text/plain');
    const body = request.body as { t: string; cid: string; vid: string; cv: Record<string, string> };
    assert.equal(body.t, 'USAGE');
    assert.equal(body.cid, 'env1');
    assert.notEqual(body.vid, sampled, 'vid is the SDK instance id, never visitor data');
    assert.deepEqual(body.cv, {
      version: '1',
      'stack.name': 'feature-ts',
      'stack.version': '0.1.0',
      'sdk.config.mode': 'DECISION_API',
      'sdk.config.timeout': '1500',
      'sdk.config.logLevel': '9',
      'sdk.config.pollingInterval': '60',
      'sdk.config.trackingManager.strategy': 'BATCH_PERIODIC_CACHING',
      'sdk.config.trackingManager.batchIntervals': '5',
      'sdk.config.trackingManager.poolMaxSize': '10',
      'sdk.config.usingCustomHitCache': 'false',
      'sdk.config.usingCustomVisitorCache': 'true',
      'sdk.config.usingOnVisitorExposed': 'false',
    });
    assert.ok(Object.values(body.cv).every((v) => typeof v === 'string'));
  });

  void test('withDisableDeveloperUsageTracking(true) sends nothing', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const sampled = Array.from({ length: 5000 }, (_, i) => `visitor-${i}`).find(
      (id) => reference(id + day) % 1000 < 2,
    );
    sdk = await startSdk();
    sdk.instance.newVisitor({ visitorId: sampled ?? '', hasConsented: true }).build();
    await sdk.instance.close();
    assert.equal(sdk.double.requestsTo('usage').length, 0);
  });
});
