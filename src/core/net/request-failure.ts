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
  return hint && url.startsWith(hint.base) && unreachable(error) ? `${message}. ${hint.text}` : message;
};

/**
 * What a failure message adds when a request found no server at the address the SDK took by default, so the
 * first error line says what to set (Node: FEATURE_API_URL). Made by the platform (`Platform.serverHint`).
 */
export interface ServerHint {
  /** The default server URL: only requests under it get the hint (a URL set in the config gets none). */
  readonly base: string;
  /** What to do, in one sentence. */
  readonly text: string;
}

/** Node's error codes for a server that cannot be reached: nothing listens, no such host, no route. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
]);

/**
 * Whether a failed request's error says no server could be reached (not one that answered badly): its code, or
 * that of its causes, or of the attempts of an `AggregateError` (Node tries each address of a host).
 */
export const unreachable = (error: unknown, depth = 0): boolean => {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
  if (Array.isArray(errors) && errors.some((inner) => unreachable(inner, depth + 1))) return true;
  return unreachable(cause, depth + 1);
};
