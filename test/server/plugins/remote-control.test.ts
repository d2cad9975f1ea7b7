// The remote control API end to end (PROTOCOL.md §13): an access granting campaign.toggle on environment A,
// a token for it, a pause in A that decisions and the bucketing file show at once (and, on PostgreSQL, a
// second server instance by notification alone), the same call on B refused (403), an action not granted
// refused (403), then the access revoked: the next call is 401 and a new token request is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BucketingFile, Decision } from '../../../src/protocol/index.js';
import { createAccess } from '../../../server/src/auth/create-access.js';
import type { Store } from '../../../server/src/store/store.js';
import { checkoutCampaign, seedEnvironment, startApp, storeKinds, type Running } from '../support.js';
import { until } from '../../support/until.js';

/** An interval that never elapses during a test (setInterval's largest; a larger one would fire at once). */
const NEVER_MS = 2 ** 31 - 1;

const bucketing = async (server: Running, envId: string) => {
  const res = await fetch(`${server.url}/cdn/${envId}/bucketing.json`);
  return { etag: res.headers.get('etag') ?? '', file: (await res.json()) as BucketingFile };
};

const decide = async (server: Running, envId: string, apiKey: string): Promise<Decision> => {
  const res = await fetch(`${server.url}/v2/${envId}/campaigns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ visitorId: 'visitor-1', context: {} }),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as Decision;
};

for (const kind of storeKinds()) {
  void describe(`remote control end to end (${kind.name})`, () => {
    let store: Store;
    let sibling: Store | null = null;
    let server: Running;
    let other: Running | null = null;
    let accountId = '';
    let envA = { envId: '', apiKey: '' };
    let envB = { envId: '', apiKey: '' };

    before(async () => {
      store = await kind.open();
      const seeded = await seedEnvironment(store, [checkoutCampaign('a-')]);
      accountId = seeded.accountId;
      envA = seeded;
      const b = await store.createEnvironment({ accountId, name: 'B' });
      await store.replaceCampaigns(b.environment.id, [checkoutCampaign('b-')]);
      envB = { envId: b.environment.id, apiKey: b.apiKey };
      server = await startApp(store);
      if (kind.openSibling !== undefined) {
        sibling = await kind.openSibling();
        // Its periodic check (the fallback for a missed notification) never runs: it learns by NOTIFY only.
        other = await startApp(sibling, { configCheckIntervalMs: NEVER_MS });
      }
    });
    after(async () => {
      await other?.close();
      await server.close();
      await sibling?.close();
      await store.close();
      await kind.cleanup();
    });

    const toggle = (token: string, envId: string, campaignId: string, state: string) =>
      fetch(
        `${server.url}/v1/accounts/${accountId}/account_environments/${envId}/campaigns/${campaignId}/toggle`,
        {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ state }),
        },
      );

    void it('grants exactly what the access allows, takes effect at once, and stops at revocation', async () => {
      const { access, clientSecret } = await createAccess(store, {
        accountId,
        name: 'CI toggler',
        actions: ['campaign.toggle'],
        environments: [envA.envId],
      });
      const tokenRes = await fetch(`${server.url}/oauth/${accountId}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: access.clientId,
          client_secret: clientSecret,
        }).toString(),
      });
      assert.equal(tokenRes.status, 200);
      assert.equal(tokenRes.headers.get('cache-control'), 'no-store');
      const granted = (await tokenRes.json()) as { access_token: string; scope: string; expires_in: number };
      assert.equal(granted.scope, `campaign.toggle env:${envA.envId}`);
      assert.equal(granted.expires_in, 3600);
      const token = granted.access_token;

      const before = await bucketing(server, envA.envId);
      assert.deepEqual(
        before.file.campaigns.map((c) => c.id),
        ['a-c1'],
      );
      assert.equal((await decide(server, envA.envId, envA.apiKey)).campaigns.length, 1);
      const otherBefore = other === null ? null : await bucketing(other, envA.envId);

      const paused = await toggle(token, envA.envId, 'a-c1', 'paused');
      assert.equal(paused.status, 200, await paused.clone().text());
      const campaign = (await paused.json()) as { id: string; state: string };
      assert.deepEqual([campaign.id, campaign.state], ['a-c1', 'paused']);

      // At once on this instance: a new ETag without the campaign, and decisions without it.
      const afterPause = await bucketing(server, envA.envId);
      assert.notEqual(afterPause.etag, before.etag);
      assert.deepEqual(afterPause.file.campaigns, []);
      assert.deepEqual((await decide(server, envA.envId, envA.apiKey)).campaigns, []);
      // On the second instance too (PostgreSQL: LISTEN/NOTIFY), which has no periodic check to learn it by.
      const second = other;
      if (second !== null && otherBefore !== null) {
        await until(
          async () => {
            const seen = await bucketing(second, envA.envId);
            return seen.etag !== otherBefore.etag && seen.file.campaigns.length === 0;
          },
          { what: 'the second instance to hear the pause by NOTIFY' },
        );
      }

      // Environment B is outside the token's scope.
      const onB = await toggle(token, envB.envId, 'b-c1', 'paused');
      assert.equal(onB.status, 403);
      assert.equal(
        onB.headers.get('www-authenticate'),
        `Bearer realm="feature", error="insufficient_scope", scope="campaign.toggle env:${envB.envId}"`,
      );
      assert.equal(((await onB.json()) as { code: string }).code, 'insufficient_scope');
      assert.equal((await bucketing(server, envB.envId)).file.campaigns.length, 1, 'B is unchanged');

      // An action the access does not grant.
      const list = await fetch(
        `${server.url}/v1/accounts/${accountId}/account_environments/${envA.envId}/campaigns`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      assert.equal(list.status, 403);
      assert.equal(
        list.headers.get('www-authenticate'),
        `Bearer realm="feature", error="insufficient_scope", scope="campaign.list env:${envA.envId}"`,
      );

      // Revoked: the same token stops at its next call, and no new token is issued.
      assert.notEqual(await store.revokeAccess(access.id), null);
      const afterRevoke = await toggle(token, envA.envId, 'a-c1', 'active');
      assert.equal(afterRevoke.status, 401);
      assert.equal(
        afterRevoke.headers.get('www-authenticate'),
        'Bearer realm="feature", error="invalid_token"',
      );
      assert.equal(((await afterRevoke.json()) as { code: string }).code, 'invalid_token');
      assert.deepEqual((await bucketing(server, envA.envId)).file.campaigns, [], 'still paused');
      const refused = await fetch(`${server.url}/oauth/${accountId}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: access.clientId,
          client_secret: clientSecret,
        }),
      });
      assert.equal(refused.status, 401);
      assert.deepEqual(await refused.json(), {
        error: 'invalid_client',
        error_description:
          'Client authentication failed: check the client id, the client secret and the account id in the path.',
      });
      const check = await fetch(`${server.url}/oauth/token?access_token=${token}`);
      assert.deepEqual(await check.json(), { active: false });
    });
  });
}
