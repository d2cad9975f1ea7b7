// Node only (imported by platform/node.ts): telling "no server could be reached" from "a server answered
// badly", for the hint a failure message gets when the SDK chose the server's address itself.
import type { ServerHint } from './request-failure.js';

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
 * Whether a failed request's error says no server could be reached: its code, or that of its causes, or of
 * the attempts of an `AggregateError` (Node tries each address of a host in turn).
 */
export const unreachable = (error: unknown, depth = 0): boolean => {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
  if (Array.isArray(errors) && errors.some((inner) => unreachable(inner, depth + 1))) return true;
  return unreachable(cause, depth + 1);
};

/** A hint that says `text` for the requests under `base` that reached no server, and nothing otherwise. */
export const unreachableHint =
  (base: string, text: string): ServerHint =>
  (error, url) =>
    url.startsWith(base) && unreachable(error) ? text : null;
