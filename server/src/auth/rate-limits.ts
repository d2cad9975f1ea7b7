// Limits of the token routes (PROTOCOL.md §13.7), kept in this process's memory: a rate per client IP for
// token requests and token checks, and lockouts after failed authentications, per (IP, client id) pair and
// per IP. A client id alone is never locked: client ids are not secret, so locking one would let anyone lock
// its owner out. Maps are bounded (the oldest entries go first), so a flood of addresses cannot grow them.

/** Tunable limits; tests set their own. */
export interface TokenLimits {
  /** Token requests per IP per minute (default 20). */
  tokenRequestsPerMinute: number;
  /** Token checks per IP per minute (default 600). */
  tokenChecksPerMinute: number;
  /** Failures of one (IP, client id) pair within the window before it waits (default 5). */
  pairFailures: number;
  /** Failures from one IP within the window before it waits (default 20). */
  ipFailures: number;
  /** The failure window in ms (default 10 minutes). */
  failureWindowMs: number;
  /** The first wait in ms (default 1 s); each further lock doubles it, up to maxLockMs. */
  firstLockMs: number;
  /** The longest wait in ms (default 5 minutes). */
  maxLockMs: number;
}

/** The defaults of §13.7. */
export const DEFAULT_TOKEN_LIMITS: TokenLimits = {
  tokenRequestsPerMinute: 20,
  tokenChecksPerMinute: 600,
  pairFailures: 5,
  ipFailures: 20,
  failureWindowMs: 10 * 60_000,
  firstLockMs: 1000,
  maxLockMs: 5 * 60_000,
};

/** At most this many keys per map; beyond it the oldest key is forgotten. */
const MAX_KEYS = 100_000;

/** Sets `key` as the newest entry of a bounded map (Map keeps insertion order). */
const remember = <V>(map: Map<string, V>, key: string, value: V): void => {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_KEYS) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
};

interface Window {
  startMs: number;
  count: number;
}

interface Failures {
  /** Times of recent failures, oldest first (at most the threshold is kept). */
  times: number[];
  lockedUntilMs: number;
  /** How many locks so far: the next wait is firstLockMs × 2^locks. */
  locks: number;
}

/** Seconds to wait, for a 429's Retry-After; null when the request may go ahead. */
export type Wait = number | null;

/** The per-process state of the token routes' limits. */
export class TokenRateLimits {
  readonly #limits: TokenLimits;
  readonly #now: () => number;
  readonly #rates = new Map<string, Window>();
  readonly #pairs = new Map<string, Failures>();
  readonly #ips = new Map<string, Failures>();

  constructor(limits: Partial<TokenLimits> = {}, now: () => number = Date.now) {
    this.#limits = { ...DEFAULT_TOKEN_LIMITS, ...limits };
    this.#now = now;
  }

  /** Counts one token request from `ip`; the wait when over the rate. */
  tokenRequest(ip: string): Wait {
    return this.#rate(`request ${ip}`, this.#limits.tokenRequestsPerMinute);
  }

  /** Counts one token check from `ip`; the wait when over the rate. */
  tokenCheck(ip: string): Wait {
    return this.#rate(`check ${ip}`, this.#limits.tokenChecksPerMinute);
  }

  /** The wait before `ip` may try `clientId` again, or null. */
  lockedFor(ip: string, clientId: string): Wait {
    const now = this.#now();
    const until = Math.max(
      this.#pairs.get(pairKey(ip, clientId))?.lockedUntilMs ?? 0,
      this.#ips.get(ip)?.lockedUntilMs ?? 0,
    );
    return until > now ? Math.ceil((until - now) / 1000) : null;
  }

  /** Records a failed authentication of `clientId` from `ip`. */
  failed(ip: string, clientId: string): void {
    this.#fail(this.#pairs, pairKey(ip, clientId), this.#limits.pairFailures);
    this.#fail(this.#ips, ip, this.#limits.ipFailures);
  }

  /** Records a successful authentication: the pair starts afresh (the IP's count stays). */
  succeeded(ip: string, clientId: string): void {
    this.#pairs.delete(pairKey(ip, clientId));
  }

  #rate(key: string, perMinute: number): Wait {
    const now = this.#now();
    const window = this.#rates.get(key);
    if (window === undefined || now - window.startMs >= 60_000) {
      remember(this.#rates, key, { startMs: now, count: 1 });
      return null;
    }
    window.count++;
    if (window.count <= perMinute) return null;
    return Math.max(1, Math.ceil((window.startMs + 60_000 - now) / 1000));
  }

  #fail(map: Map<string, Failures>, key: string, threshold: number): void {
    const now = this.#now();
    const entry = map.get(key) ?? { times: [], lockedUntilMs: 0, locks: 0 };
    entry.times = entry.times.filter((time) => now - time < this.#limits.failureWindowMs);
    entry.times.push(now);
    if (entry.times.length > threshold) entry.times.shift();
    if (entry.times.length >= threshold) {
      const wait = Math.min(this.#limits.firstLockMs * 2 ** entry.locks, this.#limits.maxLockMs);
      entry.lockedUntilMs = now + wait;
      entry.locks++;
    } else if (entry.times.length === 1) entry.locks = 0;
    remember(map, key, entry);
  }
}

const pairKey = (ip: string, clientId: string): string => `${ip} ${clientId}`;
