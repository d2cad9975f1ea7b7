// A campaign's analysis settings (PROTOCOL.md §14.6) through the real routes, on every store: the remote
// control API sets them on POST and PATCH and answers them with the defaults filled in; the operator's campaign
// routes answer the same; a campaign imported without them reads the defaults and its stored body stays as it
// was; each bad field is a 400 naming it; changing them changes no stored count and not the served bucketing
// file, which never carries them.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AnalysisSettings, RemoteCampaign } from '../../../src/protocol/index.js';
import { createAccess } from '../../../server/src/auth/create-access.js';
import type { Store } from '../../../server/src/store/store.js';
import {
  checkoutCampaign,
  describeOnEveryStoreWith,
  post,
  seedEnvironment,
  startApp,
  type Running,
  type SeededEnvironment,
} from '../support.js';

const KEY = 'operator-key-for-tests-0123456789';

const DEFAULTS: AnalysisSettings = {
  primary_goal: null,
  method: 'sequential',
  alpha: 0.05,
  expected_visitors: 5000,
};

interface Fixture {
  store: Store;
  server: Running;
  env: SeededEnvironment;
  token: string;
}

const start = async (store: Store): Promise<Fixture> => {
  const server = await startApp(store, { operatorKeys: [KEY] });
  try {
    const env = await seedEnvironment(store, [checkoutCampaign()]);
    const { access, clientSecret } = await createAccess(store, {
      accountId: env.accountId,
      name: 'campaigns',
      actions: ['campaign.list', 'campaign.read', 'campaign.create', 'campaign.update'],
    });
    const issued = await post(`${server.url}/oauth/${env.accountId}/token`, {
      grant_type: 'client_credentials',
      client_id: access.clientId,
      client_secret: clientSecret,
    });
    return { store, server, env, token: (issued.body as { access_token: string }).access_token };
  } catch (error) {
    await server.close();
    throw error;
  }
};

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

const send = async (url: string, method: string, authorization: string, body?: unknown): Promise<Answer> => {
  const res = await fetch(url, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === '' ? null : (JSON.parse(text) as unknown),
  };
};

const banner = (analysis?: unknown) => ({
  name: 'Banner',
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
          allocation: 50,
          modifications: { type: 'FLAG', value: { banner: null } },
        },
        { name: 'On', allocation: 50, modifications: { type: 'FLAG', value: { banner: 'sale' } } },
      ],
    },
  ],
  ...(analysis === undefined ? {} : { analysis }),
});

