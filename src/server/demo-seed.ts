// The demo of `npm start` (PROTOCOL.md §13.9 `demo`): an account, an environment and three campaigns,
// created on the first run. API keys are stored only as digests, so on later runs the demo environment's key
// is rotated to be shown again (it is a demo key, used by the demo page only).
import type { BucketingCampaign } from '../protocol/index.js';
import type { Store } from './store/store.js';

/** The demo account's name: how a later run finds it. */
export const DEMO_ACCOUNT = 'Demo shop';

const flag = (
  id: string,
  name: string,
  reference: boolean,
  allocation: number,
  value: Record<string, string | number | boolean | null>,
) => ({
  id,
  name,
  reference,
  allocation,
  modifications: { type: 'FLAG', value },
});

/** The demo campaigns: an A/B test of the buy button, a banner toggle and a premium discount rollout. */
export const demoCampaigns = (): BucketingCampaign[] => [
  {
    id: 'demo-checkout-button',
    name: 'Checkout button',
    type: 'ab',
    slug: 'checkout-button',
    variationGroups: [
      {
        id: 'demo-checkout-everyone',
        name: 'Everyone',
        targeting: {
          targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
        },
        variations: [
          flag('demo-checkout-original', 'Original', true, 50, { btnColor: null, btnText: null }),
          flag('demo-checkout-green', 'Green', false, 50, { btnColor: '#1a7f37', btnText: 'Buy now' }),
        ],
      },
    ],
  },
  {
    id: 'demo-shipping-banner',
    name: 'Free shipping banner',
    type: 'toggle',
    slug: 'shipping-banner',
    variationGroups: [
      {
        id: 'demo-shipping-everyone',
        name: 'Everyone',
        targeting: {
          targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
        },
        variations: [
          flag('demo-shipping-on', 'On', true, 100, {
            showBanner: true,
            bannerText: 'Free shipping over 50 €',
          }),
        ],
      },
    ],
  },
  {
    id: 'demo-premium-discount',
    name: 'Premium discount',
    type: 'deployment',
    slug: 'premium-discount',
    variationGroups: [
      {
        id: 'demo-premium-members',
        name: 'Premium members',
        targeting: {
          targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'plan', value: 'premium' }] }],
        },
        variations: [flag('demo-premium-on', 'Discount', true, 100, { discountPercent: 10 })],
      },
    ],
  },
];

/** Seeds the demo if absent; returns its ids and a usable API key. */
export const seedDemo = async (
  store: Store,
): Promise<{ accountId: string; envId: string; apiKey: string; created: boolean }> => {
  const existing = await store.findAccountByName(DEMO_ACCOUNT);
  if (existing !== null) {
    const [environment] = await store.listEnvironments(existing.id);
    if (environment !== undefined) {
      return {
        accountId: existing.id,
        envId: environment.id,
        apiKey: await store.rotateApiKey(environment.id),
        created: false,
      };
    }
  }
  const account = existing ?? (await store.createAccount(DEMO_ACCOUNT));
  const { environment, apiKey } = await store.createEnvironment({
    accountId: account.id,
    name: 'demo',
    accountSettings: { enabledXPC: true },
  });
  await store.replaceCampaigns(environment.id, demoCampaigns());
  return { accountId: account.id, envId: environment.id, apiKey, created: true };
};
