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
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, as ms from `now`. Null when
 * absent or unreadable, so the caller falls back to {@link backoffDelay}.
 */
export const parseRetryAfter = (value: string | null, now: number): number | null => {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP-date form names a day or month: without letters it is neither form, whatever Date.parse says.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
};
