// The audit log in the store (issue 36) on every store kind: each change records exactly one entry, in its own
// transaction, by the current actor, with the whole subject before and after and no secret; a refused change
// records nothing; a change with no actor is refused whole; entries read back filtered and paged by seq; the
// retention purge deletes what is older and logs itself.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { actingAs, type Actor } from '../../../server/src/audit/actor.js';
import type { AuditEntry } from '../../../server/src/store/audit-store.js';
import type { Store } from '../../../server/src/store/store.js';
import {
  checkoutCampaign,
  describeStoreOnEveryKind,
  premiumToggle,
  TEST_ACTOR,
  unaudited,
} from '../support.js';

const ALICE: Actor = {
  kind: 'operator_key',
  id: 'a1b2c3d4',
  label: 'operator key a1b2c3d4',
  address: '10.0.0.7',
};

/** The entries recorded after `seq`, oldest first. */
const since = async (store: Store, seq: number): Promise<AuditEntry[]> =>
  store.listAuditAscending({}, { afterSeq: seq, limit: 1000 });

const lastSeq = async (store: Store): Promise<number> =>
  (await store.listAudit({}, { limit: 1 }))[0]?.seq ?? 0;

describeStoreOnEveryKind('audit log', (opened) => {
  void it('records one entry per change, by its actor, with the states before and after', async () => {
    const { store, envId, accountId } = opened();
    const start = await lastSeq(store);
    const campaign = checkoutCampaign('au-');
    await actingAs(ALICE, async () => {
      await store.createCampaign(envId, campaign, { description: 'first', state: 'active' });
      await store.updateCampaign(
        envId,
        campaign.id,
        { ...campaign, name: 'Renamed' },
        { description: 'second' },
      );
      await store.setCampaignState(envId, campaign.id, 'paused');
      await store.setCampaignState(envId, campaign.id, 'paused'); // no change: no entry
      await store.setPanic(envId, true);
      await store.setAccountSettings(envId, { enabledXPC: true });
      await store.rotateApiKey(envId);
      await store.deleteCampaign(envId, campaign.id);
      await store.replaceCampaigns(envId, [premiumToggle('au-')]);
    });
    const entries = await since(store, start);
    assert.deepEqual(
      entries.map((e) => [e.action, e.subjectKind, e.subjectId]),
      [
        ['campaign.created', 'campaign', 'au-c1'],
        ['campaign.updated', 'campaign', 'au-c1'],
        ['campaign.state_changed', 'campaign', 'au-c1'],
        ['environment.panic_changed', 'environment', envId],
        ['environment.settings_changed', 'environment', envId],
        ['environment.api_key_rotated', 'environment', envId],
        ['campaign.deleted', 'campaign', 'au-c1'],
        ['campaigns.imported', 'campaigns', null],
      ],
    );
    for (const entry of entries) {
      assert.deepEqual(entry.actor, ALICE);
      assert.equal(entry.accountId, accountId);
      assert.equal(entry.envId, envId);
    }
    const [created, updated, paused, panic, , rotated, deleted, imported] = entries;
    assert.equal(created?.before, null);
    assert.deepEqual(created.after, {
      id: 'au-c1',
      position: 0,
      state: 'active',
      description: 'first',
      body: campaign,
    });
    assert.deepEqual(updated?.before, created.after);
    assert.deepEqual(updated.after, {
      id: 'au-c1',
      position: 0,
      state: 'active',
      description: 'second',
      body: { ...campaign, name: 'Renamed' },
    });
    assert.deepEqual(paused?.after, { ...(updated.after as object), state: 'paused' });
    assert.deepEqual(panic?.before, {
      id: envId,
      name: 'test',
      panic: false,
      accountSettings: { enabledXPC: false, enabled1V1T: false },
      apiKey: '(set)',
    });
    assert.equal((panic.after as { panic: boolean }).panic, true);
    // The key itself never enters the log: a marker says it changed.
    assert.equal((rotated?.before as { apiKey: string }).apiKey, '(set)');
    assert.equal((rotated?.after as { apiKey: string }).apiKey, '(rotated)');
    assert.deepEqual(deleted?.before, paused.after);
    assert.equal(deleted.after, null);
    assert.deepEqual(imported?.before, {});
    assert.deepEqual(Object.keys(imported.after as object), ['au-c2']);
    assert.deepEqual(imported.details, { campaigns: 1 });
  });

  void it('records one entry for a change of panic and settings together, and none for a change to nothing', async () => {
    const { store, envId } = opened();
    await actingAs(ALICE, () =>
      store.updateEnvironment(envId, { panic: false, enabledXPC: false, enabled1V1T: false }),
    );
    const start = await lastSeq(store);
    await actingAs(ALICE, async () => {
      // Panic and a setting in one request: one transaction, one entry with both in its diff.
      await store.updateEnvironment(envId, { panic: true, enabled1V1T: true });
      await store.updateEnvironment(envId, { panic: true, enabled1V1T: true }); // no change: no entry
      await store.updateEnvironment(envId, { enabledXPC: true }); // one concept: its own action
    });
    const entries = await since(store, start);
    assert.deepEqual(
      entries.map((e) => e.action),
      ['environment.updated', 'environment.settings_changed'],
    );
    const [both] = entries;
    assert.deepEqual(
      [both?.before, both?.after].map((state) => {
        const { panic, accountSettings } = state as { panic: boolean; accountSettings: object };
        return { panic, accountSettings };
      }),
      [
        { panic: false, accountSettings: { enabledXPC: false, enabled1V1T: false } },
        { panic: true, accountSettings: { enabledXPC: false, enabled1V1T: true } },
      ],
    );
    // A change of an unknown environment is refused whole.
    await assert.rejects(actingAs(ALICE, () => store.updateEnvironment('no-such-env', { panic: true })));
    assert.equal((await since(store, start)).length, 2);
  });

  void it('records accounts, environments, accesses, webhooks and ended sessions, with secrets as markers', async () => {
    const { store } = opened();
    const start = await lastSeq(store);
    const { account, envId, access, webhookId } = await actingAs(ALICE, async () => {
      const made = await store.createAccount('Audited');
      const { environment } = await store.createEnvironment({ accountId: made.id, name: 'prod' });
      const madeAccess = await store.createAccess({
        accountId: made.id,
        name: 'deploy bot',
        environments: [environment.id],
        actions: ['campaign.read'],
        clientId: 'client-au',
        secretDigest: new Uint8Array(32),
      });
      await store.revokeAccess(madeAccess.id);
      await store.revokeAccess(madeAccess.id); // already revoked: no entry
      const { webhook } = await store.createWebhook(environment.id, {
        url: 'http://127.0.0.1:9/h',
        events: [],
      });
      await store.deleteWebhook(environment.id, webhook.id);
      await store.endAllConsoleSessions();
      return { account: made, envId: environment.id, access: madeAccess, webhookId: webhook.id };
    });
    const entries = await since(store, start);
    assert.deepEqual(
      entries.map((e) => [e.action, e.accountId, e.subjectId]),
      [
        ['account.created', account.id, account.id],
        ['environment.created', account.id, envId],
        ['access.created', account.id, access.id],
        ['access.revoked', account.id, access.id],
        ['webhook.created', account.id, webhookId],
        ['webhook.deleted', account.id, webhookId],
        ['console.sessions_ended', null, null],
      ],
    );
    const text = JSON.stringify(entries);
    assert.doesNotMatch(text, /whsec_/);
    assert.equal((entries[2]?.after as { clientSecret: string }).clientSecret, '(set)');
    assert.equal((entries[3]?.before as { revokedAt: null }).revokedAt, null);
    assert.match((entries[3]?.after as { revokedAt: string }).revokedAt, /^\d{4}-\d\d-\d\dT/);
    assert.equal((entries[4]?.after as { secret: string }).secret, '(set)');
    assert.deepEqual(entries[6]?.details, { ended: 0 });
  });

  void it('records nothing for a refused change', async () => {
    const { store, envId } = opened();
    const campaign = checkoutCampaign('rf-');
    await store.createCampaign(envId, campaign, { description: '', state: 'active' });
    await store.setCampaignState(envId, campaign.id, 'interrupted');
    const start = await lastSeq(store);
    await assert.rejects(store.setCampaignState(envId, campaign.id, 'active'), /final/);
    await assert.rejects(
      store.createCampaign(envId, campaign, { description: '', state: 'active' }),
      /already/,
    );
    await assert.rejects(store.setPanic('no-such-env', true));
    assert.deepEqual(await since(store, start), []);
  });

  void it('refuses a change with no actor, and keeps nothing of it', async () => {
    const { store } = opened();
    await assert.rejects(unaudited(store).createAccount('Nobody made me'), /no actor for the audit log/);
    assert.equal(await store.findAccountByName('Nobody made me'), null);
    await actingAs(TEST_ACTOR, () => unaudited(store).createAccount('Made by the test'));
    assert.notEqual(await store.findAccountByName('Made by the test'), null);
  });

  void it('reads entries filtered, newest first, a page at a time', async () => {
    const { store, envId, accountId } = opened();
    const bob: Actor = { kind: 'access', id: 'client-bob', label: 'client-bob', address: '10.0.0.8' };
    const campaign = checkoutCampaign('pg-');
    await actingAs(bob, async () => {
      await store.createCampaign(envId, campaign, { description: '', state: 'active' });
      for (const name of ['one', 'two', 'three'])
        await store.updateCampaign(envId, campaign.id, { ...campaign, name }, { description: '' });
    });
    const byBob = await store.listAudit(
      { accountId, actorKind: 'access', actorId: 'client-bob' },
      { limit: 3 },
    );
    assert.deepEqual(
      byBob.map((e) => (e.after as { body: { name: string } }).body.name),
      ['three', 'two', 'one'],
    );
    const next = await store.listAudit(
      { accountId, actorKind: 'access', actorId: 'client-bob' },
      { limit: 3, beforeSeq: byBob[2]?.seq ?? 0 },
    );
    assert.deepEqual(
      next.map((e) => e.action),
      ['campaign.created'],
    );
    assert.deepEqual(
      (
        await store.listAudit(
          { subjectKind: 'campaign', subjectId: campaign.id, action: 'campaign.created' },
          { limit: 9 },
        )
      ).map((e) => e.seq),
      [next[0]?.seq],
    );
    const entry = byBob[0];
    assert.ok(entry !== undefined);
    assert.deepEqual(
      await store.listAudit({ fromMs: entry.atMs + 1, accountId, actorId: 'client-bob' }, { limit: 9 }),
      [],
    );
    assert.deepEqual(await store.getAuditEntry(entry.seq), entry);
    assert.equal(await store.getAuditEntry(Number.MAX_SAFE_INTEGER), null);
    assert.deepEqual(await store.listAudit({ accountId: 'no-such-account' }, { limit: 9 }), []);
  });

  void it('keeps an entry written from junk a client sent', async () => {
    const { store, accountId } = opened();
    const junk = 'bad\u0000id\uD800';
    await actingAs({ kind: 'anonymous', id: junk, label: junk, address: '10.0.0.9' }, () =>
      store.recordAuditEvent({
        accountId,
        envId: null,
        subjectKind: 'access',
        subjectId: junk,
        action: 'oauth.token_failed',
        before: null,
        after: null,
        details: { clientId: junk },
      }),
    );
    const [entry] = await store.listAudit({ accountId, action: 'oauth.token_failed' }, { limit: 1 });
    assert.equal(entry?.actor.id, 'bad\uFFFDid\uFFFD');
    assert.deepEqual(entry.details, { clientId: 'bad\uFFFDid\uFFFD' });
  });

  void it('purges entries older than the horizon and logs the purge by its actor', async () => {
    const { store, accountId } = opened();
    const before = await store.listAudit({ accountId }, { limit: 10_000 });
    const horizon = Date.now() + 60_000;
    const purged = await actingAs({ kind: 'system', id: null, label: 'server', address: null }, () =>
      store.purgeAudit(horizon),
    );
    assert.ok(purged >= before.length);
    const left = await store.listAudit({ accountId }, { limit: 10 });
    assert.deepEqual(
      left.map((e) => [e.action, e.actor.label, e.details]),
      [['audit.purged', 'server', { purged: before.length, before: new Date(horizon).toISOString() }]],
    );
    assert.equal(await store.purgeAudit(0), 0);
  });
});
