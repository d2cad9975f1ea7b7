// The bad-input catalogue of every SDK-facing route (PROTOCOL.md §2.1-§2.5): each route × {wrong method, wrong
// content type or coding, malformed URL}, bodies that are not JSON, not UTF-8, too deep, too big or holding a
// forbidden key, and conditional requests dated in the future. Each answer is a 4xx from the error catalogue
// with the route's cross-origin headers, never a 500, and the route answers a good request right after.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  assertCors,
  assertError,
  assertGoodAfter,
  bytes,
  goodActivation,
  goodHit,
  postJson,
  send,
  startCatalogueApp,
  stopCatalogueApp,
  storedHit,
  usageHit,
  type CatalogueApp,
  type RouteName,
  ROUTES,
} from '../bad-input-support.js';
import { describeOnEveryStoreWith } from '../support.js';
import { until } from '../../support/until.js';

interface Case {
  name: string;
  run: (app: CatalogueApp) => Promise<void>;
}
const cases: Case[] = [];

const POST_ROUTES = ['decision', 'activation', 'hits', 'usage', 'troubleshooting'] as const;
const GET_ROUTES = ['bucketing', 'settings'] as const;
const BODY_LIMITS: Record<(typeof POST_ROUTES)[number], number> = {
  decision: 64 * 1024,
  activation: 3 * 1024 * 1024,
  hits: 3 * 1024 * 1024,
  usage: 3 * 1024 * 1024,
  troubleshooting: 3 * 1024 * 1024,
};

/** A valid body of each POST route, as an object. */
const goodBody = (app: CatalogueApp, route: (typeof POST_ROUTES)[number]): Record<string, unknown> => {
  switch (route) {
    case 'decision':
      return { visitorId: 'v', context: { plan: 'premium' } };
    case 'activation':
      return { cid: app.env.envId, batch: [goodActivation()] };
    case 'hits':
      return { cid: app.env.envId, t: 'BATCH', h: [goodHit()] };
    default:
      return usageHit(app.env.envId);
  }
};

const urlOf = (app: CatalogueApp, route: RouteName): string => `${app.url}${ROUTES(app)[route].path}`;
/** The decision route's key, which must be right for the body checks to be reached (§2.1). */
const keyOf = (app: CatalogueApp, route: RouteName): Record<string, string> =>
  route === 'decision' ? { 'x-api-key': app.env.apiKey } : {};
const corsOf = (route: RouteName): 'sdk' | 'bundle' => (route === 'bundles' ? 'bundle' : 'sdk');

// Wrong methods: PROTOCOL.md has no 405, so a method a route lacks is 404 not_found, with CORS.
for (const route of [...POST_ROUTES, ...GET_ROUTES]) {
  const methods =
    route === 'bucketing' || route === 'settings'
      ? ['POST', 'PUT', 'DELETE', 'PATCH']
      : ['GET', 'PUT', 'DELETE', 'PATCH'];
  for (const method of methods) {
    cases.push({
      name: `${route} × wrong method ${method}`,
      run: async (app) => {
        const body = method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' };
        assertError(await send(urlOf(app, route), { method, ...body }), 404, 'not_found');
        await assertGoodAfter(app, route);
      },
    });
  }
  cases.push({
    name: `${route} × wrong method HEAD`,
    run: async (app) => {
      const answer = await send(urlOf(app, route), { method: 'HEAD' });
      // HEAD is GET without the body: the file routes answer it; the others have no GET.
      assert.equal(answer.status, GET_ROUTES.includes(route as (typeof GET_ROUTES)[number]) ? 200 : 404);
      assertCors(answer);
      await assertGoodAfter(app, route);
    },
  });
}
for (const method of ['POST', 'PUT', 'DELETE']) {
  cases.push({
    name: `bundles × wrong method ${method}`,
    run: async (app) => {
      const answer = await send(urlOf(app, 'bundles'), { method });
      assert.equal(answer.status, 404, answer.text);
      assert.equal((answer.json as { code: string }).code, 'not_found');
      await assertGoodAfter(app, 'bundles');
    },
  });
}

