// The CLI's operations on a store it opened itself: PostgreSQL (side by side with servers), or the embedded
// folder when no server holds it. The answers are built by the operator routes' own functions, so a command
// prints the same objects as when it goes through a running server (operator-client.ts).
import type { CampaignState, RemoteCampaign } from 'feature-ts/protocol';
import { AccessInputError, createAccess } from '../auth/create-access.js';
import { secretMatches } from '../ids.js';
import { campaignFromRemote, toRemoteCampaign } from '../remote/campaign-format.js';
import { campaignCompatibility } from '../remote/compatibility.js';
import { buildCampaignReport } from '../report/build-report.js';
import { rebuildRollups } from '../report/rollups/fold-all.js';
import { accessAnswer, accountAnswer, environmentAnswer } from '../services/operator-answers.js';
import type { EnvironmentRecord } from '../store/account-store.js';
import type { CampaignRecord } from '../store/campaign-store.js';
import type { Store } from '../store/store.js';
import { FieldError, validateBucketingCampaigns } from '../validation/bucketing-campaigns.js';
import {
  invalidCampaignField,
  unknownAccess,
  unknownAccount,
  unknownCampaign,
  unknownEnvironment,
} from './cli-error.js';
import type { Operations, StoreUsed } from './operations.js';
import { storeUserOperations } from './user-operations.js';

