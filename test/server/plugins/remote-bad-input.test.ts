// The classes of input that once reached the database and came back as 500s, sent to the token, remote
// control and operator routes: U+0000 and lone surrogates in every text they store or look up (bodies and
// paths), huge finite numbers, and 10 000-deep nesting. Each gets a 4xx naming what to change, never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccess } from '../../../server/src/auth/create-access.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { checkoutCampaign, seedEnvironment, startApp, type Running } from '../support.js';

const OPERATOR = 'operator-key-for-tests-0123456789';
const deep = (depth: number, leaf = '1') => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;

let store: Store;
let server: Running;
let accountId = '';
let envId = '';
let token = '';

before(async () => {
  store = await openFreshPgliteStore();
  const seeded = await seedEnvironment(store, [checkoutCampaign()]);
  accountId = seeded.accountId;
  envId = seeded.envId;
  server = await startApp(store, { operatorKeys: [OPERATOR] });
  const { access, clientSecret } = await createAccess(store, {
    accountId,
    name: 'all',
    actions: ['campaign.list', 'campaign.read', 'campaign.create', 'campaign.update', 'report.read'],
  });
  const res = await fetch(`${server.url}/oauth/${accountId}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: access.clientId,
      client_secret: clientSecret,
    }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
});
after(async () => {
  await server.close();
  await store.close();
});

const send = async (method: string, path: string, body: string | undefined, authorization: string) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const remote = (method: string, path: string, body?: string) =>
  send(method, `/v1/accounts/${accountId}/account_environments/${envId}${path}`, body, `Bearer ${token}`);
const operator = (method: string, path: string, body?: string) =>
  send(method, `/admin/v1${path}`, body, `Bearer ${OPERATOR}`);

const campaign = (name: string) =>
  JSON.stringify({
    name,
    type: 'toggle',
    variation_groups: [
      {
        name: 'All',
        targeting: {
          targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }],
        },
        variations: [
          {
            name: 'On',
            reference: true,
            allocation: 100,
            modifications: { type: 'FLAG', value: { on: true } },
          },
        ],
      },
    ],
  });

const firstPath = (body: Record<string, unknown>): string =>
  (body.details as Array<{ path: string }> | undefined)?.[0]?.path ?? '';

void describe('text the store cannot hold', () => {
  void it('a token request whose client id holds U+0000 or a lone surrogate is an unknown client', async () => {
    for (const clientId of ['ffc_\u0000', 'ffc_\ud800']) {
      const res = await fetch(`${server.url}/oauth/${accountId}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: 's' }),
      });
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { error: string }).error, 'invalid_client');
    }
  });

  void it('U+0000 in a path parameter: 400 naming it', async () => {
    for (const [got, path] of [
      [await remote('GET', '/campaigns/c%001'), 'path.campaignId'],
      [
        await send(
          'GET',
          `/v1/accounts/${accountId}/account_environments/e%00/campaigns`,
          undefined,
          `Bearer ${token}`,
        ),
        'path.envId',
      ],
      [await operator('GET', '/accounts/a%00/environments'), 'path.accountId'],
      [await operator('GET', '/accesses/%00'), 'path.accessId'],
    ] as const) {
      assert.equal(got.status, 400, JSON.stringify(got.body));
      assert.equal(got.body.code, 'invalid_body');
      assert.equal(firstPath(got.body), path);
    }
  });

  void it('U+0000 or a lone surrogate in a stored text of a body: 400 naming the field', async () => {
    const cases: Array<[Promise<{ status: number; body: Record<string, unknown> }>, string]> = [
      [remote('POST', '/campaigns', campaign('Sale\u0000')), 'name'],
      [remote('POST', '/campaigns', campaign('Sale\ud800')), 'name'],
      [operator('POST', '/accounts', JSON.stringify({ name: 'Shop\u0000' })), 'name'],
      [
        operator('POST', `/accounts/${accountId}/environments`, JSON.stringify({ name: 'prod\udc00' })),
        'name',
      ],
      [
        operator(
          'POST',
          `/accounts/${accountId}/accesses`,
          JSON.stringify({ name: 'CI\u0000', actions: ['report.read'] }),
        ),
        'name',
      ],
    ];
    for (const [pending, field] of cases) {
      const got = await pending;
      assert.equal(got.status, 400, JSON.stringify(got.body));
      assert.equal(firstPath(got.body), field, JSON.stringify(got.body));
    }
  });
});

void describe('numbers and nesting', () => {
  void it('a huge finite allocation is refused, naming the field', async () => {
    const body = JSON.parse(campaign('Big')) as {
      variation_groups: Array<{ variations: Array<{ allocation: number }> }>;
    };
    const variation = body.variation_groups[0]?.variations[0];
    if (variation !== undefined) variation.allocation = 1e308;
    const got = await remote('POST', '/campaigns', JSON.stringify(body));
    assert.equal(got.status, 400);
    assert.equal(firstPath(got.body), 'variation_groups[0].variations[0].allocation');
  });

  void it('10 000-deep nesting is refused before anything recurses into it, on every kind of route', async () => {
    const expected = { code: 'invalid_body', message: '(body): nests deeper than 64 levels: flatten it' };
    for (const got of [
      await remote('POST', '/campaigns', `{"name":"x","description":${deep(10_000)}}`),
      await operator('POST', '/accounts', `{"name":"x","extra":${deep(10_000, '{"constructor":1}')}}`),
      await send('POST', `/v2/${envId}/campaigns`, `{"visitorId":"v","context":{},"x":${deep(10_000)}}`, ''),
    ]) {
      assert.equal(got.status === 400 || got.status === 401, true, JSON.stringify(got.body));
      if (got.status === 400) assert.deepEqual({ code: got.body.code, message: got.body.message }, expected);
    }
    const tokenRes = await fetch(`${server.url}/oauth/${accountId}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"grant_type":"client_credentials","x":${deep(3_000)}}`,
    });
    assert.equal(tokenRes.status, 400);
    assert.deepEqual(await tokenRes.json(), {
      error: 'invalid_request',
      error_description: '(body): nests deeper than 64 levels: flatten it',
    });
    // 64 levels are still a valid body (here refused for its shape, not its depth).
    const ok = await remote('POST', '/campaigns', `{"name":"x","description":${deep(63)}}`);
    assert.notEqual(ok.body.message, expected.message);
  });
});
