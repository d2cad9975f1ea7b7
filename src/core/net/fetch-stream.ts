// `#stream-transport` in browsers and wherever the `node` condition is absent: the live-update stream through
// `fetch`. Apart from fetch-transport.ts so that only the live-update chunk carries it; under the `node`
// condition `#stream-transport` names node-transport.ts, whose `openStream` uses `node:http`.
import type { StreamHandlers, TransportRequest } from './transport.js';

/**
 * {@link OpenStream} through `fetch` and the body's reader: unlike `EventSource`, it sends the headers the
 * SDK chooses and shows the status of a refusal (a 503's `Retry-After`), which the reconnect policy needs.
 * `no-store`, as every SDK request: no cache stands between the page and the stream.
 */
export const openStream = async (request: TransportRequest, handlers: StreamHandlers): Promise<void> => {
  const res = await fetch(request.url, {
    headers: request.headers ?? {},
    cache: 'no-store',
    signal: request.signal,
  });
  handlers.open({ status: res.status, ok: res.ok, headers: res.headers });
  const body = res.body;
  if (!res.ok || body === null) {
    await body?.cancel();
    return;
  }
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) handlers.chunk(read.value);
};
