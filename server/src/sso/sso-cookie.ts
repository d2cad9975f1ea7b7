// The cookie that binds a single sign-on to the browser that started it (sso-sign-in.ts says why it holds only
// a random value): HttpOnly; SameSite=Lax, so the browser sends it on the provider's top-level redirect back
// (a cross-site navigation, where Strict would drop it); scoped to /admin/sso; gone after 10 minutes, and
// cleared by the callback whatever its outcome.
import type { FastifyRequest } from 'fastify';

/** The cookie's name. */
export const SSO_COOKIE = 'feature_sso';

/** The sign-in value the request's Cookie header carries, or null. */
export const ssoCookieOf = (request: FastifyRequest): string | null => {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at === -1 || part.slice(0, at).trim() !== SSO_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    return /^fss_[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
  }
  return null;
};

const attributes = (request: FastifyRequest): string =>
  `Path=/admin/sso; HttpOnly; SameSite=Lax${request.protocol === 'https' ? '; Secure' : ''}`;

/** The Set-Cookie value of a started sign-in, until `expiresMs`. */
export const ssoCookie = (request: FastifyRequest, value: string, expiresMs: number, nowMs: number): string =>
  `${SSO_COOKIE}=${value}; ${attributes(request)}; Max-Age=${Math.max(0, Math.ceil((expiresMs - nowMs) / 1000))}`;

/** The Set-Cookie value that removes it. */
export const clearedSsoCookie = (request: FastifyRequest): string =>
  `${SSO_COOKIE}=; ${attributes(request)}; Max-Age=0`;
