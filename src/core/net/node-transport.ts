// `#transport` under the `node` condition: `node:http`/`node:https` with one keep-alive Agent per protocol.
// Node's `fetch` (undici) costs about three times the CPU per request (issue 33), so in Node the SDK's
// requests (decisions, bucketing file, tracking, usage) come here. What fetch did for free is done here:
// redirects, gzip/deflate/br, abort (the caller's timeout aborts the signal), and failures shaped as fetch's.
import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import type { StreamHandlers, TransportHeaders, TransportRequest, TransportResponse } from './transport.js';

/** fetch's limit (WHATWG Fetch, HTTP-redirect fetch step 5). */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// Keep-alive is the point: one TLS handshake per server instead of one per request. Idle sockets are unref'd
// by the Agent, so they never keep a process alive.
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

type Decoder = (body: Buffer) => Promise<Buffer>;
const gunzipAsync: Decoder = promisify(gunzip);
const inflateAsync: Decoder = promisify(inflate);
const inflateRawAsync: Decoder = promisify(inflateRaw);
const DECODERS: Record<string, Decoder> = {
  gzip: gunzipAsync,
  'x-gzip': gunzipAsync,
  // `deflate` should be zlib-wrapped (RFC 9110 §8.4.1.2), but some servers send it raw: fetch accepts both,
  // told apart by the zlib header's compression method (8) in the first byte's low bits.
  deflate: (body) => (((body[0] ?? 0) & 0x0f) === 8 ? inflateAsync(body) : inflateRawAsync(body)),
  br: promisify(brotliDecompress),
};
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Undoes `content-encoding` (codings applied in order, so undone last first). An unknown coding is kept as is, as fetch does. */
const decode = async (raw: Buffer, header: string): Promise<Buffer> => {
  const codings = header
    .toLowerCase()
    .split(',')
    .map((c) => c.trim());
  let body = raw;
  for (const coding of codings.reverse()) {
    const decoder = DECODERS[coding];
    if (decoder === undefined) return body;
    body = await decoder(body);
  }
  return body;
};

/** UTF-8 text without a leading byte order mark, as fetch's `text()` reads it (Buffer's decoder is the fast one). */
const text = (body: Buffer): string => {
  const decoded = body.toString('utf8');
  return decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
};

/** The answer's headers behind {@link TransportHeaders}: Node already lower-cases the names. */
const headersOf = (headers: IncomingHttpHeaders): TransportHeaders => ({
  get(name) {
    const value = headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  },
});

/** Reads, decodes and wraps the final answer (listeners rather than `for await`: a promise less per chunk). */
const read = (res: IncomingMessage): Promise<TransportResponse> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', reject);
    res.on('end', () => {
      const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const status = res.statusCode ?? 0;
      const answer = (body: Buffer): TransportResponse => ({
        status,
        ok: status > 199 && status < 300,
        headers: headersOf(res.headers),
        body: text(body),
      });
      const coding = res.headers['content-encoding'];
      // Most answers are not encoded: no zlib round trip, no promise.
      if (coding === undefined || raw.length === 0) resolve(answer(raw));
      else decode(raw, coding).then((body) => resolve(answer(body)), reject);
    });
  });

/** One hop's request, and the caller's signal (an aborted request is never sent again). */
interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal;
}

/**
 * Sends one hop and resolves with its answer's head. A kept-alive socket the server closed while idle fails
 * with ECONNRESET before any answer: that request never reached a handler, so it is sent once more on a new
 * socket (what Node's documentation advises for `reusedSocket`).
 */
const exchange = (hop: Hop, track: (req: ClientRequest) => void, retried = false): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    const secure = hop.url.protocol === 'https:';
    const headers =
      hop.body === undefined
        ? hop.headers
        : { ...hop.headers, 'content-length': String(Buffer.byteLength(hop.body)) };
    let answered = false;
    const req = (secure ? httpsRequest : httpRequest)(
      hop.url,
      { method: hop.method, headers, agent: secure ? httpsAgent : httpAgent },
      (res) => {
        answered = true;
        resolve(res);
      },
    );
    track(req);
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered && !retried && !hop.signal.aborted && req.reusedSocket && error.code === 'ECONNRESET')
        exchange(hop, track, true).then(resolve, reject);
      else reject(error);
    });
    req.end(hop.body);
  });

/** The next hop after a redirect answered `status` with `location`, as fetch goes (WHATWG Fetch, HTTP-redirect fetch). */
const redirected = (hop: Hop, status: number, location: string): Hop => {
  const url = new URL(location, hop.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`redirect to ${url.protocol}`);
  // 303 turns anything into a GET; 301 and 302 turn a POST into one (what browsers did before it was written).
  if (
    (status === 303 && hop.method !== 'GET') ||
    ((status === 301 || status === 302) && hop.method === 'POST')
  ) {
    const headers = { ...hop.headers };
    delete headers['content-type'];
    return { url, method: 'GET', headers, body: undefined, signal: hop.signal };
  }
  return { ...hop, url };
};

