// `#transport` in browsers and wherever the `node` condition is absent: the platform's `fetch`.
import type { TransportRequest, TransportResponse } from './transport.js';

/**
 * {@link Transport} through `fetch`. `no-store` keeps the browser's HTTP cache out of every request: the
 * bucketing file poller sends its own validators and must see a 304 as a 304, never a 200 replayed from the
 * browser's copy; the other requests are POSTs, which no cache answers.
 */
export const send = async (request: TransportRequest): Promise<TransportResponse> => {
  const res = await fetch(request.url, {
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    cache: 'no-store',
    signal: request.signal,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { status: res.status, ok: res.ok, headers: res.headers, body: await res.text() };
};
