// The root-path aliases of the platform's own SDKs (PROTOCOL.md §2.6). Those SDKs call fixed hosts: the
// decision host (`/v2/…`, the same paths as ours), the CDN host (`GET /{envId}/bucketing.json`) and the
// events host (`POST /`, `/analytics`, `/troubleshooting`, `/emotionsai`). Point the three host names at
// this server (DNS or a TLS proxy that keeps paths) and the requests arrive here with the platform's paths;
// this module maps them to our prefixed routes before routing (fastify's `rewriteUrl`).
//
// The mapping is by method and path, never by Host, so it works whatever name the server is reached by, and
// each alias is a path none of our own routes has: `GET /` stays the demo page (only `POST /` is the events
// host's), and `/{segment}/bucketing.json` is an alias only when the segment is an id (§1) that is not one of
// our own first path segments (`/sdk/bucketing.json` stays a file of the SDK bundles).
import type { IncomingMessage } from 'node:http';

/** Our own first path segments: a CDN alias never starts with one of them. */
export const OWN_FIRST_SEGMENTS: ReadonlySet<string> = new Set([
  'v1',
  'v2',
  'cdn',
  'events',
  'oauth',
  'admin',
  'sdk',
  'demo',
  'docs',
]);

// The CDN host's files: `/{envId}/bucketing.json`, `/{envId}/accountSettings.json` (ids as in §1).
const CDN_FILE = /^\/([A-Za-z0-9_-]{1,64})\/(?:bucketing|accountSettings)\.json\/?(?:\?|$)/;
// The events host's routes: `/` (hits), `/analytics` (usage), `/troubleshooting`, `/emotionsai`.
const EVENTS_PATH = /^\/(?:analytics|troubleshooting|emotionsai)?\/?(?:\?|$)/;

const CDN_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const EVENTS_METHODS = new Set(['POST', 'OPTIONS']);

/**
 * The URL a request of the platform's SDKs is served at: `/cdn` before a CDN file path, `/events` before an
 * events path (`/` → `/events`); any other URL unchanged. Pure, for the router and for tests.
 */
export const platformUrl = (method: string, url: string): string => {
  if (CDN_METHODS.has(method)) {
    const file = CDN_FILE.exec(url);
    if (file !== null && !OWN_FIRST_SEGMENTS.has(file[1] ?? '')) return `/cdn${url}`;
  }
  if (EVENTS_METHODS.has(method) && EVENTS_PATH.test(url)) {
    // `/` and `/?…` become `/events` and `/events?…`; `/analytics` becomes `/events/analytics`.
    return url === '/' || url.startsWith('/?') ? `/events${url.slice(1)}` : `/events${url}`;
  }
  return url;
};

/** fastify's `rewriteUrl` option: serves the platform's root paths (§2.6) at our routes. */
export const rewritePlatformUrl = (request: IncomingMessage): string => {
  const url = request.url ?? '/';
  return platformUrl(request.method ?? 'GET', url);
};
