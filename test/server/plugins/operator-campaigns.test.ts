// The campaign routes under /admin/v1/environments/{envId} (PROTOCOL.md §13.5, §13.8): the remote control
// API's own handlers with the operator key instead of a token. They answer what the remote routes answer
// (bodies, field-named refusals, 409s, interrupted final, panic, reports) with `Cache-Control: no-store`,
// refuse a missing key and an unknown environment, and every change shows in the bucketing file at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BucketingFile, RemoteCampaign, RemotePage } from '../../../src/protocol/index.js';
import { createAccess } from '../../../server/src/auth/create-access.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { checkoutCampaign, premiumToggle, seedEnvironment, startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-tests-0123456789';

let store: Store;
let server: Running;
let envId = '';
let remoteBase = '';
let token = '';

before(async () => {
  store = await openFreshPgliteStore();
  const seeded = await seedEnvironment(store, [checkoutCampaign(), premiumToggle()]);
  envId = seeded.envId;
  server = await startApp(store, { operatorKeys: [KEY] });
  const { access, clientSecret } = await createAccess(store, {
    accountId: seeded.accountId,
    name: 'reader',
    actions: ['campaign.read', 'campaign.list'],
  });
  const res = await fetch(`${server.url}/oauth/${seeded.accountId}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: access.clientId,
      client_secret: clientSecret,
    }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
  remoteBase = `${server.url}/v1/accounts/${seeded.accountId}/account_environments/${envId}`;
});
after(async () => {
  await server.close();
  await store.close();
});

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

const send = async (url: string, method: string, authorization: string | null, body?: unknown) => {
  const res = await fetch(url, {
    method,
    headers: {
      ...(authorization === null ? {} : { authorization }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === '' ? null : (JSON.parse(text) as unknown),
  };
};

/** A call to the environment's operator campaign routes (`path` after /admin/v1/environments/{envId}). */
const admin = (method: string, path: string, body?: unknown, on = envId): Promise<Answer> =>
  send(`${server.url}/admin/v1/environments/${on}${path}`, method, `Bearer ${KEY}`, body);

const remote = (path: string): Promise<Answer> => send(`${remoteBase}${path}`, 'GET', `Bearer ${token}`);

const served = async (): Promise<BucketingFile> =>
  (await (await fetch(`${server.url}/cdn/${envId}/bucketing.json`)).json()) as BucketingFile;

const detailPath = (answer: Answer): string | undefined =>
  (answer.body as { details?: Array<{ path: string }> }).details?.[0]?.path;

const banner = {
  name: 'Banner',
  type: 'toggle',
  slug: 'banner',
  variation_groups: [
    {
      name: 'Everyone',
      targeting: {
        targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }],
      },
      variations: [
        {
          name: 'Off',
          reference: true,
          allocation: 0,
          modifications: { type: 'FLAG', value: { banner: null } },
        },
        { name: 'On', allocation: 100, modifications: { type: 'FLAG', value: { banner: 'sale' } } },
      ],
    },
  ],
};

void describe('campaign routes under /admin/v1 with the operator key', () => {
  let created: RemoteCampaign;

  void it('refuse a missing or wrong key, and name an unknown environment', async () => {
    const url = `${server.url}/admin/v1/environments/${envId}/campaigns`;
    const missing = await send(url, 'GET', null);
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="feature"');
    assert.equal((await send(url, 'POST', 'Bearer wrong-key', banner)).status, 401);
    // A remote control token is no operator key.
    assert.equal((await send(url, 'GET', `Bearer ${token}`)).status, 401);
    const unknown = await admin('GET', '/campaigns', undefined, 'nope');
    assert.equal(unknown.status, 404);
    assert.equal((unknown.body as { code: string }).code, 'unknown_environment');
    assert.equal((await admin('PATCH', '/panic', { panic: 'on' }, 'nope')).status, 404);
    assert.equal((await admin('GET', '/campaigns/c1', undefined, 'nope')).status, 404);
  });

  void it('list and read exactly what the remote control API answers, never cached', async () => {
    const listed = await admin('GET', '/campaigns?_page=1&_max_per_page=1');
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('cache-control'), 'no-store');
    assert.deepEqual(listed.body, (await remote('/campaigns?_page=1&_max_per_page=1')).body);
    const page = listed.body as RemotePage<RemoteCampaign>;
    assert.deepEqual([page.items.map((c) => c.id), page.total_count, page.last_page], [['c1'], 2, 2]);
    const read = await admin('GET', '/campaigns/c1');
    assert.deepEqual(read.body, (await remote('/campaigns/c1')).body);
    assert.equal((read.body as RemoteCampaign).slug, 'checkout');
    const etag = read.headers.get('etag') ?? '';
    const again = await fetch(`${server.url}/admin/v1/environments/${envId}/campaigns/c1`, {
      headers: { authorization: `Bearer ${KEY}`, 'if-none-match': etag },
    });
    assert.equal(again.status, 304);
    const bad = await admin('GET', '/campaigns?_max_per_page=101');
    assert.equal(detailPath(bad), '_max_per_page');
    const unknown = await admin('GET', '/campaigns/nope');
    assert.equal(unknown.status, 404);
    assert.equal((unknown.body as { code: string }).code, 'not_found');
  });

  void it('create: 201 with an operator Location, generated ids, last, served at once', async () => {
    const got = await admin('POST', '/campaigns', banner);
    assert.equal(got.status, 201, JSON.stringify(got.body));
    created = got.body as RemoteCampaign;
    assert.equal(got.headers.get('location'), `/admin/v1/environments/${envId}/campaigns/${created.id}`);
    assert.equal(got.headers.get('cache-control'), 'no-store');
    assert.match(created.id, /^[a-z2-7]{20}$/);
    assert.deepEqual([created.state, created.slug, created.bucket_ranges], ['active', 'banner', [[0, 100]]]);
    assert.deepEqual(
      (await served()).campaigns.map((c) => c.id),
      ['c1', 'c2', created.id],
    );
    assert.deepEqual((await remote(`/campaigns/${created.id}`)).body, created);
  });

  void it('refuse a bad field by its path and a clash with 409, as the remote routes do', async () => {
    const allocation = await admin('POST', '/campaigns', {
      ...banner,
      slug: 'other',
      variation_groups: [
        {
          ...banner.variation_groups[0],
          variations: [
            banner.variation_groups[0]?.variations[0],
            { ...banner.variation_groups[0]?.variations[1], allocation: 150 },
          ],
        },
      ],
    });
    assert.equal(allocation.status, 400);
    assert.equal((allocation.body as { code: string }).code, 'invalid_body');
    assert.equal(detailPath(allocation), 'variation_groups[0].variations[1].allocation');
    const camel = await admin('PATCH', '/campaigns/c1', { variationGroups: [] });
    assert.equal(camel.status, 400);
    assert.equal(detailPath(camel), 'variationGroups');
    const state = await admin('PATCH', '/campaigns/c1', { state: 'paused' });
    assert.equal(detailPath(state), 'state');
    const clash = await admin('POST', '/campaigns', { ...banner, id: 'c1', slug: 'fresh' });
    assert.equal(clash.status, 409);
    assert.deepEqual(clash.body, {
      message: 'The campaign id "c1" already belongs to a campaign of this environment: give it another id.',
      code: 'conflict',
    });
    assert.equal((await admin('POST', '/campaigns', banner)).status, 409, 'the slug is taken');
    assert.equal((await admin('PATCH', '/campaigns/c2', { slug: 'checkout' })).status, 409);
  });

  void it('update: fields given replace, position moves, the file follows', async () => {
    const got = await admin('PATCH', `/campaigns/${created.id}`, {
      name: 'Banner v2',
      bucket_ranges: [[0, 50]],
      position: 0,
    });
    assert.equal(got.status, 200, JSON.stringify(got.body));
    const updated = got.body as RemoteCampaign;
    assert.deepEqual([updated.name, updated.bucket_ranges], ['Banner v2', [[0, 50]]]);
    assert.deepEqual(updated.variation_groups, created.variation_groups);
    const file = await served();
    assert.deepEqual(
      file.campaigns.map((c) => c.id),
      [created.id, 'c1', 'c2'],
    );
    assert.deepEqual(file.campaigns[0]?.bucketRanges, [{ r: [0, 50] }]);
  });

  void it('toggle: paused leaves the file, interrupted is final', async () => {
    const paused = await admin('PATCH', '/campaigns/c2/toggle', { state: 'paused' });
    assert.equal((paused.body as RemoteCampaign).state, 'paused');
    assert.deepEqual(
      (await served()).campaigns.map((c) => c.id),
      [created.id, 'c1'],
    );
    assert.equal(detailPath(await admin('PATCH', '/campaigns/c2/toggle', { state: 'stopped' })), 'state');
    assert.equal((await admin('PATCH', '/campaigns/c2/toggle', { state: 'interrupted' })).status, 200);
    const back = await admin('PATCH', '/campaigns/c2/toggle', { state: 'active' });
    assert.equal(back.status, 409);
    assert.equal(
      (back.body as { message: string }).message,
      'Campaign "c2" is interrupted, which is final: create a new campaign to run it again.',
    );
  });

  void it('panic: on and off, in the file at once', async () => {
    assert.deepEqual((await admin('PATCH', '/panic', { panic: 'on' })).body, { panic: 'on' });
    assert.equal((await served()).panic, true);
    assert.deepEqual((await admin('PATCH', '/panic', { panic: 'off' })).body, { panic: 'off' });
    assert.equal((await served()).panic, false);
    assert.equal(detailPath(await admin('PATCH', '/panic', { panic: true })), 'panic');
  });

  void it('delete: 204, gone from reads and the file, its report kept', async () => {
    const deleted = await admin('DELETE', `/campaigns/${created.id}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.headers.get('cache-control'), 'no-store');
    assert.equal((await admin('GET', `/campaigns/${created.id}`)).status, 404);
    assert.equal((await admin('DELETE', `/campaigns/${created.id}`)).status, 404);
    assert.deepEqual(
      (await served()).campaigns.map((c) => c.id),
      ['c1'],
    );
    const report = await admin('GET', `/campaigns/${created.id}/report`);
    assert.equal(report.status, 200);
    assert.equal((report.body as { campaign_id: string }).campaign_id, created.id);
    assert.equal((await admin('GET', '/campaigns/never-was/report')).status, 404);
  });
});
