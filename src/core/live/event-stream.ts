// The text/event-stream format (WHATWG HTML, "Server-sent events", §9.2.6 "Interpreting an event stream"),
// parsed from pieces of text as they arrive: the live-update stream (PROTOCOL.md §17) goes through the SDK's
// own transport, not `EventSource`, so that Node reads it too and a refusal's status and `Retry-After` show.

/** One dispatched event. */
export interface StreamEvent {
  /** The `event` field; `message` when the server named none. */
  readonly type: string;
  /** The `data` lines joined with `\n`. */
  readonly data: string;
  /** The last event id as it stands after this event (ids persist across events, as the standard says). */
  readonly lastEventId: string;
}

/**
 * Feeds pieces of an event stream and dispatches whole events. A line may be split anywhere between two
 * pieces, CR LF included; a leading byte order mark is dropped; comments (`:`) and unknown fields are ignored.
 */
export class EventStreamParser {
  /** The id to send as `Last-Event-ID` on reconnect ("" until the server set one). */
  lastEventId = '';
  /** The `retry` field's last valid value in ms, or null when the server sent none. */
  retryMs: number | null = null;
  #buffer = '';
  #first = true;
  #skipLf = false;
  #data = '';
  #type = '';
  #hasData = false;

  constructor(private readonly dispatch: (event: StreamEvent) => void) {}

  /**
   * Forgets a half-read line or event: a new connection starts a new stream. The last event id and retry stay,
   * as the standard keeps them across reconnections.
   */
  reset(): void {
    this.#buffer = this.#data = this.#type = '';
    this.#first = true;
    this.#skipLf = this.#hasData = false;
  }

  /** Parses `text`, the next piece of the stream, dispatching each event it completes. */
  feed(text: string): void {
    let piece = text;
    if (this.#first && piece.length > 0) {
      this.#first = false;
      if (piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
    }
    // A CR ended the previous piece: an LF opening this one belongs to it.
    if (this.#skipLf && piece.startsWith('\n')) piece = piece.slice(1);
    this.#skipLf = false;
    let buffer = this.#buffer + piece;
    for (let end = buffer.search(/[\r\n]/); end !== -1; end = buffer.search(/[\r\n]/)) {
      const line = buffer.slice(0, end);
      let next = end + 1;
      if (buffer[end] === '\r') {
        if (next === buffer.length) this.#skipLf = true;
        else if (buffer[next] === '\n') next++;
      }
      buffer = buffer.slice(next);
      this.#line(line);
    }
    this.#buffer = buffer;
  }

  #line(line: string): void {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return; // a comment: the server's keep-alive ping
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#type = value;
        break;
      case 'data':
        this.#data += `${value}\n`;
        this.#hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default: // unknown fields are ignored
    }
  }

  #dispatch(): void {
    const type = this.#type;
    const data = this.#data;
    const hasData = this.#hasData;
    this.#type = '';
    this.#data = '';
    this.#hasData = false;
    // An event with no data is not dispatched; its id still counts (set above).
    if (!hasData) return;
    this.dispatch({ type: type || 'message', data: data.slice(0, -1), lastEventId: this.lastEventId });
  }
}
