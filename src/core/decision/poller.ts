import type { Logger } from '../logger.js';
import { fetchText } from '../net/http.js';
import { fetchError, type ServerHint } from '../net/request-failure.js';
import { backoffDelay, parseRetryAfter } from '../net/retry.js';

/** What went wrong with one download, one log line per kind (PROTOCOL.md §9.4 faults). */
export type FileFault = 'timeout' | 'network' | 'http' | 'malformed';

/** The outcome of one conditional download of the bucketing file. */
export type FileAnswer =
  | {
      readonly kind: 'file';
      readonly body: string;
      readonly etag: string | null;
      readonly lastModified: string | null;
    }
  | { readonly kind: 'not-modified' }
  | {
      readonly kind: 'failure';
      readonly fault: FileFault;
      readonly message: string;
      /** The server's `Retry-After` in ms (a 429 or 503 may carry one), waited instead of the backoff. */
      readonly retryAfterMs?: number | null;
    };

/** The validators of the file held now, sent so an unchanged file costs a 304 (PROTOCOL.md §2.5). */
export interface Validators {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

/**
 * One conditional GET: `If-None-Match` with the ETag, else `If-Modified-Since` with Last-Modified (a server
 * ignores the latter when the former is present, RFC 9110 §13.1.3). The transport keeps any HTTP cache out of
 * it (fetch-transport.ts: `no-store`), so a 304 reaches us as a 304, never as a 200 replayed from a cached copy.
 */
export const downloadFile = async (
  url: string,
  validators: Validators | null,
  timeoutMs: number,
  signal: AbortSignal,
  serverHint?: ServerHint | null,
): Promise<FileAnswer> => {
  const headers: Record<string, string> = {};
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  else if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  signal.addEventListener('abort', abort);
  try {
    const [res, text] = await fetchText(url, { headers }, timeoutMs, controller);
    if (res.status === 304) return { kind: 'not-modified' };
    if (!res.ok)
      return {
        kind: 'failure',
        fault: 'http',
        message: `answered ${res.status}: ${text.slice(0, 200)}`,
        retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), Date.now()),
      };
    return {
      kind: 'file',
      body: text,
      etag: res.headers.get('etag'),
      lastModified: res.headers.get('last-modified'),
    };
  } catch (error) {
    // Aborted by the timer rather than by `stop()`: a timeout.
    return controller.signal.aborted && !signal.aborted
      ? { kind: 'failure', fault: 'timeout', message: `no answer within ${timeoutMs} ms` }
      : { kind: 'failure', fault: 'network', message: fetchError(error, url, serverHint) };
  } finally {
    signal.removeEventListener('abort', abort);
  }
};

/**
 * The wait before the next attempt after `failures` failures in a row (≥ 1) with no `Retry-After`: the SDK's
 * one backoff ({@link backoffDelay}: 1 s doubling, ±20 % jitter), capped at `capMs` (the polling interval or
 * 5 minutes, whichever is shorter).
 */
export const retryDelay = (failures: number, capMs: number, random: number): number =>
  backoffDelay(failures - 1, random, 1000, capMs);

/**
 * The timers that space the downloads (polling interval and retry backoff). Tests pass fake ones: mocking the
 * global `setTimeout` would also stop the timers of Node's own `fetch`.
 */
export interface PollTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real timers, unref'd in Node so that polling alone never keeps a process alive. */
export const realPollTimers: PollTimers = {
  setTimeout(run, ms) {
    const handle = setTimeout(run, ms);
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What a {@link FilePoller} needs. */
export interface FilePollerOptions {
  readonly url: string;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly random: () => number;
  readonly logger: Pick<Logger, 'debug'>;
  readonly timers: PollTimers;
  /** Said in a failure message when no server could be reached at the default address. */
  readonly serverHint?: ServerHint | null;
  /** The validators to send now, or null when no file is held. */
  validators(): Validators | null;
  /** Applies an answer; false when it must count as a failure (a body that is not a bucketing file). */
  apply(answer: FileAnswer): boolean;
}

/**
 * Downloads the file now and then: every `intervalMs` while answers are good, after the server's
 * `Retry-After` or with {@link retryDelay} backoff while they are not (PROTOCOL.md §5.3's policy). One attempt at a time.
 */
export class FilePoller {
  private timer: unknown;
  private failures = 0;
  private stopped = false;
  private cycle: Promise<void> | null = null;
  private again = false;
  private readonly stop$ = new AbortController();

  constructor(private readonly options: FilePollerOptions) {}

  /**
   * Runs one attempt now and schedules the next; resolves when the attempt has been applied. Called while one
   * is in flight (a live-update change during a poll), one more follows it: the file in flight may predate the
   * change.
   */
  pollNow(): Promise<void> {
    // Stopped (the SDK closed): a live-update change handled after the close asks for nothing.
    if (this.stopped) return Promise.resolve();
    if (this.cycle !== null) {
      this.again = true;
      return this.cycle;
    }
    const cycle = (this.cycle = (async () => {
      try {
        do {
          this.again = false;
          await this.attempt();
          // Read again: a call during the attempt may have set it (TypeScript keeps it false across the await).
        } while ((this.again as boolean) && !this.stopped);
      } finally {
        this.cycle = null;
      }
    })());
    return cycle;
  }

  private async attempt(): Promise<void> {
    const { options } = this;
    options.timers.clearTimeout(this.timer);
    const answer = await downloadFile(
      options.url,
      options.validators(),
      options.timeoutMs,
      this.stop$.signal,
      options.serverHint,
    );
    if (this.stopped) return;
    const ok = options.apply(answer);
    this.failures = ok ? 0 : this.failures + 1;
    const capMs = Math.min(options.intervalMs, 300_000);
    const asked = answer.kind === 'failure' ? answer.retryAfterMs : null;
    const delayMs = ok ? options.intervalMs : (asked ?? retryDelay(this.failures, capMs, options.random()));
    this.timer = options.timers.setTimeout(() => void this.pollNow(), delayMs);
    options.logger.debug(`bucketing file: ${answer.kind}; next download in ${Math.round(delayMs)} ms.`);
  }

  /** Stops the timer and the download in flight. */
  stop(): void {
    this.stopped = true;
    this.options.timers.clearTimeout(this.timer);
    this.stop$.abort();
  }
}