// Wrong content types and codings (§2.1): 415 naming the accepted types.
const WRONG_TYPES: Array<[string, Record<string, string>, string | Uint8Array<ArrayBuffer>]> = [
  ['application/xml', { 'content-type': 'application/xml' }, '<hit/>'],
  ['no content type', {}, bytes('{}')],
  ['multipart/form-data', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
  ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, 'cid=x'],
  ['gzip coding', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, bytes(gzipSync('{}'))],
];
for (const route of POST_ROUTES) {
  for (const [label, headers, body] of WRONG_TYPES) {
    cases.push({
      name: `${route} × wrong content type: ${label}`,
      run: async (app) => {
        const answer = await send(urlOf(app, route), { headers: { ...headers, ...keyOf(app, route) }, body });
        assertError(answer, 415, 'unsupported_media_type');
        await assertGoodAfter(app, route);
      },
    });
  }
}

// Malformed URLs (§2.1): 400 invalid_url from the catalogue, with the path's cross-origin headers.
const A101 = 'a'.repeat(101);
const MALFORMED: Array<[RouteName, string, number, string]> = [
  ['decision', '/v2/%C0%AF/campaigns', 400, 'invalid_url'],
  ['decision', '/v2/%E0%A4%A/campaigns', 400, 'invalid_url'],
  ['decision', `/v2/${A101}/campaigns`, 400, 'invalid_url'],
  ['decision', '/v2/%ED%A0%80/campaigns', 400, 'invalid_url'],
  ['activation', '/v2/activate%C0', 400, 'invalid_url'],
  ['hits', '/events%', 400, 'invalid_url'],
  ['hits', '/events%ZZ', 400, 'invalid_url'],
  ['usage', '/events/analytics%E0%A4%A', 400, 'invalid_url'],
  ['troubleshooting', '/events/troubleshooting%', 400, 'invalid_url'],
  ['bucketing', '/cdn/%C0%AF/bucketing.json', 400, 'invalid_url'],
  ['bucketing', `/cdn/${A101}/bucketing.json`, 400, 'invalid_url'],
  ['settings', '/cdn/%C0%AF/accountSettings.json', 400, 'invalid_url'],
  ['settings', `/cdn/${A101}/accountSettings.json`, 400, 'invalid_url'],
  ['bundles', '/sdk/%E0%A4%A', 400, 'invalid_url'],
  // `%25` is a percent sign: a file name the folder does not hold, not a broken URL (it once was a 500).
  ['bundles', '/sdk/%25', 404, 'not_found'],
  ['bundles', '/sdk/%25abc', 404, 'not_found'],
  ['bucketing', '/cdn/a%00b/bucketing.json', 400, 'invalid_body'],
  ['decision', '/v2/a%00b/campaigns', 400, 'invalid_body'],
];
for (const [route, path, status, code] of MALFORMED) {
  cases.push({
    name: `${route} × malformed URL ${path.length > 40 ? `${path.slice(0, 30)}…` : path}`,
    run: async (app) => {
      const { method } = ROUTES(app)[route];
      const body = method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {};
      const answer = await send(`${app.url}${path}`, { method, ...body });
      assertError(answer, status, code, {
        cors: corsOf(route),
        ...(code === 'invalid_body' ? { path: 'path.envId' } : {}),
      });
      await assertGoodAfter(app, route);
    },
  });
}
cases.push({
  name: 'decision × a query flag that is not true or false (broken percent-encoding)',
  run: async (app) => {
    const answer = await postJson(
      `${urlOf(app, 'decision')}?exposeAllKeys=%ZZ`,
      { visitorId: 'v' },
      keyOf(app, 'decision'),
    );
    assertError(answer, 400, 'invalid_body', { path: 'exposeAllKeys' });
    await assertGoodAfter(app, 'decision');
  },
});

// Bodies: not JSON, empty, not UTF-8, UTF-16, too deep, too big, a forbidden key; a byte order mark is fine.
const deep = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const BAD_BODIES: Array<
  [
    string,
    (app: CatalogueApp, route: (typeof POST_ROUTES)[number]) => string | Uint8Array<ArrayBuffer>,
    number,
    string,
  ]
