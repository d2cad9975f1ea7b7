// Editing one campaign at a time (PROTOCOL.md §13.5) on every store kind: a new campaign goes last, a move
// keeps the order dense, ids stay unique in the environment (deleted campaigns' included) and slugs among
// live campaigns, a delete leaves a tombstone, a failed edit changes nothing, and every edit is published
// (§2.5: a later configuration time and a notification).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { IdConflictError, InputError } from '../../../server/src/errors.js';
import type { Store } from '../../../server/src/store/store.js';
import type { BucketingCampaign } from '../../../src/protocol/index.js';
import { checkoutCampaign, describeStoreOnEveryKind, premiumToggle } from '../support.js';
import { until } from '../../support/until.js';

/** A one-group campaign whose group and variation ids derive from its id unless given. */
const campaign = (
  id: string,
  options: { slug?: string; groupId?: string; variationIds?: string[] } = {},
): BucketingCampaign => ({
  id,
  name: `Campaign ${id}`,
  type: 'toggle',
  ...(options.slug === undefined ? {} : { slug: options.slug }),
  variationGroups: [
    {
      id: options.groupId ?? `${id}-g`,
      name: 'Everyone',
      targeting: {
        targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
      },
      variations: (options.variationIds ?? [`${id}-v`]).map((variationId, i) => ({
        id: variationId,
        name: variationId,
        reference: i === 0,
        allocation: i === 0 ? 100 : 0,
        modifications: { type: 'FLAG', value: { on: i === 0 } },
      })),
    },
  ],
});

const active = { description: '', state: 'active' } as const;

/** A fresh environment of the seeded account, holding `campaigns` in that order. */
const freshEnv = async (store: Store, accountId: string, campaigns: BucketingCampaign[] = []) => {
  const { environment } = await store.createEnvironment({ accountId, name: 'edits' });
  await store.replaceCampaigns(environment.id, campaigns);
  return environment.id;
};

const order = async (store: Store, envId: string): Promise<Array<[string, number]>> =>
  (await store.listCampaigns(envId)).map((c) => [c.id, c.position]);

const configTime = async (store: Store, envId: string): Promise<number> =>
  (await store.getEnvironment(envId))?.configTime ?? Number.NaN;

/** Passes when `edit` throws IdConflictError whose message names `id`. */
const conflictNaming = (id: string) => (error: unknown) =>
  error instanceof IdConflictError && error.message.includes(`"${id}"`);

