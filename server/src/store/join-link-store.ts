// Consent to join (issue 36, security review): a person who already has a user, invited to another account, is
// a pending member there until they answer its one-time join link, signed in as themselves. The link is bound
// to its person and account; it sets no password and opens no session. Answering is one transaction with its
// audit entry, named after the person (the request's actor).
import type { MemberRecord, Role, UserLinkRefusal } from './user-store.js';

/** A join link that can still be answered: whose it is, to which account, with which role. */
export interface JoinInvitation {
  userId: string;
  accountId: string;
  accountName: string;
  role: Role;
  expiresMs: number;
}

/** Why a join link was not answered: as other links, or it names another person than the one answering. */
export type JoinRefusal = UserLinkRefusal | 'other_person';

/** The store's join links. */
export interface JoinLinkStore {
  /**
   * Which screen an unused invitation link opens (the two kinds look alike, so that no admin learns whether the
   * email had a user): `invitation` (choose a password) or `join` (answer signed in); or why it opens none.
   */
  invitationLinkKind(
    linkDigest: Uint8Array,
    nowMs: number,
  ): Promise<{ kind: 'found'; linkKind: 'invitation' | 'join' } | { kind: 'refused'; why: UserLinkRefusal }>;
  /**
   * The invitation a join link stands for, or why it stands for none: unknown (never made, revoked, or the
   * membership is no longer pending), used, expired.
   */
  peekJoinLink(
    linkDigest: Uint8Array,
    nowMs: number,
  ): Promise<{ kind: 'found'; invitation: JoinInvitation } | { kind: 'refused'; why: UserLinkRefusal }>;
  /**
   * Answers a join link as `userId`: `join` makes the pending membership a membership (and voids the person's
   * unused reset links, made when they were not in this account), `decline` removes it; either spends the link
   * and voids the person's other join links of the account. A link of another person changes nothing.
   */
  answerJoinLink(input: {
    linkDigest: Uint8Array;
    userId: string;
    answer: 'join' | 'decline';
    nowMs: number;
  }): Promise<
    | { kind: 'joined'; before: MemberRecord; after: MemberRecord }
    | { kind: 'declined'; before: MemberRecord }
    | { kind: 'refused'; why: JoinRefusal }
  >;
}