> = [
  ['not JSON', () => '{"cid":', 400, 'invalid_json'],
  ['an empty body', () => '', 400, 'invalid_json'],
  [
    'bytes that are not UTF-8',
    () => bytes(Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d])),
    400,
    'invalid_json',
  ],
  [
    'UTF-16 text',
    (app, route) => bytes(Buffer.from(JSON.stringify(goodBody(app, route)), 'utf16le')),
    400,
    'invalid_json',
  ],
  ['65 levels deep', () => `{"x":${deep(64)}}`, 400, 'invalid_body'],
  ['a __proto__ key', () => '{"cid":"x","__proto__":{"polluted":1}}', 400, 'invalid_body'],
  [
    'over the body limit',
    (_app, route) => `{"pad":"${'x'.repeat(BODY_LIMITS[route])}"}`,
    413,
    'payload_too_large',
  ],
];
for (const route of POST_ROUTES) {
  for (const [label, body, status, code] of BAD_BODIES) {
    // Troubleshooting hits are any JSON and are discarded: only JSON itself is checked there.
    cases.push({
      name: `${route} × ${label}`,
      run: async (app) => {
        const answer = await send(urlOf(app, route), {
          headers: { 'content-type': 'application/json', ...keyOf(app, route) },
          body: body(app, route),
        });
        assertError(answer, status, code);
        await assertGoodAfter(app, route);
      },
    });
  }
  cases.push({
    name: `${route} × a UTF-8 byte order mark before the JSON (accepted)`,
    run: async (app) => {
      const answer = await send(urlOf(app, route), {
        headers: { 'content-type': 'text/plain;charset=UTF-8', ...keyOf(app, route) },
        body: bytes(
          Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(goodBody(app, route)))]),
        ),
      });
      assert.ok(answer.status >= 200 && answer.status < 300, `${answer.status} ${answer.text}`);
      assertCors(answer);
    },
  });
}
cases.push({
  name: 'hits × an unknown key 60 levels deep, emoji escaped as a surrogate pair: stored exactly',
  run: async (app) => {
    const hit = { ...goodHit(), nested: JSON.parse(deep(60)) as unknown, label: '🎉' };
    const text = JSON.stringify({ cid: app.env.envId, t: 'BATCH', h: [hit] }).replace('🎉', '\\ud83c\\udf89');
    const answer = await postJson(urlOf(app, 'hits'), text);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual((await storedHit(app, hit.hid))?.body, hit);
  },
});

// Conditional requests (§2.5): If-Modified-Since in the future, or not a date, is ignored (RFC 9110 §13.1.3).
for (const route of GET_ROUTES) {
  const lastModified = async (app: CatalogueApp): Promise<Response> => {
    // Last-Modified is final once it is earlier than Date (a publication in the same second shows later).
    return until(
      async () => {
        const res = await fetch(urlOf(app, route));
        const final =
          Date.parse(res.headers.get('last-modified') ?? '') < Date.parse(res.headers.get('date') ?? '');
        return final && res;
      },
      { what: `${route}: a Last-Modified earlier than Date` },
    );
  };
  for (const [label, since, status] of [
    ['a day in the future', () => new Date(Date.now() + 86_400_000).toUTCString(), 200],
    ['a year in the future', () => new Date(Date.now() + 365 * 86_400_000).toUTCString(), 200],
    ['not a date', () => 'yesterday', 200],
    ['now', () => new Date().toUTCString(), 304],
  ] as const) {
    cases.push({
      name: `${route} × If-Modified-Since ${label} → ${status}`,
      run: async (app) => {
        await lastModified(app);
        const answer = await send(urlOf(app, route), {
          method: 'GET',
          headers: { 'if-modified-since': since() },
        });
        assert.equal(answer.status, status, answer.text);
        assertCors(answer);
        await assertGoodAfter(app, route);
      },
    });
  }
}

describeOnEveryStoreWith(
  'bad input: every SDK-facing route',
  { start: startCatalogueApp, stop: stopCatalogueApp },
  (_kind, started) => {
    void it(`holds ${cases.length} cases`, () => assert.ok(cases.length >= 100, `${cases.length}`));
    for (const c of cases) void it(c.name, () => c.run(started('app')));
  },
);
