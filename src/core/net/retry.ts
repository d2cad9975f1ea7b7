// The SDK's one retry policy (PROTOCOL.md §5.3), shared by tracking and the bucketing file polling: wait what
// the server asked for in `Retry-After`, else back off exponentially with jitter. The other requests are not
// retried: a failed decision keeps the visitor's last flags until the next fetchFlags (§9.4), and a usage hit
// is sampled statistics (§12).

/**
 * The wait before attempt `failures + 1` (`failures` ≥ 0 failed in a row) when the server gave no
 * `Retry-After`: `baseMs` doubling per failure up to `capMs` (default 5 minutes), then ±20 % jitter (`random`
 * in [0, 1)) so many clients that failed together do not come back together.
 */
export const backoffDelay = (failures: number, random: number, baseMs = 1000, capMs = 300_000): number =>
  Math.min(baseMs * 2 ** failures, capMs) * (0.8 + 0.4 * random);

/**
 * The longest wait a `Retry-After` sets: 4 hours, the age past which pooled items are dropped (PROTOCOL.md
 * §11), so a longer one would only keep them waiting to be dropped.
 */
export const MAX_RETRY_AFTER_MS = 4 * 3_600_000;

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, as ms from `now`, at most
 * {@link MAX_RETRY_AFTER_MS}. Null when absent or unreadable, so the caller falls back to {@link backoffDelay}.
 */
export const parseRetryAfter = (value: string | null, now: number): number | null => {
  const text = value?.trim() ?? '';
  // Every HTTP-date form names a day or month: without letters it is neither form, whatever Date.parse says.
  const at = /^\d+$/.test(text) ? now + Number(text) * 1000 : /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
};
