// Activations (§4), hits (§5), usage (§12) and troubleshooting: good and bad input, idempotency, on every store.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { checkoutCampaign, describeOnEveryStore, post } from '../support.js';

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describeOnEveryStore('activation and hits', [checkoutCampaign()], (fixture) => {
  void it('accepts a batch of activations with 204, and duplicates too', async () => {
    const body = {
      cid: fixture.env.envId,
      batch: [{ vid: 'u1', aid: null, caid: 'vg1', vaid: 'v2', qt: 10, hid: uuid(1) }],
    };
    const first = await post(`${fixture.server.url}/v2/activate`, body);
    assert.equal(first.status, 204);
    assert.equal(first.headers.get('access-control-allow-origin'), '*');
    const again = await post(`${fixture.server.url}/v2/activate`, JSON.stringify(body), {
      'content-type': 'text/plain',
    });
    assert.equal(again.status, 204);
    assert.equal((await fixture.store.reportExposures(fixture.env.envId, 'c1')).length, 1);
  });

  void it('accepts the single form, with or without a right key', async () => {
    const single = { cid: fixture.env.envId, vid: 'u2', aid: null, caid: 'vg1', vaid: 'v1', qt: 0 };
    assert.equal((await post(`${fixture.server.url}/v2/activate`, single)).status, 204);
    assert.equal(
      (await post(`${fixture.server.url}/v2/activate`, single, { 'x-api-key': fixture.env.apiKey })).status,
      204,
    );
    const wrong = await post(`${fixture.server.url}/v2/activate`, single, { 'x-api-key': 'nope' });
    assert.equal(wrong.status, 403);
  });

  void it('rejects bad items with their index and keeps the good ones', async () => {
    const res = await post(`${fixture.server.url}/v2/activate`, {
      cid: fixture.env.envId,
      batch: [
        { vid: 'u3', caid: 'vg1', vaid: 'v1', qt: 0, hid: uuid(3) },
        { vid: 'u3', caid: 'vg1', vaid: 'v9', qt: 0, hid: uuid(4) },
        { vid: 'u3', caid: 'nope', vaid: 'v1', qt: 0 },
        { vid: '', caid: 'vg1', vaid: 'v1', qt: 0 },
        { vid: 'u3', caid: 'vg1', vaid: 'v1', qt: -1 },
        { vid: 'u3', caid: 'vg1', vaid: 'v1', qt: 0, cid: 'other' },
        { vid: 'u3', caid: 'vg1', vaid: 'v1', qt: 0, hid: uuid(1) },
      ],
    });
    assert.equal(res.status, 200);
    const answer = res.body as {
      accepted: number;
      duplicates: number;
      rejected: Array<{ index: number; message: string }>;
    };
    assert.equal(answer.accepted, 1);
    assert.equal(answer.duplicates, 1);
    assert.deepEqual(
      answer.rejected.map((r) => r.index),
      [1, 2, 3, 4, 5],
    );
    assert.match(answer.rejected[0]?.message ?? '', /batch\[1\]\.vaid/);
    assert.match(answer.rejected[2]?.message ?? '', /batch\[3\]\.vid/);
  });

  void it('answers 400, 404, 413 and 415 on activation bodies', async () => {
    const url = `${fixture.server.url}/v2/activate`;
    assert.equal((await post(url, { hello: 1 })).status, 400);
    assert.equal((await post(url, '[1,')).status, 400);
    assert.equal((await post(url, { batch: [] })).status, 400);
    // More than our SDK's 100 per request is no 400: the first 1 000 items are processed (§4).
    const many = {
      cid: fixture.env.envId,
      batch: Array.from({ length: 101 }, () => ({ vid: 'u', caid: 'vg1', vaid: 'v1', qt: 0 })),
    };
    assert.equal((await post(url, many)).status, 204);
    const unknown = await post(url, { cid: 'zzz', batch: [] });
    assert.equal(unknown.status, 404);
    assert.equal((unknown.body as { code: string }).code, 'unknown_environment');
    assert.equal((await post(url, 'x', { 'content-type': 'application/octet-stream' })).status, 415);
    const huge = await post(
      url,
      JSON.stringify({ cid: fixture.env.envId, pad: 'x'.repeat(3 * 1024 * 1024) }),
    );
    assert.equal(huge.status, 413);
  });

  void it('stores hits, validates each and counts duplicates', async () => {
    const batch = {
      cid: fixture.env.envId,
      ds: 'APP',
      t: 'BATCH',
      qt: 0,
      h: [
        { t: 'SCREENVIEW', vid: 'anon-7', cuid: 'user-42', qt: 950, hid: uuid(10), dl: 'checkout' },
        {
          t: 'EVENT',
          vid: 'anon-7',
          cuid: null,
          qt: 10,
          hid: uuid(11),
          ec: 'Action Tracking',
          ea: 'add_to_cart',
          el: 'btn',
          ev: 3,
        },
        {
          t: 'TRANSACTION',
          vid: 'anon-7',
          cuid: 'user-42',
          qt: 5,
          hid: uuid(12),
          tid: 'T1',
          ta: 'Purchase',
          tr: 20.5,
          tc: 'EUR',
        },
        {
          t: 'EVENT',
          vid: 'anon-7',
          cuid: null,
          qt: 10,
          hid: uuid(13),
          ec: 'Action Tracking',
          ea: 'x',
          ev: -1,
        },
        { t: 'PAGEVIEW', vid: 'anon-7', cuid: null, qt: 0, dl: 'ftp://x' },
        { t: 'ITEM', vid: 'anon-7', cuid: null, qt: 0, tid: 'T1', in: 'Shoe' },
        { t: 'NOPE', vid: 'anon-7', cuid: null, qt: 0 },
        { t: 'SEGMENT', vid: 'anon-7', cuid: null, qt: 0, s: { plan: 'premium', age: 3 } },
        { t: 'TRANSACTION', vid: 'anon-7', cuid: null, qt: 0, tid: 'T2', ta: 'P', tc: 'EURO' },
        { t: 'EVENT', vid: 'anon-7', cuid: null, qt: 0, ec: 'Other', ea: 'x' },
      ],
    };
    const res = await post(`${fixture.server.url}/events`, batch);
    assert.equal(res.status, 200);
    const answer = res.body as {
      accepted: number;
      duplicates: number;
      rejected: Array<{ index: number; message: string }>;
    };
    assert.equal(answer.accepted, 4);
    assert.equal(answer.duplicates, 0);
    assert.deepEqual(
      answer.rejected.map((r) => r.index),
      [3, 4, 5, 6, 8, 9],
    );
    assert.equal(answer.rejected[0]?.message, 'h[3].ev must be an integer ≥ 0');
    assert.match(answer.rejected[1]?.message ?? '', /^h\[4\]\.dl/);
    assert.match(answer.rejected[2]?.message ?? '', /^h\[5\]\.ic/);
    const again = await post(`${fixture.server.url}/events`, batch);
    assert.deepEqual((again.body as { accepted: number; duplicates: number }).accepted, 1);
    assert.deepEqual((again.body as { duplicates: number }).duplicates, 3);
    const counts = await fixture.store.countHits(fixture.env.envId);
    assert.deepEqual(counts, { SCREENVIEW: 1, EVENT: 1, TRANSACTION: 1, SEGMENT: 2 });
  });

  void it('accepts the single hit form and rejects a different cid', async () => {
    const single = {
      cid: fixture.env.envId,
      ds: 'APP',
      t: 'EVENT',
      vid: 'v',
      cuid: null,
      qt: 0,
      hid: uuid(20),
      ec: 'User Engagement',
      ea: 'open',
    };
    const res = await post(`${fixture.server.url}/events`, single);
    assert.deepEqual(res.body, { accepted: 1, duplicates: 0, rejected: [], rejectedCount: 0 });
    const other = await post(`${fixture.server.url}/events`, {
      cid: fixture.env.envId,
      t: 'BATCH',
      h: [{ ...single, hid: uuid(21), cid: 'other' }],
    });
    assert.equal((other.body as { rejected: unknown[] }).rejected.length, 1);
  });

  void it('answers 400, 404, 413 and 415 on hit bodies', async () => {
    const url = `${fixture.server.url}/events`;
    assert.equal((await post(url, { cid: fixture.env.envId, t: 'BATCH' })).status, 400);
    assert.equal((await post(url, 'nope')).status, 400);
    assert.equal((await post(url, { t: 'BATCH', h: [] })).status, 400);
    assert.equal((await post(url, { cid: 'zzz', t: 'BATCH', h: [] })).status, 404);
    assert.equal(
      (await post(url, '{}', { 'content-type': 'application/x-www-form-urlencoded' })).status,
      415,
    );
    assert.equal(
      (await post(url, `{"cid":"${fixture.env.envId}","h":[],"pad":"${'x'.repeat(3_200_000)}"}`)).status,
      413,
    );
    const proto = await post(
      url,
      `{"cid":"${fixture.env.envId}","t":"BATCH","h":[{"t":"EVENT","prototype":1}]}`,
    );
    assert.equal(proto.status, 400);
    assert.equal((proto.body as { details: Array<{ path: string }> }).details[0]?.path, 'h[0].prototype');
  });

  void it('counts usage hits and accepts troubleshooting hits', async () => {
    const usage = {
      t: 'USAGE',
      cid: fixture.env.envId,
      vid: 'sdk-1',
      cv: { version: '1', 'stack.name': 'feature-ts', 'stack.version': '0.1.0' },
    };
    const res = await post(`${fixture.server.url}/events/analytics`, JSON.stringify(usage), {
      'content-type': 'text/plain',
    });
    assert.equal(res.status, 200);
    await post(`${fixture.server.url}/events/analytics`, usage);
    const counts = await fixture.store.usageCounts(fixture.env.envId);
    assert.equal(counts.length, 1);
    assert.equal(counts[0]?.count, 2);
    assert.equal(counts[0].sdkName, 'feature-ts');
    assert.equal(
      (await post(`${fixture.server.url}/events/analytics`, { ...usage, cv: { a: 1 } })).status,
      400,
    );
    assert.equal(
      (await post(`${fixture.server.url}/events/analytics`, { ...usage, cid: 'zzz' })).status,
      404,
    );
    assert.equal(
      (await post(`${fixture.server.url}/events/troubleshooting`, { anything: true })).status,
      200,
    );
  });
});
