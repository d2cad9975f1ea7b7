// How the operator routes and the CLI show accounts, environments and accesses (PROTOCOL.md §13.8): the
// same shapes over HTTP and in `feature-server … --json`, never with a secret (API keys and client secrets are
// shown once, when made, by their callers).
import type { AccountSettings } from 'feature-ts/protocol';
import type { AccessRecord } from '../store/access-store.js';
import type { Account, EnvironmentRecord } from '../store/account-store.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** An account as the operator routes show it. */
export const accountAnswer = (account: Account) => ({
  id: account.id,
  name: account.name,
  created_at: iso(account.createdMs),
});

// The return type is written out: inferred, the declaration emit named AccountSettings by a relative path
// into the SDK's build (`../../../dist/lib/…`), which the packed server cannot resolve (arethetypeswrong).
/** An environment as the operator routes show it (never its API key). */
export const environmentAnswer = (
  environment: EnvironmentRecord,
): { id: string; account_id: string; name: string; panic: boolean; settings: AccountSettings } => ({
  id: environment.id,
  account_id: environment.accountId,
  name: environment.name,
  panic: environment.panic,
  settings: environment.accountSettings,
});

/** An access as the operator routes show it (never its secret). */
export const accessAnswer = (access: AccessRecord) => ({
  id: access.id,
  account_id: access.accountId,
  name: access.name,
  environments: access.environments,
  actions: access.actions,
  client_id: access.clientId,
  created_at: iso(access.createdMs),
  revoked_at: iso(access.revokedMs),
});
