// People (issue 36): users, their role in each account, and the one-time links that invite them or reset their
// password. The store keeps digests of links and argon2id hashes of passwords, never either secret; making
// them, and deciding who may do what, is auth/'s job. Each method that changes something is one transaction,
// and returns the rows as they were before and after it, so that the audit log can record the change there.

/** What a member may do in an account: admin ⊃ editor ⊃ viewer. */
export type Role = 'admin' | 'editor' | 'viewer';

/** Every role, from the least to the most. */
export const ROLES: readonly Role[] = ['viewer', 'editor', 'admin'];

/** Whether `held` grants at least what `needed` does. */
export const roleCovers = (held: Role, needed: Role): boolean => ROLES.indexOf(held) >= ROLES.indexOf(needed);

/** A user as stored. */
export interface UserRecord {
  id: string;
  /** Lower-case: unique whatever its case. */
  email: string;
  name: string;
  /** The argon2id hash (PHC string); null until the invitation is accepted. */
  passwordHash: string | null;
  createdMs: number;
  lastSignInMs: number | null;
}

/**
 * A user's membership of an account, with what the member list shows of the user. A pending membership (a
 * person who already had a user, invited and not yet answered) shows only what the admin typed: the email, the
 * role; its name is '', its last sign-in null and it is not active, as a new person's unanswered invitation.
 */
export interface MemberRecord {
  accountId: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** When the user joined the account (was invited to it). */
  createdMs: number;
  lastSignInMs: number | null;
  /** False until the user chose a password (an invitation not yet accepted), and while pending. */
  active: boolean;
  /** True until an invited person who already had a user answers their join link: grants nothing. */
  pending: boolean;
}

/** The kinds of one-time user link: `join` asks an existing person's consent, and sets no password. */
export type UserLinkKind = 'invitation' | 'reset' | 'join';

/** The links that set a password (and open a session). */
export type PasswordLinkKind = 'invitation' | 'reset';

/** Why a link opened nothing. */
export type UserLinkRefusal = 'unknown' | 'used' | 'expired';

/** An invitation as stored: the user (new or existing), the membership made, and the kind of link stored. */
export interface InvitationResult {
  user: UserRecord;
  /** The membership before the invitation (null: not a member) and after it. */
  before: MemberRecord | null;
  after: MemberRecord;
  /**
   * `invitation` for a person with no way to sign in and no other account (they choose a password); `join`
   * for anyone else (they answer signed in as themselves, and their membership is pending until then).
   */
  linkKind: 'invitation' | 'join';
}

/** Refused because the account would be left with no admin. */
export class LastAdminError extends Error {
  constructor(accountId: string) {
    super(
      `This is the last admin of account "${accountId.slice(0, 64)}": make another member an admin first, so that someone can still manage the account.`,
    );
    this.name = 'LastAdminError';
  }
}

/** Refused because a reset link's maker is not an admin of every account of the person (it signs in there). */
export class NotTheirAdminError extends Error {
  constructor() {
    super('the admin role in every account of this person (or the operator key)');
    this.name = 'NotTheirAdminError';
  }
}

/** Refused because the user is already a member who chose a password. */
export class AlreadyMemberError extends Error {
  constructor(email: string) {
    super(
      `${email.slice(0, 254)} is already a member of this account: change their role (PATCH …/users/{userId}) instead of inviting them again.`,
    );
    this.name = 'AlreadyMemberError';
  }
}

/** The store's users, memberships and user links. */
export interface UserStore {
  /**
   * Invites `email` to an account with `role`: makes the user when there is none (no password yet) and the
   * membership, and stores the link of InvitationResult.linkKind: a person who already has a way
   * to sign in or another account gets a pending membership and a join link. A member who has not answered yet,
   * invited again, gets a new link (their older ones void) and the new role; a member who signs in →
   * AlreadyMemberError.
   */
  inviteUser(input: {
    accountId: string;
    email: string;
    role: Role;
    /** The link's digest: one token for either kind, so the link never says which it opens. */
    linkDigest: Uint8Array;
    nowMs: number;
    expiresMs: number;
  }): Promise<InvitationResult>;
  /** The user of an email (any case), or null. */
  findUserByEmail(email: string): Promise<UserRecord | null>;
  /** The user of an id, or null. */
  getUser(userId: string): Promise<UserRecord | null>;
  /** The members of an account, by email. */
  listMembers(accountId: string): Promise<MemberRecord[]>;
  /** One member of an account, or null when the user is not one. */
  getMember(accountId: string, userId: string): Promise<MemberRecord | null>;
  /** The accounts a user belongs to, with the role in each (pending memberships are not there: they grant nothing). */
  membershipsOf(userId: string): Promise<Array<{ accountId: string; role: Role }>>;
  /**
   * Changes a member's role; null when the user is not a member. Demoting the account's last admin →
   * LastAdminError (checked with the account's members locked, so two demotions cannot both pass).
   */
  setMemberRole(
    accountId: string,
    userId: string,
    role: Role,
  ): Promise<{ before: MemberRecord; after: MemberRecord } | null>;
  /**
   * Removes a member from an account; null when the user was not one. Removing the last admin →
   * LastAdminError. A user left in no account they are an active member of has their console sessions ended
   * and their links voided (but for the join links of invitations still pending, which they may sign in to
   * answer).
   */
  removeMember(
    accountId: string,
    userId: string,
  ): Promise<{ before: MemberRecord; sessionsEnded: number } | null>;
  /**
   * Stores a password reset link for a user (false: no such user), logged in `accountId`'s audit log (the
   * account whose admin, or the CLI, made it). `madeBy` is the person making it (null: the operator key or the
   * CLI, which always may): a person must be an admin of every account the user is an active member of, checked
   * with the user's memberships locked, so that a join answered meanwhile is seen → NotTheirAdminError.
   */
  createResetLink(
    accountId: string,
    userId: string,
    linkDigest: Uint8Array,
    nowMs: number,
    expiresMs: number,
    madeBy: string | null,
  ): Promise<boolean>;
  /**
   * Uses a link of `kind`: in one transaction, marks it used, sets the user's password hash (and name, when
   * given), ends the user's other console sessions, and opens the session `sessionDigest`. The refusal when
   * the link is unknown, of another kind, used or expired (nothing changes then).
   */
  useUserLink(input: {
    linkDigest: Uint8Array;
    kind: PasswordLinkKind;
    passwordHash: string;
    name: string | undefined;
    sessionDigest: Uint8Array;
    nowMs: number;
    sessionExpiresMs: number;
  }): Promise<
    | { kind: 'opened'; before: UserRecord; after: UserRecord; sessionsEnded: number }
    | { kind: 'refused'; why: UserLinkRefusal }
  >;
  /**
   * Opens the console session `sessionDigest` for a user who proved their password, and records the sign-in
   * time; false when the user is gone or belongs to no account (nothing opened).
   */
  openUserSession(
    userId: string,
    sessionDigest: Uint8Array,
    nowMs: number,
    expiresMs: number,
  ): Promise<boolean>;
  /** Deletes user links that expired before `beforeMs`; how many. */
  purgeUserLinks(beforeMs: number): Promise<number>;
}
