// The local operator credential (PROTOCOL.md §13.9): a server on the embedded store holds its data folder, so
// CLI commands cannot open the store while it runs. The server therefore writes, into that folder, its URL
// and a random operator key made for this run (mode 0600: only the folder's owner reads it); a command that
// finds the folder busy goes through the server's operator routes with it. Removed when the server stops.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject } from 'feature-ts/protocol';

/** Where a running server is and the key its operator routes accept. */
export interface LocalOperator {
  url: string;
  key: string;
  pid: number;
}

/** The file's path in a data folder. */
export const localOperatorPath = (dataDir: string): string => join(dataDir, 'operator-credential.json');

/** A new operator key for this run. */
export const newLocalOperatorKey = (): string => `ffo_${randomBytes(32).toString('base64url')}`;

/** Writes the credential (atomically, mode 0600). */
export const writeLocalOperator = (dataDir: string, operator: LocalOperator): void => {
  const path = localOperatorPath(dataDir);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(operator)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
};

/** Reads the credential; null when absent or malformed. */
export const readLocalOperator = (dataDir: string): LocalOperator | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(localOperatorPath(dataDir), 'utf8'));
  } catch {
    return null;
  }
  if (!isJsonObject(parsed)) return null;
  const { url, key, pid } = parsed;
  return typeof url === 'string' && typeof key === 'string' && typeof pid === 'number'
    ? { url, key, pid }
    : null;
};

/** Removes the credential if it is this process's. */
export const removeLocalOperator = (dataDir: string): void => {
  if (readLocalOperator(dataDir)?.pid === process.pid) rmSync(localOperatorPath(dataDir), { force: true });
};
