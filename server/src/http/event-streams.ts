// The open live-update streams of one app (PROTOCOL.md §17): what one costs is a response, a number and a set
// entry, so that a process holds thousands. One timer pings them all (a comment every interval keeps proxies
// from closing an idle stream), rather than a timer per stream; the count is what FEATURE_MAX_STREAMS bounds.
import type { ServerResponse } from 'node:http';

/** How often an open stream gets a `: ping` comment by default (§17: every 25 s). */
export const DEFAULT_PING_INTERVAL_MS = 25_000;

const PING = ': ping\n\n';

/**
 * Unread bytes past which a client is taken as gone: events are a few hundred bytes a change, so a client this
 * far behind does not read at all. Its stream is destroyed rather than left to buffer; a live one reconnects.
 */
const MAX_UNREAD_BYTES = 64 * 1024;

/** What a `change` event says (§17): the revision, and the bucketing file's ETag and Last-Modified now. */
export interface ChangeFields {
  revision: number;
  etag: string;
  lastModified: string;
}

/**
 * How a stream names its events: `change` (§17, what our SDKs listen to) or none, which EventSource delivers
 * as `message`: the only event OFREP's providers listen to (§18 names the stream with `?event=message`).
 */
export type StreamEventName = 'change' | 'message';

/** The text of a change event, exactly as §17 shows it (with `event: change`, or with no event name). */
export const changeEventText = (fields: ChangeFields, name: StreamEventName = 'change'): string =>
  `id: ${fields.revision}\n${name === 'change' ? 'event: change\n' : ''}data: ${JSON.stringify({
    type: 'refetchEvaluation',
    etag: fields.etag,
    lastModified: fields.lastModified,
  })}\n\n`;

/** A change event as sent: its revision and its text in each naming, written once for every stream it goes to. */
export interface ChangeEvent {
  revision: number;
  text: Readonly<Record<StreamEventName, string>>;
}

/** The event of `fields`. */
export const changeEvent = (fields: ChangeFields): ChangeEvent => ({
  revision: fields.revision,
  text: { change: changeEventText(fields, 'change'), message: changeEventText(fields, 'message') },
});

/** One open stream: its response and the revision it last told its client of. */
export class LiveStream {
  readonly #response: ServerResponse;
  readonly #eventName: StreamEventName;
  #revision: number;

  /**
   * `revision`: what the client is known to have (an event is sent only for a newer one); `eventName`: how
   * its events are named.
   */
  constructor(response: ServerResponse, revision: number, eventName: StreamEventName = 'change') {
    this.#response = response;
    this.#revision = revision;
    this.#eventName = eventName;
  }

  /** The revision the client was last told of (or had when it connected). */
  get revision(): number {
    return this.#revision;
  }

  /** Sends `event` when its revision is newer than the last one sent; a stream never goes back or repeats. */
  offer(event: ChangeEvent): boolean {
    if (event.revision <= this.#revision) return false;
    this.#revision = event.revision;
    this.write(event.text[this.#eventName]);
    return true;
  }

  /** Writes raw event-stream text, unless the stream has ended or its client stopped reading. */
  write(text: string): void {
    const response = this.#response;
    if (response.writableEnded || response.destroyed) return;
    if (response.writableLength > MAX_UNREAD_BYTES) {
      response.destroy();
      return;
    }
    response.write(text);
  }

  /** Ends the stream (the client's EventSource reconnects, to this instance or another). */
  end(): void {
    if (!this.#response.writableEnded) this.#response.end();
  }
}

/** The streams an app holds open, bounded by `limit`, pinged every `pingIntervalMs`. */
export class OpenStreams {
  /** At most this many open at once (FEATURE_MAX_STREAMS). */
  readonly limit: number;
  readonly #pingIntervalMs: number;
  readonly #streams = new Set<LiveStream>();
  #pinger: NodeJS.Timeout | null = null;

  constructor(options: { limit: number; pingIntervalMs?: number }) {
    this.limit = options.limit;
    this.#pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
  }

  /** Open streams now. */
  get size(): number {
    return this.#streams.size;
  }

  /** True while one more stream fits under the limit. */
  hasRoom(): boolean {
    return this.#streams.size < this.limit;
  }

  /** Counts `stream` as open (and pinged) until `delete`. */
  add(stream: LiveStream): void {
    this.#streams.add(stream);
    // unref: pings must not keep a stopping process alive.
    this.#pinger ??= setInterval(() => this.#ping(), this.#pingIntervalMs).unref();
  }

  /** Forgets `stream` (closed by its client or by the server); the timer stops with the last one. */
  delete(stream: LiveStream): void {
    this.#streams.delete(stream);
    if (this.#streams.size === 0 && this.#pinger !== null) {
      clearInterval(this.#pinger);
      this.#pinger = null;
    }
  }

  /** Ends every open stream: on shutdown, so that closing does not wait for clients that never leave. */
  endAll(): void {
    for (const stream of [...this.#streams]) {
      stream.end();
      this.delete(stream);
    }
  }

  #ping(): void {
    for (const stream of this.#streams) stream.write(PING);
  }
}
