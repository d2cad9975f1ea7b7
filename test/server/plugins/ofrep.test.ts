// OFREP (PROTOCOL.md §18) on a real server, on every store: both ways of sending the API key and the 401,
// every error code, single and bulk answers, the reasons SPLIT, TARGETING_MATCH and DISABLED (panic),
// ETag/304, CORS, and nothing stored but sticky assignments (no activation, no context hit).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { it } from 'node:test';
import type { Decision, DecisionCampaign } from '../../../src/protocol/index.js';
import { checkoutCampaign, describeOnEveryStore, post, premiumToggle, seedEnvironment } from '../support.js';
import { until } from '../../support/until.js';

interface Evaluation {
  key: string;
  value?: unknown;
  variant?: string;
  reason: string;
  metadata: Record<string, unknown>;
}

interface BulkAnswer {
  flags: Evaluation[];
  metadata: Record<string, unknown>;
  eventStreams: Array<{ type: string; url: string; inactivityDelaySec: number }>;
}

/** What §18 says the evaluation of `key` in `campaign` of a decision is (the value as the variation sets it). */
const expectedEvaluation = (campaign: DecisionCampaign, key: string): Evaluation => {
  const value = campaign.variation.modifications.value[key];
  return {
    key,
    ...(value === null || value === undefined ? {} : { value }),
    variant: campaign.variation.name,
    reason: campaign.type === 'ab' ? 'SPLIT' : 'TARGETING_MATCH',
    metadata: {
      campaignId: campaign.id,
      campaignType: campaign.type,
      slug: campaign.slug ?? '',
      variationGroupId: campaign.variationGroupId,
      variationId: campaign.variation.id,
      isReference: campaign.variation.reference,
    },
  };
};

const assertOfrepError = (body: unknown, errorCode: string, key?: string): void => {
  const b = body as Record<string, unknown>;
  assert.equal(b.errorCode, errorCode, JSON.stringify(body));
  assert.equal(typeof b.errorDetails, 'string');
  assert.ok(String(b.errorDetails).length > 10, 'errorDetails says what is wrong');
  if (key === undefined) assert.equal('key' in b, false, 'no key');
  else assert.equal(b.key, key);
  assert.deepEqual(
    Object.keys(b).sort(),
    [...(key === undefined ? [] : ['key']), 'errorCode', 'errorDetails'].sort(),
  );
};

