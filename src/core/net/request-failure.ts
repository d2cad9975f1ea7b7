// Failure messages of the SDK's requests (decision API, bucketing file, tracking, usage) name the request they
// were, so a wrong server URL or env id shows in the first log line.

/**
 * A URL as failure messages show it: origin and path, without the user info, query or fragment that may hold
 * a secret. The SDK's own URLs hold none (the API key travels in a header), but a configured server URL could.
 */
export const shownUrl = (url: string): string => {
  try {
    const { origin, pathname } = new URL(url);
    return origin + pathname;
  } catch {
    // Not absolute (the configuration refuses such URLs, but callers never throw for a message's sake).
    return url.replace(/[?#][^]*/, '');
  }
};

/**
 * What a failed `fetch` of `url` says, with its cause (Node's "fetch failed" keeps the real error, such as
 * ECONNREFUSED, there), and `url` shown as {@link shownUrl} shows it: fetch's own message may quote the URL
 * ("Request cannot be constructed from a URL that includes credentials: …").
 */
export const fetchError = (error: unknown, url: string, hint?: ServerHint | null): string => {
  const message = (
    error instanceof Error && error.cause instanceof Error
      ? `${String(error)} (${error.cause.message})`
      : String(error)
  )
    .split(url)
    .join(shownUrl(url));
  const advice = hint?.(error, url);
  return advice ? `${message}. ${advice}` : message;
};

/**
 * What a failure message adds, if anything, for a request's error: when no server could be reached at the
 * address the SDK took by default, what to set (Node: FEATURE_API_URL), so the first error line says it. Made
 * by the platform (`Platform.serverHint`); the Node one lives in net/unreachable.ts, so browsers carry none.
 */
export type ServerHint = (error: unknown, url: string) => string | null;
