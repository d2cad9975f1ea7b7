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

/** True for the URL of an SDK-facing route (§3-§6, §12). */
export const isSdkFacing = (url: string): boolean =>
  url.startsWith('/v2/') ||
  url === '/events' ||
  url.startsWith('/events/') ||
  url.startsWith('/events?') ||
  url.startsWith('/cdn/');

/** Adds the CORS headers to SDK-facing answers and answers their preflights. */
export const registerCors = (app: FastifyInstance): void => {
  app.addHook('onRequest', (request, reply, done) => {
    if (isSdkFacing(request.url)) void reply.headers(CORS_HEADERS);
    done();
  });
  for (const url of ['/v2/*', '/events', '/events/*', '/cdn/*']) {
    app.options(url, async (_request, reply) => reply.code(204).send());
  }
};
