import { isJsonObject } from '../../protocol/index.js';
import { fetchText } from '../net/http.js';
import { fetchError, shownUrl, type ServerHint } from '../net/request-failure.js';
import { parseRetryAfter } from '../net/retry.js';

// Kept here for the tracking manager: the retry policy itself lives in ../net/retry.ts.
export { parseRetryAfter };

/**
 * How a tracking request ended, already sorted by what the tracker must do (PROTOCOL.md §5.3):
 * `ok` removes the items, `drop` removes them too (retrying cannot help), `retry` keeps them.
 */
export type SendResult =
  | { kind: 'ok'; status: number; body: unknown }
  | { kind: 'drop'; status: number; reason: string }
  | { kind: 'retry'; retryAfterMs: number | null; reason: string };

/** Options of {@link postText}. */
export interface PostOptions {
  /** `application/json`, or `text/plain` for JSON text (a CORS-safelisted type: no preflight). */
  contentType: 'application/json' | 'text/plain';
  /** Extra request headers (`x-api-key`). */
  headers?: Record<string, string>;
  /** Aborts the request, body included, after this many ms. */
  timeoutMs: number;
  /** Said in the reason when no server could be reached at the default address. */
  serverHint?: ServerHint | null | undefined;
}

/** Statuses where sending the same body again cannot succeed (PROTOCOL.md §5.3). */
const HOPELESS = [400, 404, 413, 415];

/**
 * Sorts an answer (PROTOCOL.md §5.3): 2xx ok, 400/404/413/415 drop, anything else retry (429 and 5xx, and
 * also 401/403 and the unexpected, since a key fixed or a server repaired within 4 hours saves the items).
 * A 2xx acknowledges only with an empty body (§4's 204) or a JSON object (§4, §5.2): any other body came from
 * something in between (a proxy, a captive portal), not from a server that stored the items, so they are
 * sent again, which is safe since the server counts each `hid` once (§5.4).
 */
export const classifyAnswer = (
  status: number,
  text: string,
  retryAfter: string | null,
  now: number,
): SendResult => {
  // The error body's message says what is wrong (PROTOCOL.md §2.4); the start of it is enough for a log.
  const reason = `HTTP ${status} ${text.slice(0, 300)}`;
  if (status > 199 && status < 300) {
    let body: unknown = null;
    try {
      if (text !== '') body = JSON.parse(text);
    } catch {
      // not JSON: no acknowledgement, like JSON that is not an object
    }
    return text === '' || isJsonObject(body)
      ? { kind: 'ok', status, body }
      : { kind: 'retry', retryAfterMs: null, reason: `${reason} (not an acknowledgement)` };
  }
  return HOPELESS.includes(status)
    ? { kind: 'drop', status, reason }
    : { kind: 'retry', retryAfterMs: parseRetryAfter(retryAfter, now), reason };
};

/**
 * POSTs `body` and classifies the outcome; never throws (network errors and timeouts are `retry`). Every
 * failure's reason starts with the request (`POST {url}: `), so the log line says which server failed.
 */
export const postText = async (url: string, body: string, options: PostOptions): Promise<SendResult> => {
  const request = `POST ${shownUrl(url)}: `;
  const { contentType, headers, timeoutMs } = options;
  const controller = new AbortController();
  try {
    const [res, text] = await fetchText(
      url,
      { method: 'POST', body, headers: { 'content-type': contentType, ...headers } },
      timeoutMs,
      controller,
    );
    const result = classifyAnswer(res.status, text, res.headers.get('retry-after'), Date.now());
    return result.kind === 'ok' ? result : { ...result, reason: request + result.reason };
  } catch (error) {
    const reason = controller.signal.aborted
      ? `no answer within ${timeoutMs} ms`
      : `network error: ${fetchError(error, url, options.serverHint)}`;
    return { kind: 'retry', retryAfterMs: null, reason: request + reason };
  }
};

/**
 * Sends `body` while the page goes away: `navigator.sendBeacon` (a string body goes as `text/plain`), else
 * `fetch` with `keepalive`. Fire and forget: nobody is left to read an answer, so nothing is acknowledged.
 */
export const sendBeacon = (url: string, body: string): void => {
  if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
    // false means the browser refused to queue it (quota): try the keepalive fetch instead.
    if (navigator.sendBeacon(url, body)) return;
  }
  fetch(url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain' } }).catch(
    () => undefined,
  );
};
