// Batches (PROTOCOL.md §4, §5.2): one bad item is rejected by index and the others are stored, on hits and
// activations alike; the first 1 000 items of a request are processed and the rest rejected by index (never a
// 400 for the size); an answer lists at most 100 rejections and gives the total in rejectedCount, so that a
// body of 200 000 junk items costs a few kilobytes of answer.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  TEXTS,
  assertGoodAfter,
  collected,
  freshHid,
  goodActivation,
  goodHit,
  postJson,
  startCatalogueApp,
  stopCatalogueApp,
  storedActivation,
  storedHit,
} from '../bad-input-support.js';
import { describeOnEveryStoreWith } from '../support.js';

describeOnEveryStoreWith(
  'bad input: batch limits',
  { start: startCatalogueApp, stop: stopCatalogueApp },
  (_kind, started) => {
    void it('hits: a bad one among good ones is rejected by index, the others are stored', async () => {
      const app = started('app');
      const hits = [
        goodHit(),
        { ...goodHit(), ea: TEXTS.NUL },
        goodHit(),
        { ...goodHit(), qt: 1e308 },
        goodHit(),
      ];
      const answer = collected(
        await postJson(`${app.url}/events`, { cid: app.env.envId, t: 'BATCH', h: hits }),
      );
      assert.deepEqual(answer, {
        accepted: 3,
        duplicates: 0,
        rejected: [
          { index: 1, message: 'h[1].ea must not hold U+0000 or a lone surrogate' },
          { index: 3, message: 'h[3].qt must be an integer from 0 to 86400000 (ms, one day)' },
        ],
        rejectedCount: 2,
      });
      for (const index of [0, 2, 4])
        assert.ok(await storedHit(app, hits[index]?.hid ?? ''), `h[${index}] stored`);
      for (const index of [1, 3]) assert.equal(await storedHit(app, hits[index]?.hid ?? ''), undefined);
    });

    void it('activations: a bad one among good ones is rejected by index, the others are stored', async () => {
      const app = started('app');
      const items = [
        goodActivation(),
        { ...goodActivation(), vid: TEXTS['lone surrogate'] },
        goodActivation(),
      ];
      const answer = collected(
        await postJson(`${app.url}/v2/activate`, { cid: app.env.envId, batch: items }),
      );
      assert.deepEqual(answer, {
        accepted: 2,
        duplicates: 0,
        rejected: [{ index: 1, message: 'batch[1].vid must not hold U+0000 or a lone surrogate' }],
        rejectedCount: 1,
      });
      assert.ok(await storedActivation(app, items[0]?.hid ?? ''));
      assert.ok(await storedActivation(app, items[2]?.hid ?? ''));
    });

    void it('hits: 1 500 valid ones: the first 1 000 are stored, the rest rejected by index', async () => {
      const app = started('app');
      const prefix = freshHid('many');
      const hits = Array.from({ length: 1500 }, (_, i) => goodHit(`${prefix}-${i}`));
      const answer = collected(
        await postJson(`${app.url}/events`, { cid: app.env.envId, t: 'BATCH', h: hits }),
      );
      assert.equal(answer.accepted, 1000);
      assert.equal(answer.rejectedCount, 500);
      assert.deepEqual(
        answer.rejected.map((r) => r.index),
        Array.from({ length: 100 }, (_, i) => 1000 + i),
      );
      assert.match(answer.rejected[0]?.message ?? '', /^h\[1000\] was not processed: .*at most 1000/);
      const stored = (await app.store.listHits(app.env.envId)).filter((h) => h.hid?.startsWith(`${prefix}-`));
      assert.equal(stored.length, 1000);
      assert.ok(stored.every((h) => Number((h.hid ?? '').split('-').pop()) < 1000));
      await assertGoodAfter(app, 'hits');
    });

    void it('activations: 1 500 valid ones: the first 1 000 are stored, the rest rejected, no 400', async () => {
      const app = started('app');
      const prefix = freshHid('many');
      const items = Array.from({ length: 1500 }, (_, i) => goodActivation(`${prefix}-${i}`));
      const answer = collected(
        await postJson(`${app.url}/v2/activate`, { cid: app.env.envId, batch: items }),
      );
      assert.equal(answer.accepted, 1000);
      assert.equal(answer.rejectedCount, 500);
      assert.equal(answer.rejected.length, 100);
      assert.equal(answer.rejected[0]?.index, 1000);
      assert.match(answer.rejected[0].message, /^batch\[1000\] was not processed: .*at most 1000/);
      const stored = (await app.store.listActivations(app.env.envId)).filter((a) =>
        a.hid?.startsWith(`${prefix}-`),
      );
      assert.equal(stored.length, 1000);
      // The same request again: the first 1 000 are duplicates (the SDK's resend costs nothing twice).
      const again = collected(await postJson(`${app.url}/v2/activate`, { cid: app.env.envId, batch: items }));
      assert.deepEqual([again.accepted, again.duplicates, again.rejectedCount], [0, 1000, 500]);
      await assertGoodAfter(app, 'activation');
    });

    for (const [route, key, junk] of [
      ['/events', 'h', '1'],
      ['/v2/activate', 'batch', '{}'],
    ] as const) {
      void it(`${route}: a 1.2 MB body of 200 000 junk items gets a bounded answer`, async () => {
        const app = started('app');
        const body = `{"cid":"${app.env.envId}","t":"BATCH","${key}":[${Array(200_000).fill(junk).join(',')}]}`;
        assert.ok(body.length > 400_000 && body.length < 3 * 1024 * 1024);
        const res = await postJson(`${app.url}${route}`, body);
        const answer = collected(res);
        assert.equal(answer.accepted, 0);
        assert.equal(answer.rejectedCount, 200_000);
        assert.equal(answer.rejected.length, 100);
        assert.deepEqual(
          answer.rejected.map((r) => r.index),
          Array.from({ length: 100 }, (_, i) => i),
        );
        assert.ok(res.text.length < 16 * 1024, `${res.text.length} bytes of answer`);
        await assertGoodAfter(app, route === '/events' ? 'hits' : 'activation');
      });
    }

    void it('hits: rejections past the first 100 are counted, not listed; messages stay short', async () => {
      const app = started('app');
      const longKey = 'k'.repeat(10_000);
      const hits = Array.from({ length: 300 }, (_, i) => ({
        ...goodHit(),
        s: undefined,
        [`${longKey}\u0000`]: i,
      }));
      const answer = collected(
        await postJson(`${app.url}/events`, { cid: app.env.envId, t: 'BATCH', h: hits }),
      );
      assert.equal(answer.rejectedCount, 300);
      assert.equal(answer.rejected.length, 100);
      assert.ok(
        answer.rejected.every((r) => r.message.length < 200),
        'a 10 KB key is cut in the message',
      );
    });
  },
);
