// The shape of the SDK's one request primitive. Two implementations sit behind the `#transport` import
// (package.json `imports`): `fetch` everywhere by default (fetch-transport.ts), and `node:http`/`node:https`
// with keep-alive under the `node` condition (node-transport.ts), which costs a third of fetch's CPU per
// request in Node (issue 33). Browser bundles resolve without the `node` condition, so they carry none of it.

/** One request the SDK makes: decisions, the bucketing file, tracking, usage statistics. */
export interface TransportRequest {
  /** `GET` unless given. */
  method?: 'GET' | 'POST';
  /** An absolute http(s) URL. */
  url: string;
  /** Request headers, lower-case names. */
  headers?: Record<string, string>;
  /** The body, sent as UTF-8. */
  body?: string;
  /** Aborts the whole exchange, body included: the caller's timeout or stop. */
  signal: AbortSignal;
}

/** The answer's headers as the SDK reads them (retry-after, etag, last-modified, content-type). */
export interface TransportHeaders {
  /** The header's value (several values joined by ", "), or null when absent. Names are case-insensitive. */
  get(name: string): string | null;
}

/** An answer, after redirects were followed and the body decoded (gzip, deflate, br) and read as text. */
export interface TransportResponse {
  /** The final status. */
  status: number;
  /** True for a 2xx status. */
  ok: boolean;
  /** The final answer's headers. */
  headers: TransportHeaders;
  /** The body as UTF-8 text. */
  body: string;
}

/**
 * Sends one request. Rejects as `fetch` does: an `AbortError` once `signal` aborts, a `TypeError` ("fetch
 * failed", the real error as its `cause`) when no answer came, so failure messages and retries read the same
 * whichever implementation ran.
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** The head of a streamed answer: what `openStream` tells before the first chunk. */
export interface StreamHead {
  /** The final status. */
  status: number;
  /** True for a 2xx status. */
  ok: boolean;
  /** The final answer's headers. */
  headers: TransportHeaders;
}

/** What `openStream` calls as the answer arrives. */
export interface StreamHandlers {
  /** The answer's head, once, before any chunk. The body of a non-2xx answer is not read. */
  open(head: StreamHead): void;
  /** A piece of a 2xx body, decoded as UTF-8 (a character split across two pieces is kept whole). */
  chunk(text: string): void;
}

/**
 * Opens one long-lived GET and hands its body over piece by piece as it arrives (the live-update stream,
 * PROTOCOL.md §17). Resolves when the server ends the answer; rejects as {@link Transport} does (an
 * `AbortError` once `signal` aborts, which is how the caller closes the stream; a `TypeError` when no answer
 * came or the connection broke). No timeout: a stream is meant to stay open.
 */
export type OpenStream = (request: TransportRequest, handlers: StreamHandlers) => Promise<void>;
