// Every change route writes exactly one audit entry (issue 36), on every store kind: driven over HTTP with
// the operator key, a remote control access's token, and no credential at all (refused sign-ins), each
// change's new entries are read back from the store: exactly one, naming the caller and its address, the
// subject, the action and the diff. A refused change writes nothing.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Actor } from '../../../server/src/audit/actor.js';
import { auditDiff } from '../../../server/src/audit/audit-diff.js';
import { createAccess } from '../../../server/src/auth/create-access.js';
import { operatorKeyFingerprint } from '../../../server/src/auth/operator-auth.js';
import { OperatorKeys } from '../../../server/src/auth/operator-keys.js';
import type { AuditEntry } from '../../../server/src/store/audit-store.js';
import type { Store } from '../../../server/src/store/store.js';
import {
  checkoutCampaign,
  describeOnEveryStoreWith,
  seedEnvironment,
  startApp,
  type Running,
  type SeededEnvironment,
} from '../support.js';

const KEY = 'operator-key-for-the-audit-tests-0123456789';
const ADDRESS = '127.0.0.1';

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

interface Fixture {
  store: Store;
  server: Running;
  env: SeededEnvironment;
  operator: Actor;
  token: string;
  clientId: string;
  clientSecret: string;
}

describeOnEveryStoreWith<Fixture>(
  'audit entries of every change route',
  {
    start: async (store) => {
      const server = await startApp(store, { operatorKeys: [KEY] });
      const env = await seedEnvironment(store, [checkoutCampaign()]);
      const { access, clientSecret } = await createAccess(store, {
        accountId: env.accountId,
        name: 'automation',
        actions: [
          'campaign.create',
          'campaign.update',
          'campaign.toggle',
          'campaign.delete',
          'environment.panic',
        ],
      });
      const answer = await fetch(`${server.url}/oauth/${env.accountId}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: access.clientId,
          client_secret: clientSecret,
        }),
      });
      const token = ((await answer.json()) as { access_token: string }).access_token;
      const key = new OperatorKeys([KEY]).find(KEY);
      assert.ok(key !== null);
      const fingerprint = await operatorKeyFingerprint(key);
      const operator: Actor = {
        kind: 'operator_key',
        id: fingerprint,
        label: `operator key ${fingerprint}`,
        address: ADDRESS,
      };
      return { store, server, env, operator, token, clientId: access.clientId, clientSecret };
    },
    stop: async ({ server }) => server.close(),
  },
  (_kind, started) => {
    const fixture = (): Fixture => started('store');

    const call = async (method: string, path: string, body?: unknown, bearer = KEY) => {
      const res = await fetch(`${fixture().server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
    };

    /** Runs `change` and answers what it answered and the entries it wrote. */
    const entriesOf = async <T>(change: () => Promise<T>): Promise<{ result: T; entries: AuditEntry[] }> => {
      const { store } = fixture();
      const last = (await store.listAudit({}, { limit: 1 }))[0]?.seq ?? 0;
      const result = await change();
      return { result, entries: await store.listAuditAscending({}, { afterSeq: last, limit: 100 }) };
    };

    /** Asserts one entry of `action` on `subject` by `actor`, and answers it. */
    const oneEntry = (
      entries: AuditEntry[],
      expected: { action: string; subject: [string, string | null]; actor: Actor; accountId?: string | null },
    ): AuditEntry => {
      assert.equal(entries.length, 1, JSON.stringify(entries.map((e) => e.action)));
      const [entry] = entries;
      assert.ok(entry !== undefined);
      assert.equal(entry.action, expected.action);
      assert.deepEqual([entry.subjectKind, entry.subjectId], expected.subject);
      assert.deepEqual(entry.actor, expected.actor);
      assert.equal(
        entry.accountId,
        expected.accountId === undefined ? fixture().env.accountId : expected.accountId,
      );
      return entry;
    };

    void it('logs the operator routes: accounts, environments, key, settings, panic, import, accesses', async () => {
      const { operator, env } = fixture();
      const account = await entriesOf(() => call('POST', '/admin/v1/accounts', { name: 'Audit account' }));
      const accountId = String(account.result.body?.id);
      const made = oneEntry(account.entries, {
        action: 'account.created',
        subject: ['account', accountId],
        actor: operator,
        accountId,
      });
      assert.deepEqual(auditDiff(made.before, made.after), [
        { path: '', before: null, after: { id: accountId, name: 'Audit account' } },
      ]);

      const environment = await entriesOf(() =>
        call('POST', `/admin/v1/accounts/${accountId}/environments`, { name: 'staging' }),
      );
      const envId = String(environment.result.body?.id);
      const createdEnv = oneEntry(environment.entries, {
        action: 'environment.created',
        subject: ['environment', envId],
        actor: operator,
        accountId,
      });
      assert.doesNotMatch(JSON.stringify(createdEnv), new RegExp(String(environment.result.body?.api_key)));

      const rotated = await entriesOf(() => call('POST', `/admin/v1/environments/${envId}/rotate-key`));
      assert.equal(rotated.result.status, 200);
      const rotation = oneEntry(rotated.entries, {
        action: 'environment.api_key_rotated',
        subject: ['environment', envId],
        actor: operator,
        accountId,
      });
      assert.deepEqual(auditDiff(rotation.before, rotation.after), [
        { path: 'apiKey', before: '(set)', after: '(rotated)' },
      ]);
      assert.doesNotMatch(JSON.stringify(rotation), new RegExp(String(rotated.result.body?.api_key)));

      const panic = await entriesOf(() => call('PATCH', `/admin/v1/environments/${envId}`, { panic: true }));
      const panicked = oneEntry(panic.entries, {
        action: 'environment.panic_changed',
        subject: ['environment', envId],
        actor: operator,
        accountId,
      });
      assert.deepEqual(auditDiff(panicked.before, panicked.after), [
        { path: 'panic', before: false, after: true },
      ]);

      const settings = await entriesOf(() =>
        call('PATCH', `/admin/v1/environments/${envId}`, { enabledXPC: true }),
      );
      const changed = oneEntry(settings.entries, {
        action: 'environment.settings_changed',
        subject: ['environment', envId],
        actor: operator,
        accountId,
      });
      assert.deepEqual(auditDiff(changed.before, changed.after), [
        { path: 'accountSettings.enabledXPC', before: false, after: true },
      ]);

      // Panic and a setting in one request: one entry, whose diff holds both.
      const both = await entriesOf(() =>
        call('PATCH', `/admin/v1/environments/${envId}`, { panic: false, enabled1V1T: true }),
      );
      const updated = oneEntry(both.entries, {
        action: 'environment.updated',
        subject: ['environment', envId],
        actor: operator,
        accountId,
      });
      assert.deepEqual(auditDiff(updated.before, updated.after), [
        { path: 'panic', before: true, after: false },
        { path: 'accountSettings.enabled1V1T', before: false, after: true },
      ]);

      const imported = await entriesOf(() =>
        call('PUT', `/admin/v1/environments/${env.envId}/campaigns`, {
          campaigns: [checkoutCampaign(), { ...checkoutCampaign('im-'), name: 'Imported' }],
        }),
      );
      const importEntry = oneEntry(imported.entries, {
        action: 'campaigns.imported',
        subject: ['campaigns', null],
        actor: operator,
      });
      // The new campaign whole; the seeded one gains the bucket ranges an import computes.
      assert.deepEqual(
        auditDiff(importEntry.before, importEntry.after).map((line) => line.path),
        ['c1.body.bucketRanges', '["im-c1"]'],
      );

      const access = await entriesOf(() =>
        call('POST', `/admin/v1/accounts/${accountId}/accesses`, {
          name: 'reader',
          actions: ['campaign.read'],
        }),
      );
      const accessId = String(access.result.body?.id);
      const accessEntry = oneEntry(access.entries, {
        action: 'access.created',
        subject: ['access', accessId],
        actor: operator,
        accountId,
      });
      assert.doesNotMatch(JSON.stringify(accessEntry), new RegExp(String(access.result.body?.client_secret)));
      const revoked = await entriesOf(() => call('POST', `/admin/v1/accesses/${accessId}/revoke`));
      const revocation = oneEntry(revoked.entries, {
        action: 'access.revoked',
        subject: ['access', accessId],
        actor: operator,
        accountId,
      });
      assert.deepEqual(
        auditDiff(revocation.before, revocation.after).map((line) => [line.path, line.before]),
        [['revokedAt', null]],
      );
    });

    void it('logs webhooks: create, redeliver, delete', async () => {
      const { operator, env } = fixture();
      const created = await entriesOf(() =>
        call('POST', `/admin/v1/environments/${env.envId}/webhooks`, {
          url: 'https://hooks.example.com/hook',
        }),
      );
      const webhookId = String(created.result.body?.id);
      const made = oneEntry(created.entries, {
        action: 'webhook.created',
        subject: ['webhook', webhookId],
        actor: operator,
      });
      assert.equal((made.after as { secret: string }).secret, '(set)');
      await call('PATCH', `/admin/v1/environments/${env.envId}`, { panic: false });
      await call('PATCH', `/admin/v1/environments/${env.envId}`, { panic: true });
      const deliveries = await call(
        'GET',
        `/admin/v1/environments/${env.envId}/webhooks/${webhookId}/deliveries`,
      );
      const deliveryId = String((deliveries.body?.items as Array<{ id: string }>)[0]?.id);
      const again = await entriesOf(() =>
        call(
          'POST',
          `/admin/v1/environments/${env.envId}/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`,
        ),
      );
      assert.equal(again.result.status, 200);
      const redelivered = oneEntry(again.entries, {
        action: 'webhook.redelivered',
        subject: ['webhook', webhookId],
        actor: operator,
      });
      assert.equal(redelivered.details?.deliveryId, deliveryId);
      const deleted = await entriesOf(() =>
        call('DELETE', `/admin/v1/environments/${env.envId}/webhooks/${webhookId}`),
      );
      oneEntry(deleted.entries, {
        action: 'webhook.deleted',
        subject: ['webhook', webhookId],
        actor: operator,
      });
    });

    void it('logs campaign changes by the operator key and by a remote control access', async () => {
      const { operator, env, token, clientId } = fixture();
      const remote = `/v1/accounts/${env.accountId}/account_environments/${env.envId}`;
      const access: Actor = { kind: 'access', id: clientId, label: clientId, address: ADDRESS };

      const created = await entriesOf(() => call('POST', `${remote}/campaigns`, banner('Banner'), token));
      assert.equal(created.result.status, 201, JSON.stringify(created.result.body));
      const id = String(created.result.body?.id);
      oneEntry(created.entries, { action: 'campaign.created', subject: ['campaign', id], actor: access });

      const renamed = await entriesOf(() =>
        call('PATCH', `${remote}/campaigns/${id}`, { name: 'Sale banner' }, token),
      );
      const rename = oneEntry(renamed.entries, {
        action: 'campaign.updated',
        subject: ['campaign', id],
        actor: access,
      });
      assert.deepEqual(auditDiff(rename.before, rename.after), [
        { path: 'body.name', before: 'Banner', after: 'Sale banner' },
      ]);

      const moved = await entriesOf(() =>
        call('PATCH', `/admin/v1/environments/${env.envId}/campaigns/${id}`, { position: 0 }),
      );
      const move = oneEntry(moved.entries, {
        action: 'campaign.updated',
        subject: ['campaign', id],
        actor: operator,
      });
      assert.deepEqual(
        auditDiff(move.before, move.after).map((line) => [line.path, line.after]),
        [['position', 0]],
      );

      const paused = await entriesOf(() =>
        call('PATCH', `${remote}/campaigns/${id}/toggle`, { state: 'paused' }, token),
      );
      const pause = oneEntry(paused.entries, {
        action: 'campaign.state_changed',
        subject: ['campaign', id],
        actor: access,
      });
      assert.deepEqual(auditDiff(pause.before, pause.after), [
        { path: 'state', before: 'active', after: 'paused' },
      ]);

      const panic = await entriesOf(() => call('PATCH', `${remote}/panic`, { panic: 'on' }, token));
      assert.ok(panic.result.status < 300, JSON.stringify(panic.result.body));
      if (panic.entries.length > 0)
        oneEntry(panic.entries, {
          action: 'environment.panic_changed',
          subject: ['environment', env.envId],
          actor: access,
        });

      const deleted = await entriesOf(() => call('DELETE', `${remote}/campaigns/${id}`, undefined, token));
      assert.equal(deleted.result.status, 204);
      const deletion = oneEntry(deleted.entries, {
        action: 'campaign.deleted',
        subject: ['campaign', id],
        actor: access,
      });
      assert.equal(deletion.after, null);
    });

    void it('writes nothing for a refused change', async () => {
      const { env, token } = fixture();
      const remote = `/v1/accounts/${env.accountId}/account_environments/${env.envId}`;
      const refused = await entriesOf(async () => [
        (await call('POST', `${remote}/campaigns`, { name: 'No groups' }, token)).status,
        (await call('PATCH', `${remote}/campaigns/nope`, { name: 'x' }, token)).status,
        (await call('POST', '/admin/v1/accounts', { name: '' })).status,
        (await call('POST', `/admin/v1/environments/${env.envId}/webhooks`, { url: 'ftp://x' })).status,
        (await call('POST', '/admin/v1/accounts', { name: 'Not allowed' }, 'a-wrong-key-0123456789')).status,
      ]);
      assert.deepEqual(refused.result, [400, 404, 400, 400, 401]);
      assert.deepEqual(refused.entries, []);
    });

    void it('logs refused sign-ins by address, and the end of every console session', async () => {
      const { server, env, operator, clientId } = fixture();
      const anonymous: Actor = { kind: 'anonymous', id: null, label: 'anonymous', address: ADDRESS };
      const signIn = (body: unknown) =>
        fetch(`${server.url}/admin/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: server.url },
          body: JSON.stringify(body),
        });
      const wrongKey = await entriesOf(() => signIn({ operator_key: 'not-the-key-0123456789' }));
      assert.equal(wrongKey.result.status, 401);
      const keyEntry = oneEntry(wrongKey.entries, {
        action: 'console.sign_in_failed',
        subject: ['session', null],
        actor: anonymous,
        accountId: null,
      });
      assert.deepEqual(keyEntry.details, { method: 'operator_key' });
      assert.doesNotMatch(JSON.stringify(keyEntry), /not-the-key/);

      const badLink = await entriesOf(() => signIn({ sign_in_link: 'fcl_spent-or-made-up' }));
      assert.ok(badLink.result.status >= 400);
      assert.deepEqual(
        oneEntry(badLink.entries, {
          action: 'console.sign_in_failed',
          subject: ['session', null],
          actor: anonymous,
          accountId: null,
        }).details,
        { method: 'sign_in_link' },
      );

      const wrongSecret = await entriesOf(() =>
        fetch(`${server.url}/oauth/${env.accountId}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'client_credentials',
            client_id: clientId,
            client_secret: 'ffs_wrong',
          }),
        }),
      );
      assert.equal(wrongSecret.result.status, 401);
      const tokenEntry = oneEntry(wrongSecret.entries, {
        action: 'oauth.token_refused',
        subject: ['access', null],
        actor: anonymous,
      });
      assert.deepEqual(tokenEntry.details, { clientId });
      assert.doesNotMatch(JSON.stringify(tokenEntry), /ffs_wrong/);

      const ended = await entriesOf(() => call('DELETE', '/admin/v1/console/sessions'));
      assert.equal(ended.result.status, 200);
      oneEntry(ended.entries, {
        action: 'console.sessions_ended',
        subject: ['session', null],
        actor: operator,
        accountId: null,
      });
    });
  },
);