describeOnEveryStoreWith(
  'campaign analysis settings over HTTP',
  { start, stop: (f) => f.server.close() },
  (_kind, started) => {
    const f = (): Fixture => started('fixture');
    const remote = (method: string, path: string, body?: unknown): Promise<Answer> => {
      const { server, env, token } = f();
      const base = `${server.url}/v1/accounts/${env.accountId}/account_environments/${env.envId}`;
      return send(`${base}${path}`, method, `Bearer ${token}`, body);
    };
    const operator = (method: string, path: string, body?: unknown): Promise<Answer> =>
      send(`${f().server.url}/admin/v1/environments/${f().env.envId}${path}`, method, `Bearer ${KEY}`, body);
    const servedFile = async (): Promise<{ etag: string | null; text: string }> => {
      const res = await fetch(`${f().server.url}/cdn/${f().env.envId}/bucketing.json`);
      return { etag: res.headers.get('etag'), text: await res.text() };
    };
    const counts = async (campaignId: string) => ({
      exposures: await f().store.reportExposures(f().env.envId, campaignId),
      conversions: await f().store.reportConversions(f().env.envId, campaignId),
    });

    void it('a campaign imported without them reads the defaults on both route families; its body stays as it was', async () => {
      const read = await remote('GET', '/campaigns/c1');
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.deepEqual((read.body as RemoteCampaign).analysis, DEFAULTS);
      const listed = (await remote('GET', '/campaigns')).body as { items: RemoteCampaign[] };
      assert.deepEqual(listed.items[0]?.analysis, DEFAULTS);
      assert.deepEqual(((await operator('GET', '/campaigns/c1')).body as RemoteCampaign).analysis, DEFAULTS);
      const stored = await f().store.getCampaign(f().env.envId, 'c1');
      assert.deepEqual(stored?.body, checkoutCampaign());
    });

    void it('PATCH sets them and changes no stored count and not the served file', async () => {
      const { server, env } = f();
      const activations = ['a1', 'a2', 'a3'].map((vid, i) => ({
        vid,
        aid: null,
        caid: 'vg1',
        vaid: i % 2 === 0 ? 'v1' : 'v2',
        qt: 0,
        hid: `hid-a${i}`,
      }));
      assert.equal(
        (await post(`${server.url}/v2/activate`, { cid: env.envId, batch: activations })).status,
        204,
      );
      const hit = {
        t: 'EVENT',
        vid: 'a2',
        cuid: null,
        qt: 0,
        hid: 'hid-e1',
        ec: 'Action Tracking',
        ea: 'add_to_cart',
      };
      assert.equal(
        (await post(`${server.url}/events`, { cid: env.envId, t: 'BATCH', h: [hit] })).status,
        200,
      );
      const before = await counts('c1');
      assert.equal(before.exposures.length, 3);
      assert.equal(before.conversions.length, 1);
      // A first PATCH writes the body in its normal form (bucketRanges written); the file is compared after it.
      assert.equal((await remote('PATCH', '/campaigns/c1', {})).status, 200);
      const fileBefore = await servedFile();

      const analysis = {
        primary_goal: { type: 'event', name: 'add_to_cart' },
        alpha: 0.01,
        expected_visitors: 20000,
      };
      const patched = await remote('PATCH', '/campaigns/c1', { analysis });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const expected = { ...DEFAULTS, ...analysis };
      assert.deepEqual((patched.body as RemoteCampaign).analysis, expected);
      assert.deepEqual(((await remote('GET', '/campaigns/c1')).body as RemoteCampaign).analysis, expected);
      assert.deepEqual(((await operator('GET', '/campaigns/c1')).body as RemoteCampaign).analysis, expected);
      // Stored as the fields that differ from the defaults (the served file below shows the rest unchanged).
      const stored = await f().store.getCampaign(env.envId, 'c1');
      assert.deepEqual(stored?.body.analysis, analysis);

      assert.deepEqual(await counts('c1'), before);
      const fileAfter = await servedFile();
      assert.equal(fileAfter.text, fileBefore.text);
      assert.equal(fileAfter.etag, fileBefore.etag);
      assert.doesNotMatch(fileAfter.text, /analysis|add_to_cart/);

      // One field given: the others are kept. Through the operator route, the same handler.
      const fixed = await operator('PATCH', '/campaigns/c1', {
        analysis: { method: 'fixed', primary_goal: null },
      });
      assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
      assert.deepEqual((fixed.body as RemoteCampaign).analysis, {
        ...expected,
        method: 'fixed',
        primary_goal: null,
      });
      assert.deepEqual(await counts('c1'), before);
    });

    void it('POST sets them; the served file leaves them out', async () => {
      const created = await remote(
        'POST',
        '/campaigns',
        banner({ primary_goal: { type: 'transaction', name: 'Purchase' } }),
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const campaign = created.body as RemoteCampaign;
      assert.deepEqual(campaign.analysis, {
        ...DEFAULTS,
        primary_goal: { type: 'transaction', name: 'Purchase' },
      });
      const file = JSON.parse((await servedFile()).text) as { campaigns: Array<Record<string, unknown>> };
      assert.deepEqual(
        file.campaigns.map((c) => c.id),
        ['c1', campaign.id],
      );
      for (const served of file.campaigns) assert.equal(Object.hasOwn(served, 'analysis'), false);
      // A campaign created without them answers the defaults.
      const plain = await remote('POST', '/campaigns', { ...banner(), name: 'Plain' });
      assert.deepEqual((plain.body as RemoteCampaign).analysis, DEFAULTS);
    });

    const BAD: Array<[unknown, string, RegExp]> = [
      [{ alpha: 0.5 }, 'analysis.alpha', /must be a number from 0\.001 to 0\.2/],
      [{ alpha: '0.05' }, 'analysis.alpha', /must be a number/],
      [{ method: 'bayesian' }, 'analysis.method', /must be one of sequential, fixed/],
      [{ expected_visitors: 50 }, 'analysis.expected_visitors', /integer from 100 to 100 000 000/],
      [
        { primary_goal: { type: 'click', name: 'x' } },
        'analysis.primary_goal.type',
        /must be one of event, transaction/,
      ],
      [{ primary_goal: { type: 'event', name: '' } }, 'analysis.primary_goal.name', /must not be empty/],
      [{ primary_goal: 'add_to_cart' }, 'analysis.primary_goal', /or null/],
      [
        { beta: 0.2 },
        'analysis.beta',
        /is not a known field; known: primary_goal, method, alpha, expected_visitors/,
      ],
      [[], 'analysis', /must be an object/],
    ];

    void it('refuses each bad field with a 400 naming it, on POST and PATCH, and stores nothing', async () => {
      const before = await f().store.getCampaign(f().env.envId, 'c1');
      for (const [analysis, path, reason] of BAD) {
        for (const [method, route, body] of [
          ['POST', '/campaigns', banner(analysis)],
          ['PATCH', '/campaigns/c1', { analysis }],
        ] as const) {
          const answer = await remote(method, route, body);
          assert.equal(answer.status, 400, `${method} ${JSON.stringify(analysis)}`);
          const error = answer.body as {
            code: string;
            message: string;
            details: Array<{ path: string; message: string }>;
          };
          assert.equal(error.code, 'invalid_body');
          const [detail] = error.details;
          assert.ok(detail !== undefined, error.message);
          assert.equal(detail.path, path, error.message);
          assert.match(detail.message, reason);
          assert.ok(error.message.startsWith(`${path}: `), error.message);
        }
      }
      assert.deepEqual(await f().store.getCampaign(f().env.envId, 'c1'), before);
      const listed = (await remote('GET', '/campaigns?_max_per_page=100')).body as { total_count: number };
      assert.equal(listed.total_count, 3);
    });
  },
);
