// The credentials of the remote control API (PROTOCOL.md §13.7): client ids, client secrets and tokens are
// random strings with a recognisable prefix (so a leaked one is easy to grep for and to revoke); secrets and
// tokens are stored only as SHA-256 digests (ids.ts), because a slow hash adds cost and no safety to values
// with 256 random bits.
import { randomBytes } from 'node:crypto';

/** A new client id: `ffc_` + 16 random bytes, base64url. Not secret. */
export const newClientId = (): string => `ffc_${randomBytes(16).toString('base64url')}`;

/** A new client secret: `ffs_` + 32 random bytes, base64url. Shown once, stored as a digest. */
export const newClientSecret = (): string => `ffs_${randomBytes(32).toString('base64url')}`;

/** A new access token: `fft_` + 32 random bytes, base64url. Returned once, stored as a digest. */
export const newAccessToken = (): string => `fft_${randomBytes(32).toString('base64url')}`;

/** True when `value` has the shape of a token this server issues (checked before any lookup). */
export const looksLikeAccessToken = (value: string): boolean => /^fft_[A-Za-z0-9_-]{43}$/.test(value);
