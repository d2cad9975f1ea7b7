// The demo of `npm start` (PROTOCOL.md §13.9 `demo`): an account, an environment and three campaigns,
// created on the first run. API keys are stored only as digests, so the demo key is kept in a credentials
// file (demo-credentials.ts) and shown again from there; it is rotated only when that file is gone or stale.
import type { BucketingCampaign } from 'feature-ts/protocol';
import { readDemoCredentials, writeDemoCredentials } from './demo-credentials.js';
import { secretMatches } from './ids.js';
import type { AccountStore } from './store/account-store.js';
import type { CampaignStore } from './store/campaign-store.js';

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
          // Both arms set their values, so the reference arm is visible as itself, not as whatever default a page has.
          flag('demo-checkout-original', 'Original', true, 50, {
            btnColor: '#57606a',
            btnText: 'Add to cart',
          }),
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

/** Where the demo's API key shown by this run comes from. */
export type DemoKeySource = 'created' | 'saved' | 'rotated';

/** The seeded demo. */
export interface SeededDemo {
  accountId: string;
  envId: string;
  apiKey: string;
  /** `created` on the first run; `saved` when read back from the credentials file; `rotated` otherwise. */
  keySource: DemoKeySource;
  /** Why the credentials file could not be written (the key still works for this run), else null. */
  saveError: string | null;
}

const save = (file: string, envId: string, apiKey: string): string | null => {
  try {
    writeDemoCredentials(file, { envId, apiKey });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
};

/**
 * Seeds the demo if absent and returns its ids and a usable API key, kept in `credentialsFile` across runs:
 * the saved key is used while it still matches the environment's stored digest; a missing, unreadable or
 * stale file makes this run rotate the key (the old one stops working) and save the new one.
 */
export const seedDemo = async (
  store: AccountStore & CampaignStore,
  credentialsFile: string,
): Promise<SeededDemo> => {
  const existing = await store.findAccountByName(DEMO_ACCOUNT);
  if (existing !== null) {
    const [environment] = await store.listEnvironments(existing.id);
    if (environment !== undefined) {
      const saved = readDemoCredentials(credentialsFile);
      if (
        saved !== null &&
        saved.envId === environment.id &&
        secretMatches(saved.apiKey, environment.apiKeyDigest)
      ) {
        return {
          accountId: existing.id,
          envId: environment.id,
          apiKey: saved.apiKey,
          keySource: 'saved',
          saveError: null,
        };
      }
      const apiKey = await store.rotateApiKey(environment.id);
      return {
        accountId: existing.id,
        envId: environment.id,
        apiKey,
        keySource: 'rotated',
        saveError: save(credentialsFile, environment.id, apiKey),
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
  return {
    accountId: account.id,
    envId: environment.id,
    apiKey,
    keySource: 'created',
    saveError: save(credentialsFile, environment.id, apiKey),
  };
};
