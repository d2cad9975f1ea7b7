// The live-update stream's connection (PROTOCOL.md §17): open it, read its `change` events, and keep it open
// for as long as the SDK runs: reconnect with backoff after any end, wait at least a refusal's `Retry-After`,
// send the last event id, close it while its tab is hidden. What a change does is the caller's (`onChange`).
import type { PollTimers } from '../decision/poller.js';
import type { Logger } from '../logger.js';
import { fetchError, shownUrl } from '../net/request-failure.js';
import { parseRetryAfter } from '../net/retry.js';
import type { OpenStream, StreamHead } from '../net/transport.js';
import type { Visibility } from '../platform/platform.js';
import { EventStreamParser, type StreamEvent } from './event-stream.js';

/** How long a hidden tab keeps its stream open (PROTOCOL.md §17): a quick tab switch costs no reconnect. */
export const HIDDEN_CLOSE_MS = 20_000;

const RECONNECT_BASE_MS = 1000;
/**
 * The nominal wait is capped here so that, with its ±20 % jitter, no wait passes 5 minutes (PROTOCOL.md §17),
 * while clients that failed together still spread out at the cap.
 */
const RECONNECT_CAP_MS = 250_000;
/** The longest wait a server's `retry` field may ask for: §17's 5 minutes. */
const MAX_RETRY_FIELD_MS = 300_000;

/**
 * The wait before reconnect attempt `failures + 1` (`failures` ≥ 0 attempts in a row that gave no live
 * stream): 1 s, ×3 per failure, at most 250 s nominal, then ±20 % jitter (`random` in [0, 1)), so 0.8 s to
 * 5 min. Tripling rather than the SDK's doubling (net/retry.ts): thousands of pages reconnect at once when a
 * server restarts, and they should be spread out quickly.
 */
export const reconnectDelay = (failures: number, random: number): number =>
  Math.min(RECONNECT_BASE_MS * 3 ** failures, RECONNECT_CAP_MS) * (0.8 + 0.4 * random);

/** What a {@link LiveStream} needs. */
export interface LiveStreamOptions {
  /** `{server}/v1/{envId}/stream`. */
  readonly url: string;
  readonly openStream: OpenStream;
  readonly logger: Pick<Logger, 'info' | 'warning' | 'debug'>;
  readonly timers: PollTimers;
  readonly random: () => number;
  /** The page's visibility (browsers); absent in Node, where a stream stays open. */
  readonly visibility?: Visibility | undefined;
  /** What goes on while the stream is down, for the log ("the bucketing file is polled every 60 s"). */
  readonly fallback: string;
  /** A `change` event arrived, with the revision it carries (its id). */
  onChange(revision: string): void;
  /** The stream opened again after an end or a hidden spell: a change may have been missed meanwhile. */
  onReconnect(): void;
  /**
   * Also call `onReconnect` when the stream first opens (bucketing mode: a change made between the first
   * download and the stream's opening would otherwise wait for the next poll; the refresh is a conditional
   * request, a 304 when nothing changed). It is called anyway when attempts failed before the first open.
   */
  readonly refreshOnFirstOpen?: boolean;
}

/** One stream, open from {@link LiveStream.start} to {@link LiveStream.close}, reopened as often as it ends. */
export class LiveStream {
  #controller: AbortController | null = null;
  #timer: unknown;
  #hideTimer: unknown;
  #failures = 0;
  #opened = false;
  #closed = false;
  /** Closed because its tab stayed hidden: reopened when the tab is shown again. */
  #suspended = false;
  #unwatch: (() => void) | undefined;
  /** The kinds of reconnect reasons logged at INFO already: the rest go to DEBUG. */
  readonly #told = new Set<string>();
  readonly #parser: EventStreamParser;

  constructor(private readonly options: LiveStreamOptions) {
    this.#parser = new EventStreamParser((event) => this.#event(event));
  }

  /** Opens the stream (or, in a hidden tab, starts the hidden countdown with it). */
  start(): void {
    const { visibility } = this.options;
    this.#unwatch = visibility?.onChange((hidden) => this.#visibility(hidden));
    void this.#connect();
    if (visibility?.hidden() === true) this.#visibility(true);
  }

  /** Ends the stream and every timer; nothing reopens it. */
  close(): void {
    this.#closed = true;
    this.#unwatch?.();
    this.#stop();
    this.options.timers.clearTimeout(this.#hideTimer);
  }

  /** Aborts the open stream, if any, and the reconnect timer. */
  #stop(): void {
    this.options.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    const controller = this.#controller;
    this.#controller = null;
    controller?.abort();
  }

