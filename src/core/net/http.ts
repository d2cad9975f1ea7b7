// The SDK's fetch with a timeout, for the requests made after the first render: the bucketing file
// (decision/poller.ts) and tracking (tracking/transport.ts). The decision request (decision/api.ts) keeps the
// same few lines inline: importing this module there costs the start bytes about 40 gzipped bytes (a shared
// module and its call), which its budget has no room for; a lazily loaded chunk holds this one.

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
