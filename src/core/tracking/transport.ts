import { fetchError, shownUrl } from '../request-failure.js';

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
}

/** Statuses where sending the same body again cannot succeed (PROTOCOL.md §5.3). */
const HOPELESS = [400, 404, 413, 415];

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, as ms from `now`. Null when
 * absent or unreadable, so the caller falls back to its own backoff.
 */
export const parseRetryAfter = (value: string | null, now: number): number | null => {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP-date form names a day or month: without letters it is neither form, whatever Date.parse says.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
};

/**
 * Sorts an answer (PROTOCOL.md §5.3): 2xx ok, 400/404/413/415 drop, anything else retry (429 and 5xx, and
 * also 401/403 and the unexpected, since a key fixed or a server repaired within 4 hours saves the items).
 */
export const classifyAnswer = (
  status: number,
  text: string,
  retryAfter: string | null,
  now: number,
): SendResult => {
  if (status > 199 && status < 300) {
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // A 2xx without a readable body (204) still acknowledges every item: the server stored them.
    }
    return { kind: 'ok', status, body };
  }
  // The error body's message says what is wrong (PROTOCOL.md §2.4); the start of it is enough for a log.
  const reason = `HTTP ${status} ${text.slice(0, 300)}`;
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
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const answer = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': options.contentType, ...options.headers },
      signal: controller.signal,
    });
    const text = await answer.text();
    const result = classifyAnswer(answer.status, text, answer.headers.get('retry-after'), Date.now());
    return result.kind === 'ok' ? result : { ...result, reason: request + result.reason };
  } catch (error) {
    const reason = controller.signal.aborted
      ? `no answer within ${options.timeoutMs} ms`
      : `network error: ${fetchError(error, url)}`;
    return { kind: 'retry', retryAfterMs: null, reason: request + reason };
  } finally {
    clearTimeout(timer);
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
