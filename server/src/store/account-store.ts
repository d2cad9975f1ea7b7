// Accounts and their environments (PROTOCOL.md §13.1): what the operator routes, the CLI and the demo seed
// create and list, and what a request's API key is checked against. Publishing a change to the environment's
// decisions is the store's job (environments-sql.ts): callers only call these.
import type { AccountSettings } from 'feature-ts/protocol';

/** An account (PROTOCOL.md §13.1). */
export interface Account {
  id: string;
  name: string;
  createdMs: number;
}

/** An environment as stored: the API key only as its SHA-256 digest. */
export interface EnvironmentRecord {
  id: string;
  accountId: string;
  name: string;
  apiKeyDigest: Uint8Array;
  panic: boolean;
  accountSettings: AccountSettings;
  /** Configuration time in whole epoch seconds: the Last-Modified of §2.5. */
  configTime: number;
}

/** The store's accounts and environments. */
/** What one change of an environment may set; an absent field stays as it is. */
export interface EnvironmentChange extends Partial<AccountSettings> {
  readonly panic?: boolean;
}

export interface AccountStore {
  createAccount(name: string): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  /** Every account, oldest first. */
  listAccounts(): Promise<Account[]>;
  findAccountByName(name: string): Promise<Account | null>;
  /** Creates an environment; the API key is returned here once and only its digest is kept. */
  createEnvironment(input: {
    accountId: string;
    name: string;
    accountSettings?: Partial<AccountSettings>;
  }): Promise<{ environment: EnvironmentRecord; apiKey: string }>;
  getEnvironment(id: string): Promise<EnvironmentRecord | null>;
  listEnvironments(accountId: string): Promise<EnvironmentRecord[]>;
  /** Replaces the API key at once (the old one stops working); returns the new key. */
  rotateApiKey(envId: string): Promise<string>;
  setPanic(envId: string, panic: boolean): Promise<void>;
  setAccountSettings(envId: string, settings: Partial<AccountSettings>): Promise<void>;
  /**
   * Changes an environment's panic and settings in one transaction: one audit entry for the request
   * (`environment.panic_changed`, `environment.settings_changed`, or `environment.updated` when both change),
   * and each concept's webhook event. What is absent stays; a change to nothing records nothing.
   */
  updateEnvironment(envId: string, change: EnvironmentChange): Promise<void>;
}
