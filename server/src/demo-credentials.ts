// The demo environment's credentials, kept in a file between runs. API keys are stored in the database only
// as digests, so without this file every `npm start` after the first had to rotate the demo key to show one,
// breaking any page the previous key was pasted into. The file sits in FEATURE_DATA_DIR (also with
// PostgreSQL), readable by its owner only, and is trusted only while its key still matches the stored digest.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isJsonObject } from 'feature-ts/protocol';

/** The demo environment's id and API key. */
export interface DemoCredentials {
  envId: string;
  apiKey: string;
}

/** The file's path in a data folder. */
export const demoCredentialsPath = (dataDir: string): string => join(dataDir, 'demo-credentials.json');

/** Reads the saved credentials; null when the file is missing or not ours. */
export const readDemoCredentials = (path: string): DemoCredentials | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  if (!isJsonObject(parsed)) return null;
  const { envId, apiKey } = parsed;
  return typeof envId === 'string' && typeof apiKey === 'string' ? { envId, apiKey } : null;
};

/**
 * Saves the credentials with mode 0600: written to a temporary file first and renamed over the old one, so a
 * crash mid-write never leaves a truncated key behind.
 */
export const writeDemoCredentials = (path: string, credentials: DemoCredentials): void => {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // The mode of writeFileSync is masked by the umask and ignored for an existing file: set it explicitly.
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
};
