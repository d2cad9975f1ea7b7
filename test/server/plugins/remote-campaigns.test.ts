// The remote control API's campaign routes with a token for every action (PROTOCOL.md §13.5): list with
// paging, create (201 + Location, ids generated, last in order), read (ETag, 304), update (fields replace,
// position moves), toggle (interrupted is final), delete (204, report kept), panic, report, and refusals
// that name the field. Every change shows in the bucketing file at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BucketingFile, RemoteCampaign, RemotePage } from '../../../src/protocol/index.js';
import { createAccess } from '../../../server/src/auth/create-access.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { checkoutCampaign, seedEnvironment, startApp, type Running } from '../support.js';

let store: Store;
let server: Running;
let base = '';
let envId = '';
let token = '';

before(async () => {
  store = await openFreshPgliteStore();
  const seeded = await seedEnvironment(store, [checkoutCampaign()]);
  envId = seeded.envId;
  server = await startApp(store);
  const { access, clientSecret } = await createAccess(store, {
    accountId: seeded.accountId,
    name: 'everything',
    actions: [
      'campaign.list',
      'campaign.read',
      'campaign.create',
      'campaign.update',
      'campaign.delete',
      'campaign.toggle',
      'environment.panic',
      'report.read',
    ],
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
  base = `${server.url}/v1/accounts/${seeded.accountId}/account_environments/${envId}`;
});
after(async () => {
  await server.close();
  await store.close();
});

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
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

const served = async (): Promise<BucketingFile> =>
  (await (await fetch(`${server.url}/cdn/${envId}/bucketing.json`)).json()) as BucketingFile;

const banner = (name: string) => ({
  name,
  type: 'toggle',
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
});

void describe('campaigns over the remote control API', () => {
  let created: RemoteCampaign;

  void it('creates a campaign: 201, Location, generated ids, last in order, served at once', async () => {
    const got = await call('POST', '/campaigns', { ...banner('Banner'), slug: 'banner' });
    assert.equal(got.status, 201, JSON.stringify(got.body));
    created = got.body as RemoteCampaign;
    assert.equal(got.headers.get('location'), `${new URL(base).pathname}/campaigns/${created.id}`);
    assert.match(created.id, /^[a-z2-7]{20}$/);
    assert.equal(created.state, 'active');
    assert.equal(created.slug, 'banner');
    assert.deepEqual(created.bucket_ranges, [[0, 100]]);
    const ids = created.variation_groups[0]?.variations.map((v) => v.id) ?? [];
    assert.equal(new Set(ids).size, 2);
    assert.deepEqual(
      (await served()).campaigns.map((c) => c.id),
      ['c1', created.id],
    );
  });

  void it('lists with paging', async () => {
    const page = (await call('GET', '/campaigns?_page=2&_max_per_page=1')).body as RemotePage<RemoteCampaign>;
    assert.deepEqual(
      { ...page, items: page.items.map((c) => c.id) },
      {
        items: [created.id],
        current_items_count: 1,
        current_page: 2,
        total_count: 2,
        items_per_page: 1,
        last_page: 2,
      },
    );
    for (const query of ['_page=0', '_max_per_page=101', '_page=x', '_max_per_page=1.5']) {
      const bad = await call('GET', `/campaigns?${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal((bad.body as { details: Array<{ path: string }> }).details[0]?.path, query.split('=')[0]);
    }
  });

  void it('reads the environment once per request: the authorization read serves the answer', async () => {
    // Each read is a store query (about 1.4 ms on the embedded store); a list once made three of them.
    const getEnvironment = store.getEnvironment.bind(store);
    let reads = 0;
    store.getEnvironment = (id) => {
      reads++;
      return getEnvironment(id);
    };
    try {
      for (const path of ['/campaigns', `/campaigns/${created.id}`]) {
        reads = 0;
        const got = await call('GET', path);
        assert.equal(got.status, 200, path);
        assert.equal(reads, 1, path);
        // The answer still carries the environment's configuration time and account settings.
        assert.notEqual(got.headers.get('last-modified'), null, path);
      }
    } finally {
      store.getEnvironment = getEnvironment;
    }
  });

  void it('reads one with an ETag, and answers 304 to it', async () => {
    const got = await call('GET', `/campaigns/${created.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, { ...created, compatibility: [] });
    const etag = got.headers.get('etag') ?? '';
    assert.notEqual(etag, '');
    assert.equal(
      (await call('GET', `/campaigns/${created.id}`, undefined, { 'if-none-match': etag })).status,
      304,
    );
    assert.equal((await call('GET', '/campaigns/nope')).status, 404);
  });

  void it('updates: given fields replace, position moves it first, the file follows', async () => {
    const got = await call('PATCH', `/campaigns/${created.id}`, { name: 'Banner v2', position: 0 });
    assert.equal(got.status, 200, JSON.stringify(got.body));
    assert.equal((got.body as RemoteCampaign).name, 'Banner v2');
    assert.deepEqual((got.body as RemoteCampaign).variation_groups, created.variation_groups);
    const file = await served();
    assert.deepEqual(
      file.campaigns.map((c) => c.id),
      [created.id, 'c1'],
    );
    assert.equal(file.campaigns[0]?.name, 'Banner v2');
  });

  void it("GET answers say what the platform's own SDKs would evaluate differently, and it can be sent back", async () => {
    const versioned = banner('Versioned');
    const group = versioned.variation_groups[0];
    if (group !== undefined)
      group.targeting = {
        targeting_groups: [
          { targetings: [{ key: 'appVersion', operator: 'SEMVER_GREATER_THAN_OR_EQUALS', value: '2.0.0' }] },
        ],
      };
    const posted = await call('POST', '/campaigns', versioned);
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    const made = posted.body as RemoteCampaign;
    const read = (await call('GET', `/campaigns/${made.id}`)).body as RemoteCampaign;
    // Its semver rule is unknown to their engine; its null banner masks the earlier Banner campaign's value.
    assert.deepEqual(
      read.compatibility?.map((w) => [w.code, w.modes, w.path]),
      [
        ['semver_operator', ['bucketing'], 'variation_groups[0].targeting.targeting_groups[0].targetings[0]'],
        [
          'null_masks_earlier_flag',
          ['decision_api', 'bucketing'],
          'variation_groups[0].variations[0].modifications.value',
        ],
      ],
    );
    const listed = (await call('GET', '/campaigns?_max_per_page=100')).body as RemotePage<RemoteCampaign>;
    assert.deepEqual(listed.items.find((c) => c.id === made.id)?.compatibility, read.compatibility);
    assert.deepEqual(listed.items.find((c) => c.id === 'c1')?.compatibility, []);
    // The read answer goes back whole as a PATCH: compatibility is read-only and ignored.
    const back = await call('PATCH', `/campaigns/${made.id}`, { ...read, position: undefined });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal((await call('DELETE', `/campaigns/${made.id}`)).status, 204);
  });

  void it('refuses a bad campaign naming the field, and a clash with 409', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...banner('x'), type: 'rollout' }, 'type'],
      [
        { ...banner('x'), variation_groups: [{ ...banner('x').variation_groups[0], variations: [] }] },
        'variation_groups[0].variations',
      ],
    ];
    for (const [body, path] of cases) {
      const got = await call('POST', '/campaigns', body);
      assert.equal(got.status, 400, JSON.stringify(got.body));
      const details = (got.body as { code: string; details: Array<{ path: string }> }).details;
      assert.equal((got.body as { code: string }).code, 'invalid_body');
      assert.ok(details[0]?.path.startsWith(path), `${details[0]?.path} names ${path}`);
    }
    const clash = await call('POST', '/campaigns', { ...banner('Again'), id: created.id });
    assert.equal(clash.status, 409);
    assert.equal((clash.body as { code: string }).code, 'conflict');
    const slug = await call('POST', '/campaigns', { ...banner('Same slug'), slug: 'banner' });
    assert.equal(slug.status, 409);
  });

  void it('toggles: paused leaves the file, interrupted is final', async () => {
    const paused = await call('PATCH', `/campaigns/${created.id}/toggle`, { state: 'paused' });
    assert.equal((paused.body as RemoteCampaign).state, 'paused');
    assert.deepEqual(
      (await served()).campaigns.map((c) => c.id),
      ['c1'],
    );
    assert.equal((await call('PATCH', `/campaigns/${created.id}/toggle`, { state: 'stopped' })).status, 400);
    assert.equal(
      (await call('PATCH', `/campaigns/${created.id}/toggle`, { state: 'interrupted' })).status,
      200,
    );
    const back = await call('PATCH', `/campaigns/${created.id}/toggle`, { state: 'active' });
    assert.equal(back.status, 409);
  });

  void it('switches panic on and off', async () => {
    assert.deepEqual((await call('PATCH', '/panic', { panic: 'on' })).body, { panic: 'on' });
    assert.equal((await served()).panic, true);
    assert.deepEqual((await call('PATCH', '/panic', { panic: 'off' })).body, { panic: 'off' });
    assert.equal((await served()).panic, false);
    assert.equal((await call('PATCH', '/panic', { panic: true })).status, 400);
  });

  void it('names a campaign by its slug too, as the CLI and the console do; the 404 says both', async () => {
    const bySlug = await call('GET', '/campaigns/banner');
    assert.equal(bySlug.status, 200, JSON.stringify(bySlug.body));
    assert.equal((bySlug.body as RemoteCampaign).id, created.id);
    const renamed = await call('PATCH', '/campaigns/banner', { name: 'Banner (slug)' });
    assert.equal((renamed.body as RemoteCampaign).name, 'Banner (slug)');
    // Interrupted by the toggle test above, which is final: the toggle route finds it by its slug and says so.
    const toggled = await call('PATCH', '/campaigns/banner/toggle', { state: 'active' });
    assert.equal(toggled.status, 409);
    assert.ok(
      (toggled.body as { message: string }).message.includes(`Campaign "${created.id}" is interrupted`),
    );
    const report = await call('GET', '/campaigns/banner/report');
    assert.equal((report.body as { campaign_id: string }).campaign_id, created.id);
    const unknown = await call('GET', '/campaigns/no-such-slug');
    assert.equal(unknown.status, 404);
    assert.match(
      (unknown.body as { message: string }).message,
      /No campaign with the id or slug "no-such-slug" in this environment: list them with GET …\/campaigns\./,
    );
  });

  void it('deletes (204), and the report of the deleted campaign stays readable', async () => {
    assert.equal((await call('DELETE', `/campaigns/${created.id}`)).status, 204);
    assert.equal((await call('GET', `/campaigns/${created.id}`)).status, 404);
    assert.equal((await call('DELETE', `/campaigns/${created.id}`)).status, 404);
    const report = await call('GET', `/campaigns/${created.id}/report`);
    assert.equal(report.status, 200);
    assert.equal((report.body as { campaign_id: string }).campaign_id, created.id);
    assert.equal((await call('GET', '/campaigns/never-was/report')).status, 404);
    // Its slug is free again; the deleted campaign's report is still found by it while no live one holds it.
    assert.equal((await call('GET', '/campaigns/banner/report')).status, 200);
    assert.equal((await call('GET', '/campaigns/banner')).status, 404, 'deleted: not readable by its slug');
    const again = await call('POST', '/campaigns', { ...banner('Banner again'), slug: 'banner' });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    const reportNow = await call('GET', '/campaigns/banner/report');
    assert.equal(
      (reportNow.body as { campaign_id: string }).campaign_id,
      (again.body as RemoteCampaign).id,
      'the live campaign holding the slug wins over the deleted one',
    );
  });
});