/** Follows redirects from `first` up to {@link MAX_REDIRECTS} and reads the final answer with `finish`. */
const follow = async <T>(
  first: Hop,
  track: (req: ClientRequest) => void,
  finish: (res: IncomingMessage) => Promise<T>,
): Promise<T> => {
  let hop = first;
  for (let redirects = 0; ; redirects++) {
    // Aborted while the previous hop drained: the next one is never sent.
    hop.signal.throwIfAborted();
    const res = await exchange(hop, track);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (!REDIRECTS.has(status) || location === undefined) return finish(res);
    // Drained, so the socket goes back to the Agent for the next hop.
    res.resume();
    if (redirects === MAX_REDIRECTS) throw new TypeError('redirect count exceeded');
    hop = redirected(hop, status, location);
  }
};

/**
 * One exchange of `request`, its headers over `defaults`, the final answer read by `finish`: aborts, URL
 * checks and failures shaped as fetch's, shared by {@link send} and {@link openStream}. `track` sees each hop's
 * request as it is made.
 */
const exchangeOf = <T>(
  request: TransportRequest,
  defaults: Record<string, string>,
  track: (req: ClientRequest) => void,
  finish: (res: IncomingMessage) => Promise<T>,
): Promise<T> => {
  const { signal } = request;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  // fetch refuses these rather than send the credentials as Basic authentication: so does this transport.
  let url: URL;
  try {
    url = new URL(request.url);
  } catch (error) {
    return Promise.reject(new TypeError(`Failed to parse URL from ${request.url}`, { cause: error }));
  }
  if (url.username !== '' || url.password !== '')
    return Promise.reject(
      new TypeError(`Request cannot be constructed from a URL that includes credentials: ${request.url}`),
    );
  return new Promise((resolve, reject) => {
    let current: ClientRequest | null = null;
    const onAbort = (): void => {
      current?.destroy(signal.reason as Error);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const first: Hop = {
      url,
      method: request.method ?? 'GET',
      headers: { ...defaults, ...request.headers },
      body: request.body,
      signal,
    };
    const hop = (req: ClientRequest): void => {
      current = req;
      track(req);
    };
    follow(first, hop, finish)
      .then(resolve, (error: unknown) => reject(new TypeError('fetch failed', { cause: error })))
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
};

/**
 * {@link Transport} through `node:http`/`node:https`. Rejects with `signal.reason` once `signal` aborts (the
 * socket is destroyed, body reading included), else with `TypeError: fetch failed` and the real error as its
 * `cause`, as Node's fetch does, so `fetchError` (request-failure.ts) words both the same.
 */
export const send = (request: TransportRequest): Promise<TransportResponse> =>
  exchangeOf(request, { accept: '*/*', 'accept-encoding': ACCEPT_ENCODING }, () => undefined, read);

/**
 * Hands a 2xx body to `handlers` as it arrives and resolves when it ends; the body of any other answer is
 * drained unread. A connection that breaks mid-body rejects: the caller tells that from a clean end in its log.
 */
const stream = (res: IncomingMessage, handlers: StreamHandlers): Promise<void> =>
  new Promise((resolve, reject) => {
    const status = res.statusCode ?? 0;
    const ok = status > 199 && status < 300;
    handlers.open({ status, ok, headers: headersOf(res.headers) });
    let ended = false;
    res.on('end', () => {
      ended = true;
      resolve();
    });
    res.on('error', reject);
    res.on('close', () => {
      if (!ended) reject(new Error('the connection closed before the answer ended'));
    });
    if (!ok) return void res.resume();
    // The decoder keeps a character split between two packets whole.
    res.setEncoding('utf8');
    res.on('data', (text: string) => {
      try {
        handlers.chunk(text);
      } catch (error) {
        res.destroy(error as Error);
      }
    });
  });

/**
 * {@link OpenStream} through `node:http`/`node:https`: the live-update stream in Node (PROTOCOL.md §17). Its
 * socket is unref'd: an open stream alone never keeps a process alive (a server's own work does). Asks for no
 * content coding: events must reach the parser as they are written, not when a compressor flushes.
 */
export const openStream = (request: TransportRequest, handlers: StreamHandlers): Promise<void> =>
  exchangeOf(
    request,
    { accept: 'text/event-stream', 'accept-encoding': 'identity' },
    (req) => req.on('socket', (socket) => socket.unref()),
    (res) => stream(res, handlers),
  );