describeStoreOnEveryKind('campaign edits', (opened) => {
  void it('creates a campaign after the others, with its options, registering its ids', async () => {
    const { store, accountId } = opened();
    const envId = await freshEnv(store, accountId, [checkoutCampaign(), premiumToggle()]);
    const created = await store.createCampaign(envId, campaign('c3', { slug: 'third' }), {
      description: 'Third one',
      state: 'paused',
    });
    assert.equal(created.position, 2);
    assert.equal(created.state, 'paused');
    assert.equal(created.description, 'Third one');
    assert.equal(created.deletedMs, null);
    assert.deepEqual(created.body, campaign('c3', { slug: 'third' }));
    assert.deepEqual(await store.getCampaign(envId, 'c3'), created);
    assert.deepEqual(await order(store, envId), [
      ['c1', 0],
      ['c2', 1],
      ['c3', 2],
    ]);
    const configuration = await store.loadConfiguration(envId);
    assert.ok(configuration !== null);
    // Paused: left out of decisions, yet its variation is known (activations of it stay valid).
    assert.deepEqual(
      configuration.campaigns.map((c) => c.id),
      ['c1', 'c2'],
    );
    assert.ok(
      configuration.variations.some(
        (v) => v.variationId === 'c3-v' && v.variationGroupId === 'c3-g' && v.campaignId === 'c3',
      ),
    );
  });

  void it('refuses ids and slugs in use, naming them, and stores nothing then', async () => {
    const { store, accountId } = opened();
    const envId = await freshEnv(store, accountId, [checkoutCampaign(), campaign('gone', { slug: 'old' })]);
    assert.equal(await store.deleteCampaign(envId, 'gone'), true);
    const before = await configTime(store, envId);
    const attempts: Array<[BucketingCampaign, string]> = [
      [campaign('c1'), 'c1'], // a live campaign's id
      [campaign('gone'), 'gone'], // a deleted campaign's id
      [campaign('new1', { groupId: 'vg1' }), 'vg1'], // a group of another campaign
      [campaign('new2', { variationIds: ['v2'] }), 'v2'], // a variation of another group
      [campaign('new3', { variationIds: ['gone-v'] }), 'gone-v'], // a deleted campaign's variation
      [campaign('new4', { slug: 'checkout' }), 'checkout'], // a live campaign's slug
    ];
    for (const [body, id] of attempts) {
      await assert.rejects(store.createCampaign(envId, body, active), conflictNaming(id), id);
    }
    await assert.rejects(
      store.createCampaign(envId, campaign('dup', { variationIds: ['dup-v', 'dup-v'] }), active),
      (error: unknown) => error instanceof InputError && error.message.includes('"dup-v"'),
    );
    await assert.rejects(store.createCampaign('no-such-env', campaign('x'), active), InputError);
    assert.deepEqual(await order(store, envId), [['c1', 0]]);
    assert.equal(await configTime(store, envId), before);
    // Nothing of the refused campaigns was registered: their own ids are still free.
    const later = await store.createCampaign(envId, campaign('new1'), active);
    assert.equal(later.position, 1);
    // A deleted campaign's slug is free again.
    assert.equal((await store.createCampaign(envId, campaign('new5', { slug: 'old' }), active)).position, 2);
  });

  void it('replaces body and description, keeps the state and registers new ids', async () => {
    const { store, accountId } = opened();
    const envId = await freshEnv(store, accountId, [campaign('a', { slug: 'a' })]);
    await store.setCampaignState(envId, 'a', 'paused');
    const before = await store.getCampaign(envId, 'a');
    const body = campaign('a', { slug: 'a-renamed', variationIds: ['a-v', 'a-v2'] });
    const updated = await store.updateCampaign(envId, 'a', body, { description: 'now two' });
    assert.equal(updated.state, 'paused');
    assert.equal(updated.description, 'now two');
    assert.deepEqual(updated.body, body);
    assert.equal(updated.createdMs, before?.createdMs);
    assert.ok(updated.updatedMs >= (before?.updatedMs ?? Infinity));
    assert.deepEqual(await store.getCampaign(envId, 'a'), updated);
    const variations = (await store.loadConfiguration(envId))?.variations.map((v) => v.variationId);
    assert.deepEqual(variations?.sort(), ['a-v', 'a-v2']);
    // Its old slug is free for another campaign; its new one is not.
    await store.createCampaign(envId, campaign('b', { slug: 'a' }), active);
    await assert.rejects(
      store.createCampaign(envId, campaign('c', { slug: 'a-renamed' }), active),
      conflictNaming('a-renamed'),
    );
  });

  void it('moves a campaign and keeps the order dense', async () => {
    const { store, accountId } = opened();
    const envId = await freshEnv(
      store,
      accountId,
      ['a', 'b', 'c', 'd'].map((id) => campaign(id)),
    );
    const move = (id: string, position: number) =>
      store.updateCampaign(envId, id, campaign(id), { description: '', position });
    assert.equal((await move('d', 0)).position, 0);
    assert.deepEqual(await order(store, envId), [
      ['d', 0],
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    assert.equal((await move('a', 99)).position, 3);
    assert.deepEqual(await order(store, envId), [
      ['d', 0],
      ['b', 1],
      ['c', 2],
      ['a', 3],
    ]);
    await move('a', 1);
    assert.deepEqual(await order(store, envId), [
      ['d', 0],
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    // Without a position it stays where it is.
    await store.updateCampaign(envId, 'b', campaign('b'), { description: 'x' });
    assert.deepEqual(
      (await order(store, envId)).map(([id]) => id),
      ['d', 'a', 'b', 'c'],
    );
    await assert.rejects(move('b', -1), InputError);
  });

  void it('refuses conflicting, unknown and deleted campaigns on update', async () => {
    const { store, accountId } = opened();
    const envId = await freshEnv(store, accountId, [checkoutCampaign(), campaign('x', { slug: 'x' })]);
    await store.createCampaign(envId, campaign('gone'), active);
    await store.deleteCampaign(envId, 'gone');
    const before = await store.getCampaign(envId, 'x');
    const update = (body: BucketingCampaign) => store.updateCampaign(envId, 'x', body, { description: '' });
    await assert.rejects(update(campaign('x', { slug: 'checkout' })), conflictNaming('checkout'));
    await assert.rejects(update(campaign('x', { groupId: 'vg1' })), conflictNaming('vg1'));
    await assert.rejects(update(campaign('x', { variationIds: ['x-v', 'v1'] })), conflictNaming('v1'));
    await assert.rejects(update(campaign('x', { variationIds: ['gone-v'] })), conflictNaming('gone-v'));
    assert.deepEqual(await store.getCampaign(envId, 'x'), before);

    const naming = (id: string) => (error: unknown) =>
      error instanceof InputError && error.message.includes(`"${id}"`);
    await assert.rejects(
      store.updateCampaign(envId, 'nope', campaign('nope'), { description: '' }),
      naming('nope'),
    );
    await assert.rejects(
      store.updateCampaign(envId, 'gone', campaign('gone'), { description: '' }),
      naming('gone'),
    );
    // The body's id must be the campaign's: ids key histories and reports.
    await assert.rejects(update(campaign('y')), InputError);
  });

  void it('deletes as a tombstone, closes the gap and appends after the rest', async () => {
    const { store, accountId } = opened();
    const envId = await freshEnv(
      store,
      accountId,
      ['a', 'b', 'c'].map((id) => campaign(id, { slug: id })),
    );
    assert.equal(await store.deleteCampaign(envId, 'b'), true);
    assert.equal(await store.getCampaign(envId, 'b'), null);
    assert.deepEqual(await order(store, envId), [
      ['a', 0],
      ['c', 1],
    ]);
    const all = await store.listCampaigns(envId, { includeDeleted: true });
    const tombstone = all.find((c) => c.id === 'b');
    assert.ok(tombstone?.deletedMs !== null && tombstone?.deletedMs !== undefined);
    assert.deepEqual(tombstone.body, campaign('b', { slug: 'b' }));
    assert.equal(await store.deleteCampaign(envId, 'b'), false);
    assert.equal(await store.deleteCampaign(envId, 'never'), false);
    assert.equal(await store.deleteCampaign('no-such-env', 'a'), false);
    assert.equal((await store.createCampaign(envId, campaign('d'), active)).position, 2);
    // Its variation still belongs to it, for activations sent before the delete.
    assert.ok(
      (await store.loadConfiguration(envId))?.variations.some(
        (v) => v.variationId === 'b-v' && v.campaignId === 'b',
      ),
    );
  });

  void it('publishes every edit: a later configuration time and a notification', async () => {
    const { store, accountId } = opened();
    const envId = await freshEnv(store, accountId, [campaign('a')]);
    const heard: string[] = [];
    const stop = await store.onConfigurationChange((changed) => heard.push(changed));
    try {
      const edits: Array<() => Promise<unknown>> = [
        () => store.createCampaign(envId, campaign('b'), active),
        () => store.updateCampaign(envId, 'b', campaign('b'), { description: 'd', position: 0 }),
        () => store.deleteCampaign(envId, 'a'),
      ];
      for (const edit of edits) {
        const before = await configTime(store, envId);
        const count = heard.filter((id) => id === envId).length;
        await edit();
        assert.ok((await configTime(store, envId)) > before);
        await until(() => heard.filter((id) => id === envId).length > count, {
          what: 'a notification for the edit',
        });
      }
    } finally {
      await stop();
    }
  });

  void it('gives concurrent creates distinct positions', async () => {
    const { store, accountId } = opened();
    const envId = await freshEnv(store, accountId);
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4'];
    await Promise.all(ids.map((id) => store.createCampaign(envId, campaign(id), active)));
    const positions = (await order(store, envId)).map(([, position]) => position);
    assert.deepEqual(positions, [0, 1, 2, 3, 4]);
  });
});
