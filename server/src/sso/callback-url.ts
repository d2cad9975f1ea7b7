// Where a provider sends the browser back: this server's callback, as the browser reaches it (behind a
// trusted proxy, the proxy's scheme and host: TRUST_PROXY). The provider compares it with the redirect URI
// registered for the client, so a forged Host header only makes the provider refuse the sign-in.
import type { FastifyRequest } from 'fastify';

/** The callback route's path. */
export const CALLBACK_PATH = '/admin/sso/callback';

/** The callback URL of `request`'s origin. */
export const callbackUrlOf = (request: FastifyRequest): string =>
  `${request.protocol}://${request.host}${CALLBACK_PATH}`;

/** The URL `request` was made to, with its query (what openid-client reads the provider's answer from). */
export const currentUrlOf = (request: FastifyRequest): URL =>
  new URL(request.url, `${request.protocol}://${request.host}`);
