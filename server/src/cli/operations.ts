// What the CLI's commands do to the server's data, behind one interface with two implementations: on the
// store directly (store-operations.ts), or through a running server's operator routes (operator-client.ts)
// when that server holds the embedded store's folder (PROTOCOL.md §13.9). Both answer in the operator
// routes' snake_case shapes (§13.8), so `--json` prints the same objects whichever way a command went.
import type { CampaignReport, CampaignState, RemoteCampaign } from 'feature-ts/protocol';
import type { FoldAllOutcome } from '../report/rollups/fold-all.js';
import type { FoldProgress } from '../report/rollups/rollup-progress.js';
import type { linkAnswer, memberAnswer } from '../services/member-answers.js';
import type { accessAnswer, accountAnswer, environmentAnswer } from '../services/operator-answers.js';
import type { Role } from '../store/user-store.js';

/** An account as the CLI prints it. */
export type AccountView = ReturnType<typeof accountAnswer>;
/** An environment as the CLI prints it (never its API key). */
export type EnvironmentView = ReturnType<typeof environmentAnswer>;
/** An access as the CLI prints it (never its secret). */
export type AccessView = ReturnType<typeof accessAnswer>;

/** A member of an account as the CLI prints it. */
export type MemberView = ReturnType<typeof memberAnswer>;
/** A one-time invitation or reset link (its path on the server, and when it stops working). */
export type LinkView = ReturnType<typeof linkAnswer>;

/** Which store a command used: said on stderr, or as `store` in the `--json` object. */
export type StoreUsed =
  { kind: 'embedded'; dataDir: string; server?: string } | { kind: 'postgres'; database: string };

/** The store in words, for the line on stderr. */
export const describeStore = (used: StoreUsed): string =>
  used.kind === 'postgres'
    ? `PostgreSQL at ${used.database}`
    : `the embedded store in ${used.dataDir}${used.server === undefined ? '' : ` (through the running server at ${used.server})`}`;

/** A new environment's settings, as given on the command line. */
export interface NewEnvironment {
  accountId: string;
  name: string;
  enabledXPC: boolean;
  enabled1V1T: boolean;
}

/** A new access, as given on the command line. */
export interface NewAccess {
  accountId: string;
  name: string;
  actions: string[];
  /** Empty: every environment of the account. */
  environments: string[];
}

/** The operations the commands need; every method refuses unknown ids with a message naming them. */
export interface Operations {
  readonly used: StoreUsed;
  listAccounts(): Promise<AccountView[]>;
  createAccount(name: string): Promise<AccountView>;
  listEnvironments(accountId: string): Promise<EnvironmentView[]>;
  createEnvironment(input: NewEnvironment): Promise<{ environment: EnvironmentView; apiKey: string }>;
  /** The new API key (the previous one stops working at once). */
  rotateApiKey(envId: string): Promise<string>;
  setPanic(envId: string, panic: boolean): Promise<EnvironmentView>;
  /** Replaces the environment's campaigns with a checked bucketing-format file (§6); how many. */
  importCampaigns(envId: string, file: unknown): Promise<number>;
  /** Every campaign's report (deleted ones included), or the one whose id or slug is `campaign`. */
  reports(envId: string, campaign?: string): Promise<CampaignReport[]>;
  /**
   * Forgets the report rollups and folds every stored row again (`report --rebuild`); `onProgress` hears how
   * far it is now and then.
   */
  rebuildReports(onProgress: (progress: FoldProgress) => void): Promise<FoldAllOutcome>;
  createAccess(input: NewAccess): Promise<{ access: AccessView; clientSecret: string }>;
  listAccesses(accountId: string): Promise<AccessView[]>;
  getAccess(accessId: string): Promise<AccessView>;
  revokeAccess(accessId: string): Promise<AccessView>;
  /** The environment's campaigns (not deleted), in stored order, as the remote control API shows them. */
  listCampaigns(envId: string): Promise<RemoteCampaign[]>;
  /** The campaign (not deleted) whose id, else whose slug, is `campaign`. */
  getCampaign(envId: string, campaign: string): Promise<RemoteCampaign>;
  /**
   * Creates a campaign from a create body of the remote control API (§13.5), last in the stored order;
   * a bad field is refused by its path (`invalid_input` with details), a taken id or slug is a `conflict`.
   */
  createCampaign(envId: string, body: unknown): Promise<RemoteCampaign>;
  /** Applies a patch body of the remote control API (fields given replace; `position` moves). */
  updateCampaign(envId: string, campaignId: string, body: unknown): Promise<RemoteCampaign>;
  /** Changes a campaign's state; leaving `interrupted` is a `conflict` (it is final). */
  toggleCampaign(envId: string, campaignId: string, state: CampaignState): Promise<RemoteCampaign>;
  /** Deletes a campaign (its ids stay taken and its report readable). */
  deleteCampaign(envId: string, campaignId: string): Promise<void>;
  /** True when `apiKey` is the environment's current key. */
  apiKeyMatches(envId: string, apiKey: string): Promise<boolean>;
  /** The members of an account, by email. */
  listUsers(accountId: string): Promise<MemberView[]>;
  /** Invites `email` with `role`: the member, and their one-time link (an invitation, or a join link). */
  inviteUser(accountId: string, email: string, role: Role): Promise<{ user: MemberView; link: LinkView }>;
  /** Changes the role of the member `user` (an id or an email); the account's last admin stays one. */
  setUserRole(accountId: string, user: string, role: Role): Promise<MemberView>;
  /** Removes the member `user` (an id or an email) from the account; the last admin stays. */
  removeUser(accountId: string, user: string): Promise<void>;
  /** A one-time password reset link for the member `user` (an id or an email). */
  userResetLink(accountId: string, user: string): Promise<LinkView>;
  /**
   * Writes the account's audit entries recorded since `sinceMs` (all: null) as JSON lines, oldest first, one
   * `write` per chunk, as the export route answers them; how many lines.
   */
  exportAudit(
    accountId: string,
    sinceMs: number | null,
    write: (text: string) => Promise<void>,
  ): Promise<number>;
  /** Ends every console session (unused sign-in links too), on every server of the store; how many ended. */
  endConsoleSessions(): Promise<number>;
  close(): Promise<void>;
}
