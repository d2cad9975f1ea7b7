/**
 * The one way a test waits for something that lands asynchronously (DESIGN.md "Tests and figures"): poll a
 * condition, bounded both in checks and in time, and fail naming what was awaited and what was last seen.
 * Waiting for time itself to pass is not this helper's job: use fake timers or an injected clock for that.
 */

/** What a condition answers while it does not hold yet. */
export type NotYet = false | null | undefined;

/** How long and how often {@link until} checks. */
export interface UntilOptions {
  /** What is awaited, in words: the failure message names it. */
  what: string;
  /** The longest wait, in milliseconds (default 5 000). */
  timeoutMs?: number;
  /**
   * The pause between two checks, in milliseconds (default 20). 0 yields one event-loop turn instead, for
   * conditions that other in-process work settles without any timer.
   */
  intervalMs?: number;
  /** The most checks made (default: enough for `timeoutMs` at `intervalMs`, plus one, capped at 10 000). */
  maxChecks?: number;
}

// Taken when this module loads, so that a test which later installs fake timers still polls in real time
// (and fails at its bound) rather than hanging on a timer that only a fake clock's tick would fire.
const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realSetImmediate: ((callback: () => void) => unknown) | undefined =
  typeof globalThis.setImmediate === 'function' ? globalThis.setImmediate.bind(globalThis) : undefined;
const realNow = performance.now.bind(performance);

const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    if (ms === 0 && realSetImmediate) realSetImmediate(resolve);
    else realSetTimeout(resolve, ms);
  });

/** A short, one-line rendering of the last value seen, for the failure message. */
const shown = (value: unknown): string => {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  let text: string;
  try {
    // JSON.stringify answers undefined for undefined and functions, though its type says string.
    const json = JSON.stringify(value) as string | undefined;
    text = typeof json === 'string' ? json : String(value);
  } catch {
    text = String(value);
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/**
 * Checks `condition` until it answers something other than `false`, `null` or `undefined`, and returns that
 * answer. A condition that throws counts as not yet: the error is kept and reported if the wait runs out.
 * Fails after `timeoutMs` or `maxChecks` checks, whichever comes first, with a message naming `what`, the
 * checks made and the last answer or error.
 */
export const until = async <T>(
  condition: () => T | NotYet | Promise<T | NotYet>,
  options: UntilOptions,
): Promise<Exclude<T, NotYet>> => {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const intervalMs = options.intervalMs ?? 20;
  const maxChecks = options.maxChecks ?? Math.min(10_000, Math.ceil(timeoutMs / Math.max(intervalMs, 1)) + 1);
  const started = realNow();
  let last: { value: unknown } | { error: unknown } = { value: undefined };
  let checks = 0;
  while (checks < maxChecks) {
    checks++;
    try {
      const value = await condition();
      if (value !== false && value !== null && value !== undefined) return value as Exclude<T, NotYet>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (checks >= maxChecks || realNow() - started >= timeoutMs) break;
    await pause(intervalMs);
  }
  const elapsed = Math.round(realNow() - started);
  const seen = 'error' in last ? `threw ${shown(last.error)}` : `answered ${shown(last.value)}`;
  throw new Error(
    `until: ${options.what}: not within ${elapsed} ms and ${checks} checks ` +
      `(bounds ${timeoutMs} ms, ${maxChecks} checks); last check ${seen}`,
    'error' in last ? { cause: last.error } : undefined,
  );
};
