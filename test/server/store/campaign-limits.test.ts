// Issue 29, finding 1, over HTTP with two accounts at once: a tenant's 10 000-item CONTAINS list and
// decisions built to be as costly as the limits allow, while another account decides; and the limits that
// bound a decision's cost (docs/http-api.md "Limits"), each refused with a 400 that names the field, on every
// route that stores campaigns, on both stores.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  CAMPAIGN_LIMITS,
  CONTEXT_LIMITS,
  type BucketingCampaign,
  type Decision,
} from '../../../src/protocol/index.js';
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

const OPERATOR_KEY = 'operator-key-for-limits-0123456789';

interface Fixture {
  server: Running;
  store: Store;
  /** The tenant that builds the heavy campaign, with a token that may create campaigns. */
  heavy: SeededEnvironment & { token: string };
  /** Another account, deciding at the same time. */
  other: SeededEnvironment;
}

const start = async (store: Store): Promise<Fixture> => {
  const server = await startApp(store, { operatorKeys: [OPERATOR_KEY] });
  const heavy = await seedEnvironment(store, []);
  const other = await seedEnvironment(store, [checkoutCampaign()]);
  const { access, clientSecret } = await createAccess(store, {
    accountId: heavy.accountId,
    name: 'campaigns',
    actions: ['campaign.create', 'campaign.update', 'campaign.read'],
  });
  const token = await post(`${server.url}/oauth/${heavy.accountId}/token`, {
    grant_type: 'client_credentials',
    client_id: access.clientId,
    client_secret: clientSecret,
  });
  return {
    server,
    store,
    heavy: { ...heavy, token: (token.body as { access_token: string }).access_token },
    other,
  };
};

/** A remote control API campaign (§13.5) with one targeting rule on `q`. */
const listCampaign = (operator: string, value: unknown) => ({
  name: 'Heavy',
  type: 'ab',
  variation_groups: [
    {
      name: 'Listed',
      targeting: { targeting_groups: [{ targetings: [{ key: 'q', operator, value }] }] },
      variations: [
        {
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { heavy: 'a' } },
        },
        { name: 'B', allocation: 50, modifications: { type: 'FLAG', value: { heavy: 'b' } } },
      ],
    },
  ],
});

const RULE = 'variation_groups[0].targeting.targeting_groups[0].targetings[0].value';

