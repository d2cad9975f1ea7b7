// The console's session cookie: HttpOnly (scripts never read it), SameSite=Strict (no other site's page makes
// the browser send it), Secure when the console is reached over HTTPS, and scoped to /admin, the only paths
// that read it. Parsed by hand: one cookie of a known shape does not earn a dependency.
import type { FastifyRequest } from 'fastify';

/** The cookie's name. */
export const SESSION_COOKIE = 'feature_console';

/** The session id the request's Cookie header carries, or null. */
export const sessionIdOf = (request: FastifyRequest): string | null => {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at === -1) continue;
    if (part.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    // Our ids are base64url with a prefix: anything else is not one of ours.
    return /^fcs_[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
  }
  return null;
};

const attributes = (request: FastifyRequest): string =>
  `Path=/admin; HttpOnly; SameSite=Strict${request.protocol === 'https' ? '; Secure' : ''}`;

/** The Set-Cookie value that gives the browser a session until `expiresMs`. */
export const sessionCookie = (
  request: FastifyRequest,
  id: string,
  expiresMs: number,
  nowMs: number,
): string =>
  `${SESSION_COOKIE}=${id}; ${attributes(request)}; Max-Age=${Math.max(0, Math.floor((expiresMs - nowMs) / 1000))}`;

/** The Set-Cookie value that removes the session cookie. */
export const clearedSessionCookie = (request: FastifyRequest): string =>
  `${SESSION_COOKIE}=; ${attributes(request)}; Max-Age=0`;
