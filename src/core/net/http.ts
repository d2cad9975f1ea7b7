// The SDK's one fetch with a timeout, for every request it makes: decisions (decision/api.ts), the bucketing
// file (decision/poller.ts), tracking (tracking/transport.ts) and usage statistics (usage/usage-hit.ts).

/**
 * `fetch` of `url` and its body as text, given up after `timeoutMs` counted over the whole exchange, body
 * included (a server that stalls mid-body is no answer): the timer aborts `controller`, which the caller may
 * also abort (to stop), and reads afterwards to tell a timeout from a network error. Rejects as `fetch` does.
 */
export const fetchText = async (
  url: string,
  init: RequestInit,
  timeoutMs: number,
  controller: AbortController,
): Promise<[Response, string]> => {
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, { ...init, signal: controller.signal });
    return [res, await res.text()];
  } finally {
    clearTimeout(timer);
  }
};