describeOnEveryStoreWith(
  'decision cost and campaign limits (issue 29)',
  { start, stop: ({ server }) => server.close() },
  (_kind, started) => {
    const fx = (): Fixture => started('fixture');
    const createCampaign = (body: unknown) =>
      post(
        `${fx().server.url}/v1/accounts/${fx().heavy.accountId}/account_environments/${fx().heavy.envId}/campaigns`,
        body,
        { authorization: `Bearer ${fx().heavy.token}` },
      );
    const decide = (env: SeededEnvironment, visitorId: string, context: Record<string, string>) =>
      post(
        `${fx().server.url}/v2/${env.envId}/campaigns`,
        { visitorId, context },
        { 'x-api-key': env.apiKey },
      );

    void it('finding 1: the 10 000-item list is stored; the 31 980-character value is refused naming context.q', async () => {
      const items = Array.from({ length: 10_000 }, (_, i) => `ab${i}x`);
      const created = await createCampaign(listCampaign('CONTAINS', items));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const refused = await decide(fx().heavy, 'v', { q: 'ab'.repeat(15_990) });
      assert.equal(refused.status, 400);
      const message = (refused.body as { message: string }).message;
      assert.match(message, /context\.q/);
      assert.match(message, new RegExp(`${CONTEXT_LIMITS.maxStringValueLength}`));
    });

    void it("the tenant's worst decisions within the limits answer right while another account decides", async () => {
      // The longest value a context may hold, of the list's own alphabet: every position starts a partial match.
      const worst = 'ab'.repeat(CONTEXT_LIMITS.maxStringValueLength / 2);
      const hit = `${worst.slice(0, -7)}ab9999x`;
      const heavyAnswers = Array.from({ length: 12 }, (_, i) =>
        decide(fx().heavy, `heavy-${i}`, { q: i % 3 === 0 ? hit : worst }),
      );
      const otherAnswers = Array.from({ length: 12 }, (_, i) => decide(fx().other, `other-${i}`, {}));
      const [heavy, other] = await Promise.all([Promise.all(heavyAnswers), Promise.all(otherAnswers)]);
      heavy.forEach((answer, i) => {
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const campaigns = (answer.body as Decision).campaigns;
        assert.equal(campaigns.length, i % 3 === 0 ? 1 : 0, `heavy decision ${i}`);
      });
      for (const answer of other) {
        assert.equal(answer.status, 200);
        assert.deepEqual(
          (answer.body as Decision).campaigns.map((c) => c.id),
          ['c1'],
        );
      }
    });

    void it('a context string value of the limit is decided; one character more is refused naming it', async () => {
      const max = 'x'.repeat(CONTEXT_LIMITS.maxStringValueLength);
      assert.equal((await decide(fx().other, 'v', { q: max })).status, 200);
      const over = await decide(fx().other, 'v', { q: `${max}x` });
      assert.equal(over.status, 400);
      assert.match((over.body as { message: string }).message, /context\.q/);
    });

    void it('the remote control API refuses a list of 10 001 items and a target of 1 025 characters, naming the field', async () => {
      const long = await createCampaign(
        listCampaign(
          'EQUALS',
          Array.from({ length: CAMPAIGN_LIMITS.maxListItems + 1 }, (_, i) => `u${i}`),
        ),
      );
      assert.equal(long.status, 400);
      assert.match((long.body as { message: string }).message, new RegExp(RULE.replace(/[[\].]/g, '\\$&')));
      assert.match((long.body as { message: string }).message, /10001 items/);
      const wide = await createCampaign(
        listCampaign('CONTAINS', ['a', 'b', 'y'.repeat(CAMPAIGN_LIMITS.maxTargetLength + 1)]),
      );
      assert.equal(wide.status, 400);
      assert.match((wide.body as { message: string }).message, /targetings\[0\]\.value\[2\]/);
      const single = await createCampaign(
        listCampaign('STARTS_WITH', 'z'.repeat(CAMPAIGN_LIMITS.maxTargetLength + 1)),
      );
      assert.equal(single.status, 400);
      assert.match((single.body as { message: string }).message, /targetings\[0\]\.value\b(?!\[)/);
      const version = await createCampaign(listCampaign('SEMVER_GREATER_THAN', `1.0.0-${'a.'.repeat(62)}a`));
      assert.equal(version.status, 400);
      assert.match(
        (version.body as { message: string }).message,
        /targetings\[0\]\.value: is 131 characters long; a targeting's string value under a SEMVER operator has at most 128/,
      );
      // At the limits exactly, accepted.
      const full = await createCampaign(
        listCampaign('EQUALS', ['w'.repeat(CAMPAIGN_LIMITS.maxTargetLength), 'v']),
      );
      assert.equal(full.status, 201, JSON.stringify(full.body));
    });

    void it('the operator import refuses the same, naming the field in the file', async () => {
      const campaign: BucketingCampaign = {
        ...checkoutCampaign('imp-'),
        variationGroups: checkoutCampaign('imp-').variationGroups.map((g) => ({
          ...g,
          targeting: {
            targetingGroups: [
              {
                targetings: [
                  {
                    key: 'q',
                    operator: 'CONTAINS',
                    value: ['q'.repeat(CAMPAIGN_LIMITS.maxTargetLength + 1)],
                  },
                ],
              },
            ],
          },
        })),
      };
      const res = await fetch(`${fx().server.url}/admin/v1/environments/${fx().heavy.envId}/campaigns`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ campaigns: [campaign] }),
      });
      assert.equal(res.status, 400);
      assert.match(
        ((await res.json()) as { message: string }).message,
        /campaigns\[0\]\.variationGroups\[0\]\.targeting\.targetingGroups\[0\]\.targetings\[0\]\.value\[0\]/,
      );
    });

    void it('the store refuses a campaign past 1 MiB, a 1 001st campaign, 8 MiB of campaigns and 10 001 targetings, on every write', async () => {
      const { store } = fx();
      const env = await seedEnvironment(store, []);
      const sized = (id: string, bytes: number): BucketingCampaign => {
        const base = checkoutCampaign(`${id}-`);
        const fill = 'f'.repeat(Math.max(0, bytes - JSON.stringify({ ...base, id }).length - 40));
        return {
          ...base,
          id,
          variationGroups: base.variationGroups.map((g) => ({
            ...g,
            targeting: { targetingGroups: [{ targetings: [{ key: 'q', operator: 'EQUALS', value: fill }] }] },
          })),
        };
      };
      // The store checks sizes, not targeting texts (the routes do): a filler of any length shows the sum.
      const big = sized('big', CAMPAIGN_LIMITS.maxCampaignBytes + 100);
      await assert.rejects(
        store.createCampaign(env.envId, big, { description: '', state: 'active' }),
        /at most 1024 KiB/,
      );
      await assert.rejects(store.replaceCampaigns(env.envId, [big]), /at most 1024 KiB/);

      // Eight campaigns of 1 000 000 bytes fit; a ninth would pass 8 MiB, by create, update or import.
      const nearly = Array.from({ length: 8 }, (_, i) => sized(`n${i}`, 1_000_000));
      assert.equal(await store.replaceCampaigns(env.envId, nearly), 8);
      await assert.rejects(
        store.createCampaign(env.envId, sized('n8', 1_000_000), { description: '', state: 'active' }),
        /at most 8192 KiB in all/,
      );
      await assert.rejects(
        store.replaceCampaigns(env.envId, [...nearly, sized('n8', 1_000_000)]),
        /8192 KiB/,
      );
      const small = await store.createCampaign(env.envId, sized('n8', 1000), {
        description: '',
        state: 'active',
      });
      await assert.rejects(
        store.updateCampaign(env.envId, small.id, sized('n8', 1_000_000), { description: '' }),
        /8192 KiB in all/,
      );

      // A thousand small campaigns fit; the 1 001st is refused.
      const many = Array.from({ length: CAMPAIGN_LIMITS.maxCampaignsPerEnvironment }, (_, i) =>
        sized(`m${i}`, 0),
      );
      assert.equal(await store.replaceCampaigns(env.envId, many), CAMPAIGN_LIMITS.maxCampaignsPerEnvironment);
      await assert.rejects(
        store.createCampaign(env.envId, sized('m1000', 0), { description: '', state: 'active' }),
        /would hold 1001 campaigns; it holds at most 1000/,
      );
      await assert.rejects(store.replaceCampaigns(env.envId, [...many, sized('m1000', 0)]), /1001 campaigns/);

      // Targetings: 10 campaigns of 1 000 rules fit; one rule more, by any write, is refused.
      const ruled = (id: string, rules: number): BucketingCampaign => ({
        ...sized(id, 0),
        variationGroups: sized(id, 0).variationGroups.map((g) => ({
          ...g,
          targeting: {
            targetingGroups: [
              {
                targetings: Array.from({ length: rules }, (_, i) => ({
                  key: `k${i}`,
                  operator: 'EQUALS',
                  value: ['a', 'b'],
                })),
              },
            ],
          },
        })),
      });
      const tens = Array.from({ length: 10 }, (_, i) => ruled(`t${i}`, 1000));
      assert.equal(await store.replaceCampaigns(env.envId, tens), 10);
      await assert.rejects(
        store.createCampaign(env.envId, ruled('t10', 1), { description: '', state: 'active' }),
        /would hold 10001 targetings; they hold at most 10000/,
      );
      await assert.rejects(store.replaceCampaigns(env.envId, [...tens, ruled('t10', 1)]), /10001 targetings/);
      await assert.rejects(
        store.updateCampaign(env.envId, 't0', ruled('t0', 1001), { description: '' }),
        /10001 targetings/,
      );
      // A list counts once: the same rules with longer lists still fit.
      await store.updateCampaign(env.envId, 't0', ruled('t0', 1000), { description: '' });
    });

    void it('the store refuses more than 100 000 pattern characters, each item counting at least 8', async () => {
      const { store } = fx();
      const env = await seedEnvironment(store, []);
      const scanned = (id: string, operator: string, value: string[]): BucketingCampaign => ({
        ...checkoutCampaign(`${id}-`),
        id,
        variationGroups: checkoutCampaign(`${id}-`).variationGroups.map((g) => ({
          ...g,
          targeting: { targetingGroups: [{ targetings: [{ key: 'q', operator, value }] }] },
        })),
      });
      // 10 000 short items count 80 000; 2 000 more short ones make 96 000; then 5 000 characters are too many.
      const short = Array.from({ length: 10_000 }, (_, i) => `ab${i}x`);
      await store.createCampaign(env.envId, scanned('p0', 'CONTAINS', short), {
        description: '',
        state: 'active',
      });
      await store.createCampaign(env.envId, scanned('p1', 'ENDS_WITH', short.slice(0, 2000)), {
        description: '',
        state: 'active',
      });
      await assert.rejects(
        store.createCampaign(
          env.envId,
          scanned(
            'p2',
            'STARTS_WITH',
            ['s', 't', 'u', 'v', 'w'].map((c) => c.repeat(1000)),
          ),
          {
            description: '',
            state: 'active',
          },
        ),
        /would take 101000 characters \(each counting at least 8\); they take at most 100000 in all/,
      );
      // EQUALS lists do not count: matched by a set, whatever their length.
      await store.createCampaign(env.envId, scanned('p3', 'EQUALS', ['s'.repeat(500), ...short]), {
        description: '',
        state: 'active',
      });
    });
  },
);
