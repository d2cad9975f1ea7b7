// `feature-server import FILE --env E` (PROTOCOL.md §13.9): a bucketing-format file (§6) becomes the
// environment's campaigns. One function for the CLI and for tests that seed a server the way an operator does.
import { readFile } from 'node:fs/promises';
import { InputError, unknownEnvironmentInput } from '../errors.js';
import type { Store } from '../store/store.js';
import { validateBucketingCampaigns } from '../validation/bucketing-campaigns.js';

/** Reads a JSON file; the errors say what to change. */
export const readJsonFile = async (path: string): Promise<unknown> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new InputError(`Cannot read ${path}: check the file path.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(
      `${path} is not valid JSON (${error instanceof Error ? error.message : 'unparsable'}).`,
    );
  }
};

/**
 * Replaces the campaigns of `envId` with those of the bucketing-format file at `path`, in the file's order;
 * returns how many. The file is checked before the database is touched.
 */
export const importCampaignsFile = async (store: Store, envId: string, path: string): Promise<number> => {
  const campaigns = validateBucketingCampaigns(await readJsonFile(path));
  if ((await store.getEnvironment(envId)) === null) {
    throw unknownEnvironmentInput(envId);
  }
  return store.replaceCampaigns(envId, campaigns);
};
