// `feature-server demo`: the seeding of demo-seed.ts (which `start` runs on the store it holds), made of the
// CLI's operations, so that it also works through a running server's operator routes: the demo key is
// shown, or created or rotated and saved, without stopping the server.
import { readDemoCredentials, writeDemoCredentials } from '../demo-credentials.js';
import { DEMO_ACCOUNT, demoCampaigns, type SeededDemo } from '../demo-seed.js';
import type { Operations } from './operations.js';

const save = (file: string, envId: string, apiKey: string): string | null => {
  try {
    writeDemoCredentials(file, { envId, apiKey });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
};

/**
 * Seeds the demo if absent and returns a usable API key: the saved one while it still works, else a rotated
 * one (saved in `credentialsFile`), as seedDemo does.
 */
export const seedDemoWith = async (ops: Operations, credentialsFile: string): Promise<SeededDemo> => {
  const existing = (await ops.listAccounts()).find((account) => account.name === DEMO_ACCOUNT);
  if (existing !== undefined) {
    const [environment] = await ops.listEnvironments(existing.id);
    if (environment !== undefined) {
      const saved = readDemoCredentials(credentialsFile);
      const base = { accountId: existing.id, envId: environment.id };
      if (saved?.envId === environment.id && (await ops.apiKeyMatches(environment.id, saved.apiKey)))
        return { ...base, apiKey: saved.apiKey, keySource: 'saved', saveError: null };
      const apiKey = await ops.rotateApiKey(environment.id);
      return {
        ...base,
        apiKey,
        keySource: 'rotated',
        saveError: save(credentialsFile, environment.id, apiKey),
      };
    }
  }
  const account = existing ?? (await ops.createAccount(DEMO_ACCOUNT));
  const { environment, apiKey } = await ops.createEnvironment({
    accountId: account.id,
    name: 'demo',
    enabledXPC: true,
    enabled1V1T: false,
  });
  await ops.importCampaigns(environment.id, { campaigns: demoCampaigns() });
  return {
    accountId: account.id,
    envId: environment.id,
    apiKey,
    keySource: 'created',
    saveError: save(credentialsFile, environment.id, apiKey),
  };
};
