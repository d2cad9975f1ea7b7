// Wrong passwords at the console's sign-in (issue 36), slowed as wrong client secrets and operator keys are
// (PROTOCOL.md §13.7, rate-limits.ts): counted per (address, email) pair and per address, which lock that
// address out for a while, doubling; and per email from every address, with the higher per-address threshold
// (20 in 10 minutes by default), so that guessing one person's password from many addresses is slow too, while
// someone who only knows an email needs many tries to lock its owner out for a short while.
import { errors } from '../errors.js';
import { DEFAULT_TOKEN_LIMITS, TokenRateLimits, type TokenLimits } from './rate-limits.js';

/** The key under which an email's failures from every address are counted (never an address: it has a space). */
const emailKey = (email: string): string => `email ${email}`;
const ANY_CLIENT = '(password)';

/** The per-address and per-email counts of wrong passwords. */
export class PasswordLockout {
  readonly #addresses: TokenRateLimits;
  readonly #emails: TokenRateLimits;

  constructor(limits: Partial<TokenLimits> = {}, now: () => number = Date.now) {
    this.#addresses = new TokenRateLimits(limits, now);
    // One pair per email: its threshold is the per-address one (the larger).
    const emailThreshold = limits.ipFailures ?? DEFAULT_TOKEN_LIMITS.ipFailures;
    this.#emails = new TokenRateLimits({ ...limits, pairFailures: emailThreshold }, now);
  }

  /** Throws the 429 (with Retry-After) while `ip`, or `email` from anywhere, waits. */
  check(ip: string, email: string): void {
    const wait = Math.max(
      this.#addresses.lockedFor(ip, email) ?? 0,
      this.#emails.lockedFor(emailKey(email), ANY_CLIENT) ?? 0,
    );
    if (wait > 0) throw errors.signInLockedForEmail(wait);
  }

  /** Counts a wrong password (or unknown email) for `email` from `ip`. */
  failed(ip: string, email: string): void {
    this.#addresses.failed(ip, email);
    this.#emails.failed(emailKey(email), ANY_CLIENT);
  }

  /** The right password: the pair's and the email's counts start afresh (the address's stays). */
  succeeded(ip: string, email: string): void {
    this.#addresses.succeeded(ip, email);
    this.#emails.succeeded(emailKey(email), ANY_CLIENT);
  }
}
