// An account's single sign-on settings over the operator routes (issue 36), against a real OpenID provider:
// saved only when the issuer can be discovered (a 400 naming issuer and what failed otherwise), the client
// secret never answered back and kept when a save leaves it out, bad input refused with a 400 naming the field
// (never a 500).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { auditDiff } from '../../../server/src/audit/audit-diff.js';
import type { Store } from '../../../server/src/store/store.js';
import { startTestProvider, type TestProvider } from '../../support/oidc-provider.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import { seedEnvironment, startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-sso-settings-0123456789';

const call = async (
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> | null; headers: Headers }> => {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>),
  };
};

void describe('single sign-on settings routes', () => {
  let store: Store;
  let app: Running;
  let provider: TestProvider;
  let accountId: string;
  let path: string;
  const settings = () => ({
    name: 'Acme',
    issuer: provider.issuer,
    client_id: provider.client.id,
    client_secret: provider.client.secret,
    group_roles: [{ group: 'feature-admins', role: 'admin' }],
    domain_roles: [{ domain: 'Example.COM', role: 'viewer' }],
  });

  before(async () => {
    store = await openFreshPgliteStore();
    accountId = (await seedEnvironment(store, [])).accountId;
    app = await startApp(store, { operatorKeys: [KEY] });
    provider = await startTestProvider(`${app.url}/admin/sso/callback`);
    path = `${app.url}/admin/v1/accounts/${accountId}/sso`;
  });
  beforeEach(async () => {
    await store.deleteSsoSettings(accountId);
  });
  after(async () => {
    await app.close();
    await provider.close();
    await store.close();
  });

  void it('saves discovered settings, never answers the secret, keeps it when left out, deletes', async () => {
    assert.equal((await call('GET', path)).status, 404);
    const saved = await call('PUT', path, settings());
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.headers.get('cache-control'), 'no-store');
    assert.deepEqual(
      { ...saved.body, created_at: null, updated_at: null },
      {
        account_id: accountId,
        name: 'Acme',
        issuer: provider.issuer,
        client_id: provider.client.id,
        client_secret: '(set)',
        groups_claim: 'groups',
        group_roles: [{ group: 'feature-admins', role: 'admin' }],
        domain_roles: [{ domain: 'example.com', role: 'viewer' }],
        enabled: true,
        redirect_uri: `${app.url}/admin/sso/callback`,
        created_at: null,
        updated_at: null,
      },
    );
    assert.ok(!JSON.stringify(saved.body).includes(provider.client.secret));
    const read = await call('GET', path);
    assert.equal(read.body?.client_secret, '(set)');

    const { client_secret: _secret, ...withoutSecret } = settings();
    const renamed = await call('PUT', path, { ...withoutSecret, name: 'Acme SSO', enabled: false });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal((await store.getSsoSettings(accountId))?.clientSecret, provider.client.secret);
    assert.equal((await store.getSsoSettings(accountId))?.enabled, false);

    assert.equal((await call('DELETE', path)).status, 204);
    assert.equal((await call('DELETE', path)).status, 404);
    assert.equal((await call('GET', path)).status, 404);

    // One audit entry per change (issue 36), by the operator key, with the secret only as a marker.
    const entries = (await store.listAudit({ subjectKind: 'sso' }, { limit: 10 })).reverse();
    assert.deepEqual(
      entries.map((entry) => [entry.action, entry.actor.kind, entry.subjectId, entry.accountId]),
      [
        ['sso.settings_created', 'operator_key', accountId, accountId],
        ['sso.settings_changed', 'operator_key', accountId, accountId],
        ['sso.settings_deleted', 'operator_key', accountId, accountId],
      ],
    );
    assert.deepEqual(auditDiff(entries[1]?.before ?? null, entries[1]?.after ?? null), [
      { path: 'name', before: 'Acme', after: 'Acme SSO' },
      { path: 'enabled', before: true, after: false },
    ]);
    assert.equal(
      entries[0]?.after !== null && (entries[0]?.after as { clientSecret: string }).clientSecret,
      '(set)',
    );
    assert.ok(!JSON.stringify(entries).includes(provider.client.secret));
  });

  void it('refuses an issuer it cannot discover, naming issuer and what failed', async () => {
    const cases: Array<[string, RegExp]> = [
      ['http://127.0.0.1:9/nothing-listens-here', /could not be discovered/],
      [`${provider.issuer}/wrong-path`, /could not be discovered/],
      ['https://id.example.com/realms/acme?x=1', /query/],
      ['http://id.example.com', /https/],
      ['not a url', /absolute https/],
    ];
    for (const [issuer, why] of cases) {
      const answer = await call('PUT', path, { ...settings(), issuer });
      assert.equal(answer.status, 400, `${issuer}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body?.code, 'invalid_body');
      assert.match(String(answer.body.message), /^issuer: /);
      assert.match(String(answer.body.message), why);
    }
    assert.equal(await store.getSsoSettings(accountId), null, 'nothing refused is stored');
  });

  void it('refuses a first save without a secret, and bad fields by their path, never a 500', async () => {
    const { client_secret: _secret, ...withoutSecret } = settings();
    const first = await call('PUT', path, withoutSecret);
    assert.equal(first.status, 400);
    assert.match(String(first.body?.message), /^client_secret: /);
    const bad: Array<[unknown, string]> = [
      [{ ...settings(), name: 'a\u0000b' }, 'name'],
      [{ ...settings(), client_id: 'a\ud800b' }, 'client_id'],
      [{ ...settings(), group_roles: [{ group: 'x', role: 'owner' }] }, 'group_roles[0].role'],
      [
        { ...settings(), domain_roles: [{ domain: 'a@example.com', role: 'viewer' }] },
        'domain_roles[0].domain',
      ],
      [{ ...settings(), groups_claim: 'has space' }, 'groups_claim'],
      [{ ...settings(), enabled: 'yes' }, 'enabled'],
      [{ ...settings(), extra: 1 }, 'extra'],
      [{ ...settings(), issuer: 12 }, 'issuer'],
      [
        { ...settings(), group_roles: Array.from({ length: 101 }, () => ({ group: 'g', role: 'viewer' })) },
        'group_roles',
      ],
    ];
    for (const [body, field] of bad) {
      const answer = await call('PUT', path, body);
      assert.equal(answer.status, 400, `${field}: ${JSON.stringify(answer.body)}`);
      assert.match(JSON.stringify(answer.body), new RegExp(field.replace(/[[\]]/g, '\\$&')), field);
    }
    for (const raw of ['{"name":', '[]', 'null', '{"__proto__":{}}']) {
      const answer = await call('PUT', path, raw);
      assert.equal(answer.status, 400, `${raw}: ${JSON.stringify(answer.body)}`);
    }
    assert.equal((await call('PUT', `${app.url}/admin/v1/accounts/nope/sso`, settings())).status, 404);
    assert.equal((await call('GET', `${app.url}/admin/v1/accounts/%E0%A4%A/sso`)).status, 400);
    assert.equal(await store.getSsoSettings(accountId), null);
  });

  void it('needs the operator key (or a console session)', async () => {
    const anonymous = await fetch(path);
    assert.equal(anonymous.status, 401);
    const wrong = await fetch(path, { headers: { authorization: 'Bearer nope-nope-nope-nope-nope-nope' } });
    assert.equal(wrong.status, 401);
  });
});
