// The SDK's one request with a timeout, for every request it makes: decisions (decision/api.ts), the bucketing
// file (decision/poller.ts), tracking (tracking/transport.ts) and usage statistics (usage/usage-hit.ts). It goes
// through `#transport` (package.json `imports`): `node:http` with keep-alive in Node, `fetch` elsewhere.
import { send } from '#transport';
import type { TransportRequest, TransportResponse } from './transport.js';

/** What a request sends besides its URL: method, headers, body. */
export type TransportInit = Omit<TransportRequest, 'url' | 'signal'>;

/**
 * `url` and its answer's body as text, given up after `timeoutMs` counted over the whole exchange, body
 * included (a server that stalls mid-body is no answer): the timer aborts `controller`, which the caller may
 * also abort (to stop), and reads afterwards to tell a timeout from a network error. Rejects as `fetch` does.
 */
export const fetchText = async (
  url: string,
  init: TransportInit,
  timeoutMs: number,
  controller: AbortController,
): Promise<[TransportResponse, string]> => {
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await send({ ...init, url, signal: controller.signal });
    return [res, res.body];
  } finally {
    clearTimeout(timer);
  }
};
