// CORS of the SDK-facing routes (PROTOCOL.md §2.3): any origin, on every answer (304 and errors included,
// so a browser can read them), and a preflight answer for every path under those prefixes.
import type { FastifyInstance } from 'fastify';

/** The headers every SDK-facing answer carries. */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, X-Api-Key, X-Sdk-Client, X-Sdk-Version, If-None-Match, If-Modified-Since',
  'access-control-max-age': '7200',
  'access-control-expose-headers': 'ETag, Last-Modified, Retry-After',
});

/**
 * The live-update stream's (§17): the SDK-facing headers, plus Last-Event-ID among the allowed request headers.
 * A browser's EventSource sends it without a preflight, but an EventSource polyfill built on fetch sends it as
 * an ordinary header, which a preflight must allow, or the reconnect is refused by the browser.
 */
export const STREAM_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...CORS_HEADERS,
  'access-control-allow-headers': `${CORS_HEADERS['access-control-allow-headers'] ?? ''}, Last-Event-ID`,
});

/** The stream route's path (`/v1/{envId}/stream`), with or without a query: one segment between. */
const STREAM_PATH = /^\/v1\/[^/?]+\/stream\/?(?:\?|$)/;

/** True for the URL of the live-update stream (§17), the one CORS route under the remote control's `/v1/`. */
export const isStream = (url: string): boolean => STREAM_PATH.test(url);

/**
 * OFREP's routes (§18) carry the SDK routes' CORS, and also allow `Authorization`: OpenFeature's web providers
 * send the API key as a bearer token from pages of any origin.
 */
export const OFREP_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...CORS_HEADERS,
  'access-control-allow-headers': `${CORS_HEADERS['access-control-allow-headers'] ?? ''}, Authorization`,
});

/** True for the URL of an OFREP route (§18), as sent. */
export const isOfrep = (url: string): boolean => url.startsWith('/ofrep/');

/** What the SDK bundles under `/sdk/` carry: module scripts load in CORS mode from any origin (§2.3). */
export const SDK_BUNDLE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
});

/**
 * True for the URL of an SDK-facing route (§3-§6, §12), as sent: `/events%…` counts too, so that a hit URL
 * whose percent-encoding is broken gets its 400 with CORS, readable by the browser that sent it.
 */
export const isSdkFacing = (url: string): boolean =>
  url.startsWith('/v2/') ||
  url === '/events' ||
  url.startsWith('/events/') ||
  url.startsWith('/events?') ||
  url.startsWith('/events%') ||
  url.startsWith('/cdn/');

/**
 * The cross-origin headers of any answer to `url`, errors included: CORS on SDK-facing routes, the bundle
 * headers under `/sdk/`, none elsewhere (token, remote control and operator routes send none).
 */
export const crossOriginHeadersOf = (url: string): Readonly<Record<string, string>> | null =>
  isSdkFacing(url)
    ? CORS_HEADERS
    : isStream(url)
      ? STREAM_CORS_HEADERS
      : isOfrep(url)
        ? OFREP_CORS_HEADERS
        : url.startsWith('/sdk/')
          ? SDK_BUNDLE_HEADERS
          : null;

/** Adds the CORS headers to SDK-facing and OFREP answers and answers their preflights. */
export const registerCors = (app: FastifyInstance): void => {
  app.addHook('onRequest', (request, reply, done) => {
    if (isSdkFacing(request.url)) void reply.headers(CORS_HEADERS);
    else if (isStream(request.url)) void reply.headers(STREAM_CORS_HEADERS);
    else if (isOfrep(request.url)) void reply.headers(OFREP_CORS_HEADERS);
    done();
  });
  for (const url of ['/v2/*', '/events', '/events/*', '/cdn/*', '/v1/:envId/stream', '/ofrep/*']) {
    app.options(url, async (_request, reply) => reply.code(204).send());
  }
};
