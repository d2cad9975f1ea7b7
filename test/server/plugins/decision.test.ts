// The decision API (PROTOCOL.md §3) with good and bad input, on every store.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Decision } from '../../../src/protocol/index.js';
import { checkoutCampaign, describeOnEveryStore, post, premiumToggle, seedEnvironment } from '../support.js';
import { until } from '../../support/until.js';

describeOnEveryStore('decision API', [checkoutCampaign(), premiumToggle()], (fixture) => {
  const route = (): string => `${fixture.server.url}/v2/${fixture.env.envId}/campaigns`;

  void it('answers the campaigns in order, with extras and exposeAllKeys', async () => {
    const res = await post(
      `${route()}?exposeAllKeys=true&extras[]=accountSettings`,
      { visitorId: 'v1', context: { plan: 'premium' } },
      { 'x-api-key': fixture.env.apiKey },
    );
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const decision = res.body as Decision;
    assert.equal(decision.visitorId, 'v1');
    assert.deepEqual(
      decision.campaigns.map((c) => c.id),
      ['c1', 'c2'],
    );
    assert.deepEqual(decision.extras, { accountSettings: { enabledXPC: false, enabled1V1T: false } });
    const checkout = decision.campaigns[0];
    assert.ok(checkout !== undefined && 'btnColor' in checkout.variation.modifications.value);
  });

  void it('accepts snake_case fields, the extras spelling without brackets and a trailing slash', async () => {
    const res = await post(
      `${route()}/?extras=accountSettings`,
      { visitor_id: 'v2', context: {} },
      { 'x-api-key': fixture.env.apiKey },
    );
    assert.equal(res.status, 200);
    const decision = res.body as Decision;
    assert.equal(decision.visitorId, 'v2');
    assert.deepEqual(
      decision.campaigns.map((c) => c.id),
      ['c1'],
    );
    assert.ok(decision.extras?.accountSettings !== undefined);
  });

  void it('keeps assignments sticky after the allocation changes', async () => {
    const first = (
      await post(route(), { visitorId: 'sticky-1', context: {} }, { 'x-api-key': fixture.env.apiKey })
    ).body as Decision;
    const variation = first.campaigns[0]?.variation.id;
    assert.ok(variation !== undefined);
    await until(
      async () => (await fixture.store.getAssignments(fixture.env.envId, ['sticky-1'])).length === 1,
      {
        what: "sticky-1's stored assignment",
      },
    );
    // Move all traffic to the other variation: the stored assignment still wins.
    const changed = checkoutCampaign();
    const group = changed.variationGroups[0];
    assert.ok(group !== undefined);
    for (const v of group.variations) v.allocation = v.id === variation ? 0 : 100;
    await fixture.store.replaceCampaigns(fixture.env.envId, [changed, premiumToggle()]);
    const second = (
      await post(route(), { visitorId: 'sticky-1', context: {} }, { 'x-api-key': fixture.env.apiKey })
    ).body as Decision;
    assert.equal(second.campaigns[0]?.variation.id, variation);
    // The change reaches the app's compiled configuration through NOTIFY, asynchronously: a new visitor
    // gets the other variation once it has landed.
    // (a new id per attempt: an id decided under the old configuration would stay sticky to it)
    let attempt = 0;
    await until(
      async () => {
        const visitorId = `fresh-${++attempt}`;
        const fresh = (await post(route(), { visitorId, context: {} }, { 'x-api-key': fixture.env.apiKey }))
          .body as Decision;
        return fresh.campaigns[0]?.variation.id !== variation;
      },
      { what: 'a new visitor to get the other variation once the change lands' },
    );
    await fixture.store.replaceCampaigns(fixture.env.envId, [checkoutCampaign(), premiumToggle()]);
  });

  void it('carries assignments over from the anonymous id with experience continuity', async () => {
    const xpc = await seedEnvironment(fixture.store, [checkoutCampaign('x')], { enabledXPC: true });
    const url = `${fixture.server.url}/v2/${xpc.envId}/campaigns`;
    const anon = (await post(url, { visitorId: 'anon-9', context: {} }, { 'x-api-key': xpc.apiKey }))
      .body as Decision;
    const logged = (
      await post(
        url,
        { visitorId: 'user-9', anonymousId: 'anon-9', context: {} },
        { 'x-api-key': xpc.apiKey },
      )
    ).body as Decision;
    assert.equal(logged.campaigns[0]?.variation.id, anon.campaigns[0]?.variation.id);
    // Stored under the authenticated id too: a sign-in from another device (another anonymous id) keeps it.
    await until(async () => (await fixture.store.getAssignments(xpc.envId, ['user-9'])).length === 1, {
      what: 'the assignment stored under the authenticated id',
    });
    const elsewhere = (
      await post(
        url,
        { visitorId: 'user-9', anonymousId: 'anon-other-device', context: {} },
        { 'x-api-key': xpc.apiKey },
      )
    ).body as Decision;
    assert.equal(elsewhere.campaigns[0]?.variation.id, anon.campaigns[0]?.variation.id);
  });

  void it('stores the context as a SEGMENT hit unless sendContextEvent=false', async () => {
    const seg = await seedEnvironment(fixture.store, [checkoutCampaign('s')]);
    const url = `${fixture.server.url}/v2/${seg.envId}/campaigns`;
    await post(
      `${url}?sendContextEvent=false`,
      { visitorId: 'seg-1', context: { a: 1 } },
      { 'x-api-key': seg.apiKey },
    );
    await post(url, { visitorId: 'seg-2', context: { a: 1 } }, { 'x-api-key': seg.apiKey });
    await post(
      url,
      { visitorId: 'seg-3', context: { a: 1 }, visitorConsent: false },
      { 'x-api-key': seg.apiKey },
    );
    // Only seg-2 (consent, context, sendContextEvent default true) is stored; it is stored behind the answer.
    await until(async () => (await fixture.store.countHits(seg.envId)).SEGMENT === 1, {
      what: "seg-2's SEGMENT hit",
    });
  });

  void it('answers panic with no campaigns', async () => {
    const panic = await seedEnvironment(fixture.store, [checkoutCampaign('p')]);
    await fixture.store.setPanic(panic.envId, true);
    const url = `${fixture.server.url}/v2/${panic.envId}/campaigns`;
    await until(
      async () => {
        const res = await post(url, { visitorId: 'v', context: {} }, { 'x-api-key': panic.apiKey });
        return JSON.stringify(res.body) === JSON.stringify({ visitorId: 'v', campaigns: [], panic: true });
      },
      { what: 'the panic answer' },
    );
  });

  void it('refuses unknown environments, missing and wrong keys, in that order', async () => {
    const unknown = await post(`${fixture.server.url}/v2/nope/campaigns`, 'not json', {
      'content-type': 'text/csv',
    });
    assert.equal(unknown.status, 404);
    assert.equal((unknown.body as { code: string }).code, 'unknown_environment');
    assert.equal(unknown.headers.get('access-control-allow-origin'), '*');
    const missing = await post(route(), 'x', { 'content-type': 'text/csv' });
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('www-authenticate'), 'ApiKey realm="feature", header="x-api-key"');
    assert.equal((missing.body as { code: string }).code, 'missing_api_key');
    const wrong = await post(route(), { visitorId: 'v' }, { 'x-api-key': 'fk_wrong' });
    assert.equal(wrong.status, 403);
    assert.equal((wrong.body as { code: string }).code, 'invalid_api_key');
  });

  void it('answers 415, 413 and 400 with the field path', async () => {
    const key = { 'x-api-key': fixture.env.apiKey };
    const media = await post(route(), '{}', { ...key, 'content-type': 'application/xml' });
    assert.equal(media.status, 415);
    assert.deepEqual(media.body, {
      message: 'Content-Type must be application/json or text/plain',
      code: 'unsupported_media_type',
    });
    const big = await post(
      route(),
      JSON.stringify({ visitorId: 'v', context: { k: 'x'.repeat(70_000) } }),
      key,
    );
    assert.equal(big.status, 413);
    assert.equal((big.body as { code: string }).code, 'payload_too_large');
    const text = await post(route(), JSON.stringify({ visitorId: 'v', context: {} }), {
      ...key,
      'content-type': 'text/plain;charset=UTF-8',
    });
    assert.equal(text.status, 200);
    const broken = await post(route(), '{"visitorId":', key);
    assert.equal(broken.status, 400);
    assert.equal((broken.body as { code: string }).code, 'invalid_json');
    const cases: Array<[unknown, string]> = [
      [{ context: {} }, 'visitorId'],
      [{ visitorId: '' }, 'visitorId'],
      [{ visitorId: 'x'.repeat(257) }, 'visitorId'],
      [{ visitor_id: 5 }, 'visitor_id'],
      [{ visitorId: 'v', context: { a: { b: 1 } } }, 'context.a'],
      [{ visitorId: 'v', context: [] }, 'context'],
      [{ visitorId: 'v', anonymousId: 3 }, 'anonymousId'],
      [{ visitorId: 'v', trigger_hit: 'yes' }, 'trigger_hit'],
      [
        {
          visitorId: 'v',
          context: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i])),
        },
        'context',
      ],
      [[], '(body)'],
    ];
    for (const [body, path] of cases) {
      const res = await post(route(), body, key);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      const error = res.body as { code: string; details: Array<{ path: string }> };
      assert.equal(error.code, 'invalid_body');
      assert.equal(error.details[0]?.path, path);
    }
    const proto = await post(route(), '{"visitorId":"v","context":{"__proto__":{"x":1}}}', key);
    assert.equal(proto.status, 400);
    assert.equal((proto.body as { details: Array<{ path: string }> }).details[0]?.path, 'context.__proto__');
    const escaped = await post(route(), '{"visitorId":"v","context":{"\\u0063onstructor":"x"}}', key);
    assert.equal(escaped.status, 400);
    const flag = await post(`${route()}?exposeAllKeys=maybe`, { visitorId: 'v' }, key);
    assert.equal(flag.status, 400);
  });

  void it('answers preflights with the CORS headers', async () => {
    const res = await fetch(route(), {
      method: 'OPTIONS',
      headers: { origin: 'http://shop.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-methods'), 'GET, POST, OPTIONS');
    assert.equal(res.headers.get('access-control-max-age'), '7200');
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /X-Api-Key/);
    assert.equal(res.headers.get('access-control-expose-headers'), 'ETag, Last-Modified, Retry-After');
  });
});