/** Operations on `store`; `close` closes it. */
export const storeOperations = (store: Store, used: StoreUsed): Operations => {
  const environment = async (envId: string): Promise<EnvironmentRecord> => {
    const found = await store.getEnvironment(envId);
    if (found === null) throw unknownEnvironment(envId);
    return found;
  };
  const account = async (accountId: string): Promise<void> => {
    if ((await store.getAccount(accountId)) === null) throw unknownAccount(accountId);
  };
  const campaign = async (envId: string, campaignId: string): Promise<CampaignRecord> => {
    const found = await store.getCampaign(envId, campaignId);
    if (found === null) throw unknownCampaign(envId, campaignId);
    return found;
  };
  /**
   * Campaigns as the remote control routes answer them (plugins/campaigns.ts), so that a command prints the
   * same object on the store as through a server: with what the platform's own SDKs would evaluate
   * differently in each, in the environment as it is (its campaigns in order, its account settings).
   */
  const answered = async (
    env: EnvironmentRecord,
    shown: readonly CampaignRecord[],
    all?: readonly CampaignRecord[],
  ): Promise<RemoteCampaign[]> => {
    const campaigns = (all ?? (await store.listCampaigns(env.id))).map((c) => c.body);
    const { accountSettings } = env;
    return shown.map((record) => ({
      ...toRemoteCampaign(record),
      compatibility: campaignCompatibility(record.body, { campaigns, paths: 'remote', accountSettings }).map(
        ({ code, modes, path, message }) => ({ code, modes: [...modes], path, message }),
      ),
    }));
  };
  const answeredOne = async (env: EnvironmentRecord, record: CampaignRecord): Promise<RemoteCampaign> => {
    const [answer] = await answered(env, [record]);
    if (answer === undefined) throw new Error(`campaign ${record.id} not answered`);
    return answer;
  };
  /** A body of the remote control API read as its routes read it (remote.ts), refusals named by field. */
  const parse = (body: unknown, existing?: CampaignRecord) => {
    try {
      return campaignFromRemote(body, existing);
    } catch (error) {
      if (error instanceof FieldError) throw invalidCampaignField(error.path, error.reason);
      throw error;
    }
  };

  return {
    ...storeUserOperations(store),
    used,
    listAccounts: async () => (await store.listAccounts()).map(accountAnswer),
    createAccount: async (name) => accountAnswer(await store.createAccount(name)),
    listEnvironments: async (accountId) => {
      await account(accountId);
      return (await store.listEnvironments(accountId)).map(environmentAnswer);
    },
    createEnvironment: async ({ accountId, name, enabledXPC, enabled1V1T }) => {
      await account(accountId);
      const created = await store.createEnvironment({
        accountId,
        name,
        accountSettings: { enabledXPC, enabled1V1T },
      });
      return { environment: environmentAnswer(created.environment), apiKey: created.apiKey };
    },
    rotateApiKey: async (envId) => store.rotateApiKey((await environment(envId)).id),
    setPanic: async (envId, panic) => {
      await store.setPanic((await environment(envId)).id, panic);
      return environmentAnswer(await environment(envId));
    },
    importCampaigns: async (envId, file) => {
      const campaigns = validateBucketingCampaigns(file);
      return store.replaceCampaigns((await environment(envId)).id, campaigns);
    },
    reports: async (envId, wanted) => {
      const found = await environment(envId);
      const all = await store.listCampaigns(found.id, { includeDeleted: true });
      const chosen =
        wanted === undefined ? all : all.filter((c) => c.id === wanted || c.body.slug === wanted);
      if (wanted !== undefined && chosen.length === 0) throw unknownCampaign(envId, wanted);
      const now = new Date();
      return Promise.all(chosen.map((c) => buildCampaignReport(store, found.id, c.id, now)));
    },
    rebuildReports: (onProgress) => rebuildRollups(store, { onProgress }),
    createAccess: async (input) => {
      try {
        const { access, clientSecret } = await createAccess(store, input);
        return { access: accessAnswer(access), clientSecret };
      } catch (error) {
        if (error instanceof AccessInputError && error.field === 'account')
          throw unknownAccount(input.accountId);
        throw error;
      }
    },
    listAccesses: async (accountId) => {
      await account(accountId);
      return (await store.listAccesses(accountId)).map(accessAnswer);
    },
    getAccess: async (accessId) => {
      const found = await store.getAccess(accessId);
      if (found === null) throw unknownAccess(accessId);
      return accessAnswer(found);
    },
    revokeAccess: async (accessId) => {
      const revoked = await store.revokeAccess(accessId);
      if (revoked === null) throw unknownAccess(accessId);
      return accessAnswer(revoked);
    },
    listCampaigns: async (envId) => {
      const found = await environment(envId);
      const campaigns = await store.listCampaigns(found.id);
      return answered(found, campaigns, campaigns);
    },
    getCampaign: async (envId, wanted) => {
      const found = await environment(envId);
      const byId = await store.getCampaign(found.id, wanted);
      const bySlug = byId ?? (await store.listCampaigns(found.id)).find((c) => c.body.slug === wanted);
      if (bySlug === undefined) throw unknownCampaign(envId, wanted);
      return answeredOne(found, bySlug);
    },
    createCampaign: async (envId, body) => {
      const found = await environment(envId);
      const parsed = parse(body);
      const created = await store.createCampaign(found.id, parsed.campaign, {
        description: parsed.description,
        state: parsed.state ?? 'active',
      });
      return answeredOne(found, created);
    },
    updateCampaign: async (envId, campaignId, body) => {
      const found = await environment(envId);
      const existing = await campaign(found.id, campaignId);
      // campaignFromRemote refuses a state change: as on the API, that is the toggle's (its own action).
      const parsed = parse(body, existing);
      const updated = await store.updateCampaign(found.id, existing.id, parsed.campaign, {
        description: parsed.description,
        ...(parsed.position === undefined ? {} : { position: parsed.position }),
      });
      return answeredOne(found, updated);
    },
    // The store refuses to leave `interrupted` in the same statement (IdConflictError: a `conflict`).
    toggleCampaign: async (envId, campaignId, state: CampaignState) => {
      const found = await environment(envId);
      const existing = await campaign(found.id, campaignId);
      await store.setCampaignState(found.id, existing.id, state);
      return answeredOne(found, await campaign(found.id, existing.id));
    },
    deleteCampaign: async (envId, campaignId) => {
      const found = await environment(envId);
      if (!(await store.deleteCampaign(found.id, campaignId))) throw unknownCampaign(envId, campaignId);
    },
    apiKeyMatches: async (envId, apiKey) => secretMatches(apiKey, (await environment(envId)).apiKeyDigest),
    // Sessions are rows of the store: every server reads them at each call, so they end everywhere at once.
    endConsoleSessions: () => store.endAllConsoleSessions(),
    close: () => store.close(),
  };
};
