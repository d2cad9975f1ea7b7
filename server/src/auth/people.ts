// People's sign-in and links (issue 36): email and password in, a console session out (console-sessions.ts:
// the same cookie and CSRF token as the operator key's); invitations and password resets as one-time links
// the console opens (`/admin/#invite=…`, `/admin/#reset=…`), kept as SHA-256 digests (they are random). A
// person who already has a user is never added to an account without their consent: their invitation is a join
// link, answered signed in as themselves, that sets no password and opens no session. Both kinds of invitation
// look alike (one fragment, one prefix, one length), so that no admin learns whether the email had a user; the
// console asks the server which screen a link opens (invitationScreen), which whoever holds the link learns.
//
// An unknown email, a user with no password yet, a user in no account and a wrong password all take one
// argon2id verification (passwords.ts verifies a dummy hash when there is none) and get the same answer no
// sooner than the failure floor, so neither the body nor the time tells whether a person exists.
import { randomBytes } from 'node:crypto';
import { errors } from '../errors.js';
import { CREDENTIAL_FAILURE_FLOOR_MS, noSoonerThan } from '../http/failure-floor.js';
import { digest } from '../ids.js';
import type { JoinInvitation, JoinLinkStore } from '../store/join-link-store.js';
import type {
  InvitationResult,
  PasswordLinkKind,
  Role,
  UserLinkKind,
  UserStore,
} from '../store/user-store.js';
import type { ConsoleSessions, OpenedSession } from './console-sessions.js';
import { hashPassword, passwordMatches, passwordProblem } from './passwords.js';
import { PasswordLockout } from './password-lockout.js';
import type { TokenLimits } from './rate-limits.js';

/** An invitation lasts a week: long enough to be read after a weekend. */
export const INVITATION_LIFETIME_MS = 7 * 86_400_000;
/** A reset link lasts an hour: it replaces a password, so it should not lie around. */
export const RESET_LIFETIME_MS = 3_600_000;

/** A link made for a person, shown once. */
export interface PersonLink {
  /** Where the console opens it: `/admin/#invite=…` (either kind of invitation) or `/admin/#reset=…`. */
  path: string;
  expiresMs: number;
}

/** Options; tests set their own. */
export interface PeopleOptions {
  now?: () => number;
  /** Limits of wrong passwords (rate-limits.ts's thresholds and waits). */
  limits?: Partial<TokenLimits>;
}

// An invitation and a join link share their prefix and fragment: nothing in the link tells which it is.
const LINK_PREFIX: Readonly<Record<UserLinkKind, string>> = { invitation: 'fci', reset: 'fcr', join: 'fci' };
const LINK_FRAGMENT: Readonly<Record<UserLinkKind, string>> = {
  invitation: 'invite',
  reset: 'reset',
  join: 'invite',
};

const newLinkToken = (kind: UserLinkKind): string =>
  `${LINK_PREFIX[kind]}_${randomBytes(32).toString('base64url')}`;

/** Whether a link token has the shape this server makes (anything else cannot be one). */
const looksLikeLink = (kind: UserLinkKind, token: string): boolean =>
  new RegExp(`^${LINK_PREFIX[kind]}_[A-Za-z0-9_-]{43}$`).test(token);

/** People's sign-in, invitations and password resets. */
export class People {
  readonly #store: UserStore & JoinLinkStore;
  readonly #sessions: ConsoleSessions;
  readonly #lockout: PasswordLockout;
  readonly #now: () => number;

  constructor(store: UserStore & JoinLinkStore, sessions: ConsoleSessions, options: PeopleOptions = {}) {
    this.#store = store;
    this.#sessions = sessions;
    this.#now = options.now ?? Date.now;
    this.#lockout = new PasswordLockout(options.limits, this.#now);
  }

  /**
   * Signs a person in from `ip`: their session when the password is theirs and they belong to an account;
   * else throws 401 (the same answer whatever was wrong, no sooner than the failure floor) or 429.
   */
  async signIn(
    ip: string,
    email: string,
    password: string,
  ): Promise<{ opened: OpenedSession; userId: string }> {
    const started = performance.now();
    const lower = email.toLowerCase();
    this.#lockout.check(ip, lower);
    const user = await this.#store.findUserByEmail(lower);
    const matches = await passwordMatches(user?.passwordHash ?? null, password);
    const opened = user !== null && matches ? await this.#sessions.openForUser(user.id) : null;
    if (user === null || opened === null) {
      this.#lockout.failed(ip, lower);
      await noSoonerThan(started, CREDENTIAL_FAILURE_FLOOR_MS);
      throw errors.invalidCredentials();
    }
    this.#lockout.succeeded(ip, lower);
    return { opened, userId: user.id };
  }

