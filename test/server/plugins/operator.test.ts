// The operator routes (PROTOCOL.md §13.8): off without an operator key, closed to a wrong one, and with the
// key: accounts, environments (API key shown once, rotation stops the old key), settings and panic, accesses
// (secret shown once, never listed, revocation), a bucketing-file import and reports.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BucketingFile } from '../../../src/protocol/index.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { checkoutCampaign, startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-tests-0123456789';

let store: Store;
let server: Running;
let closed: Running;

before(async () => {
  store = await openFreshPgliteStore();
  server = await startApp(store, { operatorKeys: [KEY] });
  closed = await startApp(store);
});
after(async () => {
  await closed.close();
  await server.close();
  await store.close();
});

const call = async (method: string, path: string, body?: unknown, key: string | null = KEY, on = server) => {
  const res = await fetch(`${on.url}/admin/v1${path}`, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (text === '' ? null : JSON.parse(text)) as Record<string, unknown>,
  };
};

void describe('operator routes', () => {
  void it('do not exist without an operator key', async () => {
    assert.equal((await call('GET', '/accounts', undefined, KEY, closed)).status, 404);
  });

  void it('refuse a missing or wrong key', async () => {
    const missing = await call('GET', '/accounts', undefined, null);
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="feature"');
    const wrong = await call('GET', '/accounts', undefined, 'not-the-key');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'invalid_token');
  });

  void it('manage accounts, environments, accesses, campaigns and reports', async () => {
    const account = await call('POST', '/accounts', { name: 'Shop' });
    assert.equal(account.status, 201);
    assert.equal(account.headers.get('cache-control'), 'no-store');
    const accountId = String(account.body.id);
    assert.ok(
      ((await call('GET', '/accounts')).body.items as Array<{ id: string }>).some((a) => a.id === accountId),
    );
    assert.equal((await call('POST', '/accounts', { name: '' })).status, 400);

    const env = await call('POST', `/accounts/${accountId}/environments`, { name: 'prod', enabledXPC: true });
    assert.equal(env.status, 201);
    const envId = String(env.body.id);
    const firstKey = String(env.body.api_key);
    assert.match(firstKey, /^fk_/);
    assert.deepEqual(env.body.settings, { enabledXPC: true, enabled1V1T: false });
    const listed = (await call('GET', `/accounts/${accountId}/environments`)).body.items as Array<
      Record<string, unknown>
    >;
    assert.equal(listed.length, 1);
    assert.equal('api_key' in (listed[0] ?? {}), false, 'an API key is shown once');

    const imported = await call('PUT', `/environments/${envId}/campaigns`, {
      campaigns: [checkoutCampaign()],
    });
    assert.deepEqual(imported.body, { envId, campaigns: 1 });
    const decide = (apiKey: string) =>
      fetch(`${server.url}/v2/${envId}/campaigns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: '{"visitorId":"v1","context":{}}',
      });
    assert.equal((await decide(firstKey)).status, 200);
    const rotated = await call('POST', `/environments/${envId}/rotate-key`);
    const secondKey = String(rotated.body.api_key);
    assert.notEqual(secondKey, firstKey);
    assert.equal((await decide(firstKey)).status, 403, 'the old key stops at once');
    assert.equal((await decide(secondKey)).status, 200);

    const patched = await call('PATCH', `/environments/${envId}`, { panic: true, enabled1V1T: true });
    assert.equal(patched.body.panic, true);
    assert.deepEqual(patched.body.settings, { enabledXPC: true, enabled1V1T: true });
    const file = (await (await fetch(`${server.url}/cdn/${envId}/bucketing.json`)).json()) as BucketingFile;
    assert.equal(file.panic, true);
    assert.equal((await call('PATCH', `/environments/${envId}`, { panic: 'yes' })).status, 400);

    const access = await call('POST', `/accounts/${accountId}/accesses`, {
      name: 'CI',
      actions: ['campaign.toggle'],
      environments: [envId],
    });
    assert.equal(access.status, 201);
    assert.match(String(access.body.client_secret), /^ffs_/);
    assert.match(String(access.body.client_id), /^ffc_/);
    const accessId = String(access.body.id);
    const shown = await call('GET', `/accesses/${accessId}`);
    assert.equal('client_secret' in shown.body, false, 'a secret is shown once');
    assert.equal(shown.body.revoked_at, null);
    const badAction = await call('POST', `/accounts/${accountId}/accesses`, {
      name: 'x',
      actions: ['campaign.fly'],
    });
    assert.equal(badAction.status, 400);
    // The schema names the wrong item itself, and the actions it could be.
    const actionError = (badAction.body.details as Array<{ path: string; message: string }>)[0];
    assert.equal(actionError?.path, 'actions[0]');
    assert.match(actionError.message, /must be one of .*"report\.read"/);
    const badEnv = await call('POST', `/accounts/${accountId}/accesses`, {
      name: 'x',
      actions: ['report.read'],
      environments: ['nope'],
    });
    assert.equal((badEnv.body.details as Array<{ path: string }>)[0]?.path, 'environments');
    const revoked = await call('POST', `/accesses/${accessId}/revoke`);
    assert.equal(typeof revoked.body.revoked_at, 'string');
    const again = await call('POST', `/accesses/${accessId}/revoke`);
    assert.equal(again.body.revoked_at, revoked.body.revoked_at, 'revocation keeps its first time');
    const accesses = (await call('GET', `/accounts/${accountId}/accesses`)).body.items as unknown[];
    assert.equal(accesses.length, 1);

    const reports = await call('GET', `/environments/${envId}/reports?campaign=checkout`);
    assert.equal((reports.body.reports as Array<{ campaign_id: string }>)[0]?.campaign_id, 'c1');
    assert.equal((await call('GET', `/environments/${envId}/reports?campaign=nope`)).status, 404);
    assert.equal((await call('GET', '/accounts/nope/environments')).status, 404);
    assert.equal((await call('GET', '/accesses/nope')).status, 404);
  });
});