describeOnEveryStore('OFREP', [checkoutCampaign(), premiumToggle()], (fixture) => {
  const single = (key: string): string => `${fixture.server.url}/ofrep/v1/evaluate/flags/${key}`;
  const bulk = (): string => `${fixture.server.url}/ofrep/v1/evaluate/flags`;
  const bearer = (): Record<string, string> => ({ authorization: `Bearer ${fixture.env.apiKey}` });
  const decide = async (visitorId: string, context: Record<string, unknown>): Promise<Decision> => {
    const res = await post(
      `${fixture.server.url}/v2/${fixture.env.envId}/campaigns?exposeAllKeys=true&sendContextEvent=false`,
      { visitorId, context },
      { 'x-api-key': fixture.env.apiKey },
    );
    assert.equal(res.status, 200);
    return res.body as Decision;
  };

  void it('takes the API key as a bearer token or in x-api-key; none or a wrong one is 401', async () => {
    const body = { context: { targetingKey: 'auth-1', plan: 'premium' } };
    const withBearer = await post(single('banner'), body, bearer());
    assert.equal(withBearer.status, 200);
    const withHeader = await post(single('banner'), body, { 'x-api-key': fixture.env.apiKey });
    assert.equal(withHeader.status, 200);
    assert.deepEqual(withHeader.body, withBearer.body);
    assert.equal((await post(bulk(), body, { authorization: `bearer ${fixture.env.apiKey}` })).status, 200);
    // x-api-key first: an Authorization header may be a proxy's.
    const behindProxy = { 'x-api-key': fixture.env.apiKey, authorization: 'Bearer token-of-the-proxy' };
    assert.equal((await post(bulk(), body, behindProxy)).status, 200);

    for (const headers of [
      {},
      { authorization: `Bearer ${fixture.env.apiKey}x` },
      { 'x-api-key': 'fk_not-a-key' },
      { authorization: `Basic ${Buffer.from(`u:${fixture.env.apiKey}`).toString('base64')}` },
    ]) {
      for (const url of [single('banner'), bulk()]) {
        const res = await post(url, body, headers);
        assert.equal(res.status, 401, `${url} ${JSON.stringify(headers)}`);
        assertOfrepError(res.body, 'GENERAL');
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="feature"');
        assert.equal(res.headers.get('access-control-allow-origin'), '*');
      }
    }
    // The key is checked before the body is read: a bad body with no key is a 401, not a 400.
    const unread = await post(bulk(), '{not json');
    assert.equal(unread.status, 401);
  });

  void it('answers one flag: SPLIT for an A/B test, TARGETING_MATCH for a toggle, as the decision API', async () => {
    const context = { targetingKey: 'single-1', plan: 'premium' };
    const banner = await post(single('banner'), { context }, bearer());
    assert.equal(banner.status, 200);
    assert.match(banner.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);
    assert.deepEqual(banner.body, {
      key: 'banner',
      value: true,
      variant: 'On',
      reason: 'TARGETING_MATCH',
      metadata: {
        campaignId: 'c2',
        campaignType: 'toggle',
        slug: '',
        variationGroupId: 'vg2',
        variationId: 'v3',
        isReference: true,
      },
    });
    // Both variations of the A/B test, as the decision API gives them to the same visitors.
    const seen = new Set<string>();
    for (let i = 0; i < 40 && seen.size < 2; i++) {
      const visitorId = `split-${i}`;
      const res = await post(single('btnColor'), { context: { targetingKey: visitorId } }, bearer());
      assert.equal(res.status, 200);
      const checkout = (await decide(visitorId, {})).campaigns.find((c) => c.id === 'c1');
      assert.ok(checkout !== undefined);
      assert.deepEqual(res.body, expectedEvaluation(checkout, 'btnColor'));
      seen.add(checkout.variation.id);
    }
    // The reference variation leaves btnColor to the application's default: no value, still its variant.
    assert.deepEqual([...seen].sort(), ['v1', 'v2']);
  });

  void it('answers FLAG_NOT_FOUND for a key no campaign gives this visitor', async () => {
    const unknown = await post(single('btnColour'), { context: { targetingKey: 'nf-1' } }, bearer());
    assert.equal(unknown.status, 404);
    assertOfrepError(unknown.body, 'FLAG_NOT_FOUND', 'btnColour');
    // The toggle targets premium visitors only.
    const notTargeted = await post(
      single('banner'),
      { context: { targetingKey: 'nf-1', plan: 'free' } },
      bearer(),
    );
    assert.equal(notTargeted.status, 404);
    assertOfrepError(notTargeted.body, 'FLAG_NOT_FOUND', 'banner');
    assert.equal(notTargeted.headers.get('access-control-allow-origin'), '*');
  });

  void it('refuses unreadable bodies, a missing targeting key and objects in the context', async () => {
    const cases: Array<[string, unknown, string, RegExp?]> = [
      ['bad JSON', '{"context":', 'PARSE_ERROR'],
      ['an array', '[]', 'PARSE_ERROR'],
      ['a string', '"visitor-1"', 'PARSE_ERROR'],
      ['an empty body', '', 'PARSE_ERROR'],
      ['no context', {}, 'TARGETING_KEY_MISSING', /context/],
      ['no targetingKey', { context: { plan: 'premium' } }, 'TARGETING_KEY_MISSING', /targetingKey/],
      ['an empty targetingKey', { context: { targetingKey: '' } }, 'TARGETING_KEY_MISSING', /targetingKey/],
      ['a number as targetingKey', { context: { targetingKey: 7 } }, 'INVALID_CONTEXT', /targetingKey/],
      [
        'an object value',
        { context: { targetingKey: 'v', address: { city: 'Lyon' } } },
        'INVALID_CONTEXT',
        /context\.address/,
      ],
      ['an array value', { context: { targetingKey: 'v', tags: ['a'] } }, 'INVALID_CONTEXT', /context\.tags/],
      ['a null value', { context: { targetingKey: 'v', plan: null } }, 'INVALID_CONTEXT', /context\.plan/],
      ['a context that is a list', { context: ['v'] }, 'INVALID_CONTEXT', /context/],
      ['a forbidden key', '{"context":{"targetingKey":"v","__proto__":"x"}}', 'INVALID_CONTEXT', /__proto__/],
      ['a lone surrogate', '{"context":{"targetingKey":"v\\ud800"}}', 'INVALID_CONTEXT', /targetingKey/],
    ];
    for (const [what, body, errorCode, names] of cases) {
      const one = await post(single('btnColor'), body, bearer());
      assert.equal(one.status, 400, what);
      assertOfrepError(one.body, errorCode, 'btnColor');
      if (names !== undefined) assert.match((one.body as { errorDetails: string }).errorDetails, names, what);
      const all = await post(bulk(), body, bearer());
      assert.equal(all.status, 400, what);
      assertOfrepError(all.body, errorCode);
    }
  });

  void it('answers 415 and 413 in OFREP shape, never a 500', async () => {
    const xml = await fetch(bulk(), {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/xml' },
      body: '<context/>',
    });
    assert.equal(xml.status, 415);
    assertOfrepError(await xml.json(), 'GENERAL');
    const big = await post(
      bulk(),
      {
        context: { targetingKey: 'v', note: 'x'.repeat(8000), more: 'y'.repeat(8000) },
        padding: 'z'.repeat(70_000),
      },
      bearer(),
    );
    assert.equal(big.status, 413);
    assertOfrepError(big.body, 'GENERAL');
    const wide = await post(
      bulk(),
      {
        context: {
          targetingKey: 'v',
          ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'x'.repeat(900)])),
        },
      },
      bearer(),
    );
    assert.equal(wide.status, 400);
    assertOfrepError(wide.body, 'INVALID_CONTEXT');
  });

  void it('answers every flag in bulk, with the stream and an ETag that gives 304', async () => {
    const visitorId = 'bulk-1';
    const body = { context: { targetingKey: visitorId, plan: 'premium' } };
    const res = await post(bulk(), body, bearer());
    assert.equal(res.status, 200);
    const decision = await decide(visitorId, { plan: 'premium' });
    const [checkout, toggle] = decision.campaigns;
    assert.ok(checkout !== undefined && toggle !== undefined);
    assert.deepEqual(res.body, {
      flags: [expectedEvaluation(checkout, 'btnColor'), expectedEvaluation(toggle, 'banner')],
      metadata: {},
      eventStreams: [
        {
          type: 'sse',
          url: `${fixture.server.url}/v1/${fixture.env.envId}/stream?event=message`,
          inactivityDelaySec: 120,
        },
      ],
    } satisfies BulkAnswer);
    // The stream it names is the environment's live-update stream (§17), its events unnamed as OFREP reads them.
    const streaming = new AbortController();
    const stream = await fetch(res.body.eventStreams[0]?.url ?? '', {
      signal: streaming.signal,
    });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    streaming.abort();
    const etag = res.headers.get('etag') ?? '';
    assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/);
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /ETag/);

    const same = await fetch(bulk(), {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/json', 'if-none-match': etag },
      body: JSON.stringify(body),
    });
    assert.equal(same.status, 304);
    assert.equal(same.headers.get('etag'), etag);
    assert.equal(await same.text(), '');
    assert.equal(same.headers.get('access-control-allow-origin'), '*');

    // Another answer (the toggle no longer applies), another ETag: the old one gets the full answer.
    const changed = await fetch(bulk(), {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/json', 'if-none-match': etag },
      body: JSON.stringify({ context: { targetingKey: visitorId, plan: 'free' } }),
    });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
    assert.deepEqual(
      ((await changed.json()) as BulkAnswer).flags.map((f) => f.key),
      ['btnColor'],
    );
  });

  void it('names the stream on the origin the client called, or the address it reached without one', async () => {
    // fetch sets Host itself: a raw request sends the one a client behind another name would, or (HTTP/1.0)
    // none at all.
    const streamUrl = (version: string, host: string | null) =>
      new Promise<string | undefined>((resolve, reject) => {
        const body = JSON.stringify({ context: { targetingKey: 'origin-1' } });
        const { hostname, port } = new URL(fixture.server.url);
        // Written, not ended: the server closes a half-closed connection before it answers.
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            [
              `POST /ofrep/v1/evaluate/flags HTTP/${version}`,
              ...(host === null ? [] : [`Host: ${host}`]),
              `Authorization: Bearer ${fixture.env.apiKey}`,
              'Content-Type: application/json',
              `Content-Length: ${Buffer.byteLength(body)}`,
              'Connection: close',
              '',
              body,
            ].join('\r\n'),
          );
        });
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', reject);
        socket.on('close', () => {
          const answer = text.slice(text.indexOf('\r\n\r\n') + 4);
          resolve((JSON.parse(answer) as BulkAnswer).eventStreams[0]?.url);
        });
      });
    const stream = `/v1/${fixture.env.envId}/stream?event=message`;
    assert.equal(
      await streamUrl('1.1', 'flags.example.test:8443'),
      `http://flags.example.test:8443${stream}`,
    );
    assert.equal(await streamUrl('1.0', null), `${fixture.server.url}${stream}`);
  });

  void it('answers preflights with Authorization allowed', async () => {
    const res = await fetch(bulk(), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /\bAuthorization\b/);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /\bIf-None-Match\b/);
  });

  void it('answers DISABLED without a value in panic', async () => {
    const env = await seedEnvironment(fixture.store, [checkoutCampaign('p-'), premiumToggle('p-')]);
    const headers = { authorization: `Bearer ${env.apiKey}` };
    const body = { context: { targetingKey: 'panic-1', plan: 'premium' } };
    assert.equal((await post(single('banner'), body, headers)).status, 200);
    await fixture.store.setPanic(env.envId, true);
    const disabled = await until(
      async () => {
        const res = await post(single('banner'), body, headers);
        return res.status === 200 && (res.body as Evaluation).reason === 'DISABLED' && res;
      },
      { what: 'the flag to be DISABLED once panic is on' },
    );
    assert.deepEqual(disabled.body, { key: 'banner', reason: 'DISABLED', metadata: {} });
    const all = await post(bulk(), body, headers);
    assert.equal(all.status, 200);
    assert.deepEqual((all.body as BulkAnswer).flags, [
      { key: 'btnColor', reason: 'DISABLED', metadata: {} },
      { key: 'banner', reason: 'DISABLED', metadata: {} },
    ]);
    // A key no campaign sets is still unknown.
    assert.equal((await post(single('nope'), body, headers)).status, 404);
    await fixture.store.setPanic(env.envId, false);
  });

  void it('stores no activation and no context hit, and remembers assignments as a decision does', async () => {
    const env = await seedEnvironment(fixture.store, [checkoutCampaign('s-'), premiumToggle('s-')]);
    const headers = { authorization: `Bearer ${env.apiKey}` };
    for (let i = 0; i < 5; i++) {
      const body = { context: { targetingKey: `quiet-${i}`, plan: 'premium' } };
      assert.equal((await post(single('btnColor'), body, headers)).status, 200);
      assert.equal((await post(bulk(), body, headers)).status, 200);
    }
    // Assignments are written behind (within a second, §3): once they are, everything OFREP wrote is there.
    await until(
      async () => (await fixture.store.getAssignments(env.envId, ['quiet-0', 'quiet-4'])).length === 2,
      { what: "OFREP visitors' assignments to be stored" },
    );
    const stored = await fixture.store.traffic(env.envId, {
      afterActivation: 0,
      afterHit: 0,
      visitor: null,
      limit: 100,
    });
    assert.deepEqual(stored.items, []);
    assert.deepEqual(await fixture.store.countHits(env.envId), {});
  });

  void it('keeps a visitor sticky across OFREP and the decision API after the allocation changes', async () => {
    const env = await seedEnvironment(fixture.store, [checkoutCampaign('k-')]);
    const headers = { authorization: `Bearer ${env.apiKey}` };
    const first = await post(single('btnColor'), { context: { targetingKey: 'sticky-ofrep' } }, headers);
    assert.equal(first.status, 200);
    const variation = String((first.body as Evaluation).metadata.variationId);
    await until(async () => (await fixture.store.getAssignments(env.envId, ['sticky-ofrep'])).length === 1, {
      what: "the OFREP visitor's stored assignment",
    });
    const changed = checkoutCampaign('k-');
    for (const v of changed.variationGroups[0]?.variations ?? []) v.allocation = v.id === variation ? 0 : 100;
    await fixture.store.replaceCampaigns(env.envId, [changed]);
    // Once the change has landed (a new visitor gets the other variation), the first keeps its own.
    let attempt = 0;
    await until(
      async () => {
        const res = await post(
          single('btnColor'),
          { context: { targetingKey: `k-fresh-${++attempt}` } },
          headers,
        );
        return (res.body as Evaluation).metadata.variationId !== variation;
      },
      { what: 'a new visitor to get the other variation once the change lands' },
    );
    const again = await post(single('btnColor'), { context: { targetingKey: 'sticky-ofrep' } }, headers);
    assert.equal((again.body as Evaluation).metadata.variationId, variation);
    const decided = await post(
      `${fixture.server.url}/v2/${env.envId}/campaigns?sendContextEvent=false`,
      { visitorId: 'sticky-ofrep' },
      { 'x-api-key': env.apiKey },
    );
    assert.equal((decided.body as Decision).campaigns[0]?.variation.id, variation);
  });

  void it('follows a key rotation at once: the old key is refused, the new one names the environment', async () => {
    const env = await seedEnvironment(fixture.store, [premiumToggle('r-')]);
    const body = { context: { targetingKey: 'rot-1', plan: 'premium' } };
    assert.equal((await post(bulk(), body, { 'x-api-key': env.apiKey })).status, 200);
    const rotated = await fixture.store.rotateApiKey(env.envId);
    await until(async () => (await post(bulk(), body, { 'x-api-key': env.apiKey })).status === 401, {
      what: 'the old key to be refused after rotation',
    });
    const res = await post(bulk(), body, { authorization: `Bearer ${rotated}` });
    assert.equal(res.status, 200);
    assert.deepEqual(
      (res.body as BulkAnswer).flags.map((f) => f.key),
      ['banner'],
    );
  });
});