  /**
   * Invites `email` to an account with `role`: the stored invitation and its one-time link. The token is made
   * before the store says which kind it stored, and looks the same for both, so that the answer (and its time)
   * is the same whether the email has a user here or not.
   */
  async invite(
    accountId: string,
    email: string,
    role: Role,
  ): Promise<{ invitation: InvitationResult; link: PersonLink }> {
    const token = newLinkToken('invitation');
    const nowMs = this.#now();
    const expiresMs = nowMs + INVITATION_LIFETIME_MS;
    const invitation = await this.#store.inviteUser({
      accountId,
      email,
      role,
      linkDigest: digest(token),
      nowMs,
      expiresMs,
    });
    return { invitation, link: { path: `/admin/#${LINK_FRAGMENT.invitation}=${token}`, expiresMs } };
  }

  /**
   * The screen an invitation link opens, for whoever holds it (no session needed: a new person has none):
   * `choose_password` or `join`. 404 for a link this server never made (or revoked), 410 for a used or expired
   * one, in the same words for both kinds.
   */
  async invitationScreen(token: string): Promise<'choose_password' | 'join'> {
    if (!looksLikeLink('invitation', token)) throw errors.spentUserLink('invitation', 'unknown');
    const found = await this.#store.invitationLinkKind(digest(token), this.#now());
    if (found.kind === 'refused') throw errors.spentUserLink('invitation', found.why);
    return found.linkKind === 'invitation' ? 'choose_password' : 'join';
  }

  /**
   * The invitation a join link stands for, for the signed-in person `userId`: 404 for a link this server never
   * made (or revoked), 410 for a used or expired one, 403 when it invites another person.
   */
  async peekJoin(token: string, userId: string): Promise<JoinInvitation> {
    if (!looksLikeLink('join', token)) throw errors.spentUserLink('join', 'unknown');
    const found = await this.#store.peekJoinLink(digest(token), this.#now());
    if (found.kind === 'refused') throw errors.spentUserLink('join', found.why);
    if (found.invitation.userId !== userId) throw errors.otherPersonsInvitation();
    return found.invitation;
  }

  /** Answers a join link as the signed-in person `userId` (the refusals of peekJoin); the account joined or not. */
  async answerJoin(
    token: string,
    userId: string,
    answer: 'join' | 'decline',
  ): Promise<{ accountId: string }> {
    if (!looksLikeLink('join', token)) throw errors.spentUserLink('join', 'unknown');
    const answered = await this.#store.answerJoinLink({
      linkDigest: digest(token),
      userId,
      answer,
      nowMs: this.#now(),
    });
    if (answered.kind === 'refused')
      throw answered.why === 'other_person'
        ? errors.otherPersonsInvitation()
        : errors.spentUserLink('join', answered.why);
    return { accountId: answered.before.accountId };
  }

  /**
   * A one-time password reset link for a user, made from `accountId` (logged there) by `madeBy` (a person's
   * user id; null for the operator key and the CLI); null when there is no such user. A person who is not an
   * admin of every account of the user → NotTheirAdminError.
   */
  async resetLink(accountId: string, userId: string, madeBy: string | null): Promise<PersonLink | null> {
    const token = newLinkToken('reset');
    const nowMs = this.#now();
    const expiresMs = nowMs + RESET_LIFETIME_MS;
    const stored = await this.#store.createResetLink(
      accountId,
      userId,
      digest(token),
      nowMs,
      expiresMs,
      madeBy,
    );
    return stored ? { path: `/admin/#${LINK_FRAGMENT.reset}=${token}`, expiresMs } : null;
  }

  /**
   * Uses an invitation or reset link: the new password (checked: 400 naming `password`) is hashed, set, and
   * a session opened (the user's others end); 404 for a link this server never made, 410 for a used or
   * expired one.
   */
  async useLink(
    kind: PasswordLinkKind,
    token: string,
    password: string,
    name: string | undefined,
  ): Promise<{ opened: OpenedSession; userId: string }> {
    const problem = passwordProblem(password);
    if (problem !== null) throw errors.invalidBody('password', problem);
    if (!looksLikeLink(kind, token)) throw errors.spentUserLink(kind, 'unknown');
    const passwordHash = await hashPassword(password);
    const used = await this.#sessions.openWithUserLink({ kind, token, passwordHash, name });
    if ('refused' in used) throw errors.spentUserLink(kind, used.refused);
    return used;
  }
}