  #visibility(hidden: boolean): void {
    const { timers, logger } = this.options;
    if (this.#closed) return;
    timers.clearTimeout(this.#hideTimer);
    if (hidden) {
      this.#hideTimer = timers.setTimeout(() => {
        this.#suspended = true;
        this.#stop();
        logger.debug('live updates: the tab stayed hidden 20 s: the stream is closed until it is shown.');
      }, HIDDEN_CLOSE_MS);
    } else if (this.#suspended) {
      this.#suspended = false;
      this.#failures = 0;
      void this.#connect();
    }
  }

  async #connect(): Promise<void> {
    const { options } = this;
    const controller = (this.#controller = new AbortController());
    this.#timer = undefined;
    const parser = this.#parser;
    parser.reset();
    const id = parser.lastEventId;
    // Set by the callbacks (an object: TypeScript would narrow a variable to its initial `null` here).
    const seen: { head: StreamHead | null; alive: boolean; ended: string | null } = {
      head: null,
      alive: false,
      ended: null,
    };
    let failed: string | null = null;
    try {
      await options.openStream(
        {
          url: options.url,
          headers: { accept: 'text/event-stream', ...(id === '' ? {} : { 'last-event-id': id }) },
          signal: controller.signal,
        },
        {
          open: (answer) => {
            seen.head = answer;
            if (!answer.ok) return;
            // A 200 that is not an event stream (a site's catch-all page at the stream's path) is no stream:
            // taken as open, it would reset the backoff and refresh every visitor at each reconnect.
            const type = answer.headers.get('content-type') ?? '';
            if (!/^text\/event-stream/i.test(type)) {
              seen.ended = `the answer is ${type === '' ? 'not typed' : `"${type}"`}, not text/event-stream: is the server URL the feature server's?`;
              controller.abort();
              return;
            }
            this.#open();
          },
          chunk: (text) => {
            if (seen.ended !== null) return;
            // A complete line, a ping included, shows a stream that stays up: the backoff starts over after it.
            if (text.includes('\n') || text.includes('\r')) seen.alive = true;
            parser.feed(text);
          },
        },
      );
    } catch (error) {
      // Closed by `close` or the tab being hidden, unless this attempt ended itself (see `seen.ended`).
      if (controller.signal.aborted && seen.ended === null) return;
      if (seen.ended === null) failed = fetchError(error, options.url);
    }
    if (controller !== this.#controller || this.#closed) return;
    this.#controller = null;
    if (seen.alive) this.#failures = 0;
    const head = seen.head;
    if (seen.ended !== null) this.#retry(seen.ended, 'not-a-stream', null);
    else if (head !== null && !head.ok) {
      const asked = parseRetryAfter(head.headers.get('retry-after'), Date.now());
      // A 404 is most often a wrong env id, or a server older than live updates: the log says so.
      const hint = head.status === 404 ? ': an unknown environment, or a server without live updates' : '';
      this.#retry(`the server answered ${head.status}${hint}`, `status-${head.status}`, asked);
    } else if (failed !== null) this.#retry(`the stream failed: ${failed}`, 'network', null);
    else this.#retry('the server ended the stream', 'ended', null);
  }

  #open(): void {
    const { logger, url, refreshOnFirstOpen = false } = this.options;
    const again = this.#opened;
    this.#opened = true;
    // Attempts failed before this first open: what changed meanwhile reached nobody.
    const missed = again || this.#failures > 0;
    const message = `live updates: the stream ${shownUrl(url)} is open${again ? ' again' : ''}${missed ? ': re-fetching, since a change may have been missed' : ''}.`;
    if (again) logger.debug(message);
    else logger.info(message, 'live:open');
    if (missed || refreshOnFirstOpen) this.options.onReconnect();
  }

  /** Schedules the next attempt: the backoff, or longer when the server asked for it (`Retry-After`). */
  #retry(why: string, kind: string, askedMs: number | null): void {
    const { options } = this;
    const backoff = reconnectDelay(this.#failures, options.random());
    const field = Math.min(this.#parser.retryMs ?? 0, MAX_RETRY_FIELD_MS);
    const delayMs = Math.round(Math.max(backoff, askedMs ?? 0, field));
    this.#failures++;
    const message = `live updates: reconnecting in ${delayMs} ms (${why}); meanwhile ${options.fallback}.`;
    if (this.#told.has(kind)) options.logger.debug(message);
    else {
      this.#told.add(kind);
      options.logger.info(message);
    }
    this.#timer = options.timers.setTimeout(() => void this.#connect(), delayMs);
  }

  #event(event: StreamEvent): void {
    if (event.type !== 'change' || this.#closed) return;
    this.options.logger.info(`live updates: change ${event.lastEventId || '(no revision)'} received.`);
    this.options.onChange(event.lastEventId);
  }
}
