// The audit routes (issue 36), on every store kind: an account's log filtered and paged newest first with
// each entry's diff, its JSON-lines export oldest first, one campaign's history (imports narrowed to it), and
// restore, which puts back exactly what the remote control API answered after that change, as a new entry.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createAccess } from '../../../server/src/auth/create-access.js';
import type { AuditAnswer } from '../../../server/src/services/audit-answers.js';
import {
  checkoutCampaign,
  describeOnEveryStoreWith,
  seedEnvironment,
  startApp,
  type Running,
  type SeededEnvironment,
} from '../support.js';

const KEY = 'operator-key-for-the-audit-route-tests-0123';

interface Fixture {
  server: Running;
  env: SeededEnvironment;
  token: string;
}

interface Page {
  items: AuditAnswer[];
  next_before_seq: number | null;
}

const banner = (name: string) => ({
  name,
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
});

describeOnEveryStoreWith<Fixture>(
  'audit routes',
  {
    start: async (store) => {
      const server = await startApp(store, { operatorKeys: [KEY] });
      const env = await seedEnvironment(store, [checkoutCampaign()]);
      const { access, clientSecret } = await createAccess(store, {
        accountId: env.accountId,
        name: 'automation',
        actions: [
          'campaign.create',
          'campaign.read',
          'campaign.update',
          'campaign.toggle',
          'campaign.delete',
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
      return { server, env, token };
    },
    stop: async ({ server }) => server.close(),
  },
  (_kind, started) => {
    const fixture = (): Fixture => started('server');
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
      const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
      return {
        status: res.status,
        headers: res.headers,
        text,
        body: json ? (JSON.parse(text) as unknown) : null,
      };
    };
    const remote = () =>
      `/v1/accounts/${fixture().env.accountId}/account_environments/${fixture().env.envId}`;
    const history = (id: string, query = '') =>
      call('GET', `/admin/v1/environments/${fixture().env.envId}/campaigns/${id}/history${query}`);

    void it('restores a campaign exactly as the API answered it after an entry, as a new entry', async () => {
      const { env, token } = fixture();
      const created = await call('POST', `${remote()}/campaigns`, banner('Banner'), token);
      assert.equal(created.status, 201, created.text);
      const id = (created.body as { id: string }).id;
      await call(
        'PATCH',
        `${remote()}/campaigns/${id}`,
        { name: 'Sale banner', description: 'winter' },
        token,
      );
      const wanted = (await call('GET', `${remote()}/campaigns/${id}`, undefined, token)).body as Record<
        string,
        unknown
      >;
      await call(
        'PATCH',
        `${remote()}/campaigns/${id}`,
        { name: 'Summer banner', description: 'summer' },
        token,
      );
      await call('PATCH', `${remote()}/campaigns/${id}/toggle`, { state: 'paused' }, token);

      const listed = await history(id);
      assert.equal(listed.status, 200, listed.text);
      const page = listed.body as Page;
      assert.deepEqual(
        page.items.map((entry) => entry.action),
        ['campaign.state_changed', 'campaign.updated', 'campaign.updated', 'campaign.created'],
      );
      const afterRename = page.items[2];
      assert.ok(afterRename !== undefined);
      const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
      assert.deepEqual(afterRename.diff.sort(byPath), [
        { path: 'body.name', before: 'Banner', after: 'Sale banner' },
        { path: 'description', before: '', after: 'winter' },
      ]);
      assert.equal(afterRename.actor.kind, 'access');
      assert.equal(afterRename.actor.address, '127.0.0.1');

      const restored = await call(
        'POST',
        `/admin/v1/environments/${env.envId}/campaigns/${id}/history/${afterRename.seq}/restore`,
      );
      assert.equal(restored.status, 200, restored.text);
      const now = (await call('GET', `${remote()}/campaigns/${id}`, undefined, token)).body as Record<
        string,
        unknown
      >;
      const { updated_at: _wantedAt, ...wantedRest } = wanted;
      const { updated_at: _nowAt, ...nowRest } = now;
      assert.deepEqual(nowRest, wantedRest);
      const { updated_at: _restoredAt, ...restoredRest } = restored.body as Record<string, unknown>;
      assert.deepEqual(restoredRest, wantedRest);

      const [latest] = ((await history(id)).body as Page).items;
      assert.equal(latest?.action, 'campaign.restored');
      assert.deepEqual(latest.details, { restoredFrom: afterRename.seq });
      assert.equal(latest.actor.kind, 'operator_key');
      assert.deepEqual(latest.diff.map((line) => line.path).sort(), ['body.name', 'description', 'state']);
    });

    void it('narrows an import to the campaign, and refuses to restore what cannot be', async () => {
      const { env } = fixture();
      const imported = await call('PUT', `/admin/v1/environments/${env.envId}/campaigns`, {
        campaigns: [{ ...checkoutCampaign(), name: 'Checkout (imported)' }],
      });
      assert.equal(imported.status, 200, imported.text);
      const [entry] = ((await history('c1')).body as Page).items;
      assert.equal(entry?.action, 'campaigns.imported');
      assert.deepEqual(entry.subject, { kind: 'campaign', id: 'c1' });
      assert.ok(entry.diff.some((line) => line.path === 'body.name' && line.after === 'Checkout (imported)'));

      const base = `/admin/v1/environments/${env.envId}/campaigns`;
      const unknownSeq = await call('POST', `${base}/c1/history/999999999999999/restore`);
      assert.equal(unknownSeq.status, 404, unknownSeq.text);
      const otherCampaign = await call('POST', `${base}/other/history/${entry.seq}/restore`);
      assert.equal(otherCampaign.status, 404, otherCampaign.text);
      assert.equal((await call('POST', `${base}/c1/history/0/restore`)).status, 400);
      assert.equal((await call('POST', `${base}/c1/history/1e400/restore`)).status, 400);
      assert.equal((await call('GET', '/admin/v1/environments/nope/campaigns/c1/history')).status, 404);

      // Deleted: its id stays taken, so no restore brings it back.
      const deleted = await call('DELETE', `${base}/c1`);
      assert.equal(deleted.status, 204);
      const [deletion] = ((await history('c1')).body as Page).items;
      assert.equal(deletion?.action, 'campaign.deleted');
      const refused = await call('POST', `${base}/c1/history/${deletion.seq}/restore`);
      assert.equal(refused.status, 409);
      assert.match((refused.body as { message: string }).message, /restore from an entry before it/);
      const again = await call('POST', `${base}/c1/history/${entry.seq}/restore`);
      assert.equal(again.status, 409);
      assert.match((again.body as { message: string }).message, /is deleted/);
    });

    void it("reads an account's log filtered and paged, and exports it as JSON lines", async () => {
      const { env } = fixture();
      const path = `/admin/v1/accounts/${env.accountId}/audit`;
      const all: AuditAnswer[] = [];
      let query = '?limit=2';
      for (;;) {
        const got = await call('GET', `${path}${query}`);
        assert.equal(got.status, 200, got.text);
        assert.equal(got.headers.get('cache-control'), 'no-store');
        const page = got.body as Page;
        all.push(...page.items);
        if (page.next_before_seq === null) break;
        query = `?limit=2&before_seq=${page.next_before_seq}`;
      }
      const seqs = all.map((entry) => entry.seq);
      assert.deepEqual(
        seqs,
        [...seqs].sort((a, b) => b - a),
      );
      assert.equal(new Set(seqs).size, seqs.length);
      assert.ok(all.every((entry) => entry.account_id === env.accountId));

      const byAccess = (
        await call('GET', `${path}?actor_kind=access&subject_kind=campaign&action=campaign.updated`)
      ).body as Page;
      assert.ok(byAccess.items.length >= 2);
      assert.ok(byAccess.items.every((e) => e.actor.kind === 'access' && e.action === 'campaign.updated'));
      const later = (
        await call('GET', `${path}?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)
      ).body as Page;
      assert.deepEqual(later.items, []);
      const earlier = (await call('GET', `${path}?to=2000-01-01`)).body as Page;
      assert.deepEqual(earlier.items, []);

      const exported = await call('GET', `${path}/export`);
      assert.equal(exported.status, 200);
      assert.match(exported.headers.get('content-type') ?? '', /^application\/x-ndjson/);
      const lines = exported.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as AuditAnswer);
      assert.deepEqual(lines, [...all].reverse());
      // The server's whole log holds the account's entries, and those of no account.
      await fetch(`${fixture().server.url}/admin/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: fixture().server.url },
        body: JSON.stringify({ operator_key: 'not-the-operator-key-0123456789' }),
      });
      const whole = (await call('GET', '/admin/v1/audit?limit=200')).body as Page;
      const [newest] = whole.items;
      assert.ok(newest !== undefined);
      assert.deepEqual([newest.action, newest.account_id], ['console.sign_in_failed', null]);
      const ofAccount = new Set(all.map((entry) => entry.seq));
      assert.equal(whole.items.filter((entry) => ofAccount.has(entry.seq)).length, all.length);
      const onlyCreated = await call('GET', `${path}/export?action=account.created`);
      assert.equal(onlyCreated.text.trimEnd().split('\n').length, 1);
    });

    void it("exports with the console's session cookie alone, as the Audit log's Export link asks", async () => {
      const { server, env } = fixture();
      const signIn = await fetch(`${server.url}/admin/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operator_key: KEY }),
      });
      assert.equal(signIn.status, 200);
      const cookie = /^(feature_console=[^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1] ?? '';
      assert.notEqual(cookie, '');
      const path = `${server.url}/admin/v1/accounts/${env.accountId}/audit/export?action=account.created`;
      // A link's GET sends the cookie and nothing else: no Authorization, no CSRF token.
      const exported = await fetch(path, { headers: { cookie } });
      assert.equal(exported.status, 200);
      assert.match(exported.headers.get('content-type') ?? '', /^application\/x-ndjson/);
      const lines = (await exported.text()).trimEnd().split('\n');
      assert.equal((JSON.parse(lines[0] ?? '') as { action: string }).action, 'account.created');
      assert.equal((await fetch(path)).status, 401);
    });

    void it('refuses bad queries with a 400 naming the parameter, and unknown accounts with a 404', async () => {
      const { env } = fixture();
      const path = `/admin/v1/accounts/${env.accountId}/audit`;
      for (const [query, field] of [
        ['?from=yesterday', 'from'],
        ['?to=2026-13-45T99:00:00Z', 'to'],
        ['?limit=0', 'limit'],
        ['?limit=99999999999999999999999', 'limit'],
        ['?before_seq=-1', 'before_seq'],
        ['?actor_kind=robot', 'actor_kind'],
        ['?action=DROP%20TABLE', 'action'],
        ['?actor_id=%00', 'actor_id'],
      ]) {
        const got = await call('GET', `${path}${query}`);
        assert.ok(got.status === 400, `${query}: ${got.status} ${got.text}`);
        if (field !== 'env_id') assert.match(got.text, new RegExp(field ?? ''), query);
      }
      assert.equal((await call('GET', `${path}/export?from=nope`)).status, 400);
      // Bad percent-encoding is read as what it decodes to: no match, never a 500.
      assert.equal((await call('GET', `${path}?env_id=%E0%A4%A`)).status, 200);
      assert.equal((await call('GET', '/admin/v1/accounts/nope/audit')).status, 404);
      assert.equal((await call('GET', '/admin/v1/audit?from=nope')).status, 400);
      assert.equal((await call('GET', '/admin/v1/accounts/nope/audit/export')).status, 404);
      assert.equal((await call('GET', path, undefined, 'wrong-key-0123456789')).status, 401);
    });
  },
);
