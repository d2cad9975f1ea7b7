// The root paths of the platform's own SDKs (PROTOCOL.md §2.6): with their host names pointed at this server,
// `GET /{envId}/bucketing.json`, `/{envId}/accountSettings.json`, `POST /`, `/analytics`, `/troubleshooting` and
// `/emotionsai` are answered as `/cdn/…` and `/events/…` are, whatever the Host header says; the server's own
// paths (`GET /`, `/sdk/…`, `/v2/…`) are never taken by an alias.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { platformUrl } from '../../../server/src/http/platform-paths.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import {
  checkoutCampaign,
  seedEnvironment,
  startApp,
  type Running,
  type SeededEnvironment,
} from '../support.js';
import { until } from '../../support/until.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with an explicit Host header (fetch cannot set it), as a mapped host name sends it. */
const call = (
  server: Running,
  method: string,
  path: string,
  host: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${server.url}${path}`,
      {
        method,
        headers: {
          host,
          ...(text === undefined ? {} : { 'content-type': 'text/plain;charset=UTF-8' }),
          ...headers,
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (data += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: data }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });

void describe('platformUrl', () => {
  void it('maps the CDN and events paths of §2.6, and nothing else', () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/e1/bucketing.json', '/cdn/e1/bucketing.json'],
      ['HEAD', '/e1/bucketing.json', '/cdn/e1/bucketing.json'],
      ['OPTIONS', '/e1/bucketing.json', '/cdn/e1/bucketing.json'],
      ['GET', '/e1/bucketing.json?x=1', '/cdn/e1/bucketing.json?x=1'],
      ['GET', '/e1/bucketing.json/', '/cdn/e1/bucketing.json/'],
      ['GET', '/e1/accountSettings.json', '/cdn/e1/accountSettings.json'],
      ['POST', '/', '/events'],
      ['POST', '/?x=1', '/events?x=1'],
      ['OPTIONS', '/', '/events'],
      ['POST', '/analytics', '/events/analytics'],
      ['POST', '/troubleshooting', '/events/troubleshooting'],
      ['POST', '/emotionsai', '/events/emotionsai'],
      ['POST', '/emotionsai/', '/events/emotionsai/'],
      // Our own routes and pages are never taken.
      ['GET', '/', '/'],
      ['HEAD', '/', '/'],
      ['GET', '/sdk/bucketing.json', '/sdk/bucketing.json'],
      ['GET', '/cdn/e1/bucketing.json', '/cdn/e1/bucketing.json'],
      ['GET', '/demo/bucketing.json', '/demo/bucketing.json'],
      ['GET', '/docs/bucketing.json', '/docs/bucketing.json'],
      ['POST', '/v2/activate', '/v2/activate'],
      ['POST', '/v2/e1/campaigns', '/v2/e1/campaigns'],
      ['POST', '/events', '/events'],
      ['POST', '/events/analytics', '/events/analytics'],
      ['GET', '/openapi.json', '/openapi.json'],
      // Not the platform's paths, or not their methods.
      ['POST', '/e1/bucketing.json', '/e1/bucketing.json'],
      ['GET', '/analytics', '/analytics'],
      ['GET', '/e1/other.json', '/e1/other.json'],
      ['GET', '/a/b/bucketing.json', '/a/b/bucketing.json'],
      ['GET', '/%2e%2e/bucketing.json', '/%2e%2e/bucketing.json'],
      ['POST', '/analyticsx', '/analyticsx'],
    ];
    for (const [method, url, expected] of cases)
      assert.equal(platformUrl(method, url), expected, `${method} ${url}`);
  });
});

void describe("the platform SDKs' hosts pointed at the server", () => {
  let store: Store;
  let server: Running;
  let env: SeededEnvironment;
  let demoDir: string;

  before(async () => {
    store = await openFreshPgliteStore();
    demoDir = mkdtempSync(join(tmpdir(), 'platform-paths-'));
    writeFileSync(join(demoDir, 'index.html'), '<!doctype html><title>demo</title>');
    server = await startApp(store, { static: { demoDir, sdkDir: join(demoDir, 'sdk') } });
    env = await seedEnvironment(store, [checkoutCampaign()]);
  });
  after(async () => {
    await server.close();
    await store.close();
  });

  void it('serves the bucketing file and account settings at the CDN host root, conditional as at /cdn', async () => {
    // A publication in the second of the previous one carries the next second, and Last-Modified rises to it
    // once that second has come: it is final once it is earlier than Date, as it is here before comparing.
    const alias = await until(
      async () => {
        const answer = await call(server, 'GET', `/${env.envId}/bucketing.json`, 'cdn.flagship.io');
        const settled =
          Date.parse(String(answer.headers['last-modified'])) < Date.parse(String(answer.headers.date));
        return settled && answer;
      },
      { what: 'the aliased bucketing file to carry a Last-Modified earlier than its Date' },
    );
    const own = await call(server, 'GET', `/cdn/${env.envId}/bucketing.json`, '127.0.0.1');
    assert.equal(alias.status, 200);
    assert.equal(alias.text, own.text);
    assert.equal(alias.headers.etag, own.headers.etag);
    assert.equal(alias.headers['access-control-allow-origin'], '*');
    const modified = alias.headers['last-modified'];
    assert.ok(typeof modified === 'string');
    const again = await call(server, 'GET', `/${env.envId}/bucketing.json`, 'cdn.flagship.io', undefined, {
      'if-modified-since': modified,
    });
    assert.equal(again.status, 304);
    const settings = await call(server, 'GET', `/${env.envId}/accountSettings.json`, 'cdn.flagship.io');
    assert.equal(settings.status, 200);
    assert.deepEqual(JSON.parse(settings.text), {
      accountSettings: { enabledXPC: false, enabled1V1T: false },
    });
    const unknown = await call(server, 'GET', '/nosuchenv/bucketing.json', 'cdn.flagship.io');
    assert.equal(unknown.status, 404);
    assert.equal((JSON.parse(unknown.text) as { code: string }).code, 'unknown_environment');
    const preflight = await call(server, 'OPTIONS', `/${env.envId}/bucketing.json`, 'cdn.flagship.io');
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
  });

  void it('stores hits sent to the events host root, and answers its other paths', async () => {
    const hits = {
      cid: env.envId,
      ds: 'APP',
      t: 'BATCH',
      qt: 0,
      h: [{ t: 'EVENT', vid: 'platform-v1', cuid: null, qt: 5, ec: 'Action Tracking', ea: 'add_to_cart' }],
    };
    const sent = await call(server, 'POST', '/', 'events.flagship.io', hits);
    assert.equal(sent.status, 200);
    assert.deepEqual(JSON.parse(sent.text), {
      ...(JSON.parse(sent.text) as object),
      accepted: 1,
      rejected: [],
    });
    assert.equal((await store.countHits(env.envId)).EVENT, 1);

    const usage = {
      t: 'USAGE',
      cid: env.envId,
      vid: 'instance-1',
      cv: { version: '1', 'stack.name': 'Typescript', 'stack.version': '5.2.0' },
    };
    const counted = await call(server, 'POST', '/analytics', 'events.flagship.io', usage);
    assert.equal(counted.status, 200);
    assert.deepEqual(await store.usageCounts(env.envId), [
      {
        sdkName: 'Typescript',
        sdkVersion: '5.2.0',
        day: new Date().toISOString().slice(0, 10),
        count: 1,
      },
    ]);
    const troubleshooting = await call(server, 'POST', '/troubleshooting', 'events.flagship.io', {
      t: 'TROUBLESHOOTING',
      cid: env.envId,
      cv: {},
    });
    assert.equal(troubleshooting.status, 200);
    const emotions = await call(server, 'POST', '/emotionsai', 'events.flagship.io', {
      t: 'PAGEVIEW',
      cid: env.envId,
    });
    assert.equal(emotions.status, 204);
    assert.equal(emotions.text, '');
    assert.equal(emotions.headers['access-control-allow-origin'], '*');
    const notJson = await call(server, 'POST', '/emotionsai', 'events.flagship.io', undefined, {
      'content-type': 'application/json',
    });
    assert.equal(notJson.status, 400);
    const preflight = await call(server, 'OPTIONS', '/', 'events.flagship.io');
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
  });

  void it("answers the decision host's paths unchanged", async () => {
    const decided = await call(
      server,
      'POST',
      `/v2/${env.envId}/campaigns?exposeAllKeys=true&extras[]=accountSettings`,
      'decision.flagship.io',
      { visitorId: 'platform-v2', context: {}, trigger_hit: false, visitor_consent: true },
      { 'x-api-key': env.apiKey, 'content-type': 'application/json' },
    );
    assert.equal(decided.status, 200);
    const body = JSON.parse(decided.text) as { visitorId: string; campaigns: unknown[] };
    assert.equal(body.visitorId, 'platform-v2');
    assert.equal(body.campaigns.length, 1);
  });

  void it('keeps the demo page at GET / and the SDK bundles at /sdk/, on any host', async () => {
    for (const host of ['127.0.0.1', 'events.flagship.io', 'cdn.flagship.io']) {
      const page = await call(server, 'GET', '/', host);
      assert.equal(page.status, 200, host);
      assert.match(page.text, /<title>demo<\/title>/);
    }
    const bundle = await call(server, 'GET', '/sdk/bucketing.json', 'cdn.flagship.io');
    assert.equal(bundle.status, 404);
    assert.match(bundle.text, /build the SDK bundles/);
  });
});
