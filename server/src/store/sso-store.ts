// Single sign-on as stored (issue 36): each account's OpenID provider settings, and the sign-ins started at a
// provider (state, nonce and PKCE verifier, server-side) until the browser comes back once, and who signed in
// (a person's issuer and subject, linked to their user).
import type { Role, UserRecord } from './user-store.js';

/** One group (a value of the groups claim) and the role it gives. */
export interface GroupRole {
  group: string;
  role: Role;
}

/** One email domain (lower case, no `@`) and the role it gives. */
export interface DomainRole {
  domain: string;
  role: Role;
}

/** An account's single sign-on settings. */
export interface SsoSettings {
  accountId: string;
  /** What the console's button says: "Sign in with <name>". */
  name: string;
  /** The provider's issuer URL, as its discovery document names it. */
  issuer: string;
  clientId: string;
  /** Sent to the provider's token endpoint; never answered back by a route. */
  clientSecret: string;
  /** The ID token claim that holds the person's groups (`groups` by default). */
  groupsClaim: string;
  groupRoles: GroupRole[];
  domainRoles: DomainRole[];
  enabled: boolean;
  createdMs: number;
  updatedMs: number;
}

/** What a PUT sets; a missing client secret keeps the stored one. */
export type SsoSettingsInput = Omit<SsoSettings, 'accountId' | 'createdMs' | 'updatedMs' | 'clientSecret'> & {
  clientSecret: string | null;
};

/** A sign-in started at the provider, waiting for the browser to come back. */
export interface PendingSsoSignIn {
  accountId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  expiresMs: number;
}

/** A verified single sign-on, as the store records it. */
export interface SsoSignInRecord {
  accountId: string;
  issuer: string;
  subject: string;
  /** Lower case, verified by the provider. */
  email: string;
  /** The provider's name for the person, given to a user made now. */
  name: string | null;
  /** The role the account's mappings give. */
  role: Role;
  nowMs: number;
  /** Where the person signed in from (the request's address), for the audit log. */
  address: string | null;
}

/** What a single sign-on changed: the user (found or made) and their role in the account before and now. */
export interface SsoSignInResult {
  user: UserRecord;
  /** True when the user was made by this sign-in. */
  created: boolean;
  /** The role before this sign-in; null when the person was not a member. */
  roleBefore: Role | null;
  role: Role;
}

/** The store's single sign-on settings and pending sign-ins. */
export interface SsoStore {
  /** The account's settings, or null when it has none. */
  getSsoSettings(accountId: string): Promise<SsoSettings | null>;
  /**
   * Creates or replaces the account's settings; null when a first save has no client secret (the caller
   * refuses it). The stored secret stays when `clientSecret` is null.
   */
  putSsoSettings(accountId: string, input: SsoSettingsInput, nowMs: number): Promise<SsoSettings | null>;
  /** Removes the account's settings; false when it had none. */
  deleteSsoSettings(accountId: string): Promise<boolean>;
  /** Every account with single sign-on on, by name: what the console's sign-in screen offers. */
  listEnabledSso(): Promise<Array<{ accountId: string; name: string }>>;
  /** Keeps a started sign-in under the digest of the browser's cookie value. */
  startSsoSignIn(digest: Uint8Array, signIn: PendingSsoSignIn): Promise<void>;
  /** Takes a started sign-in (deleting it: it is used once); null when unknown, used or expired. */
  takeSsoSignIn(digest: Uint8Array, nowMs: number): Promise<PendingSsoSignIn | null>;
  /**
   * Records a verified sign-in, in one transaction: the user of the (issuer, subject) pair, else of the
   * email (then linked to the pair), else a new user without a password; and their membership of the account
   * with `role`, made or changed (the provider's groups decide, at every sign-in). Refused (nothing changes)
   * when that user belongs to another account whose single sign-on is not this issuer's: a provider speaks
   * for its own account, and must not open another account's door through a shared user.
   */
  recordSsoSignIn(signIn: SsoSignInRecord): Promise<SsoSignInResult | { refused: 'other_accounts' }>;
  /** Drops started sign-ins that expired before `nowMs` (the hourly purge); how many. */
  purgeSsoSignIns(nowMs: number): Promise<number>;
}
