// Request bodies: JSON text under `application/json` or `text/plain` (sendBeacon sends the latter), read as
// bytes within the route's byte limit (fastify counts while reading and stops at the limit), refused unless
// they are UTF-8 (§1: a byte that is not would be stored as U+FFFD, not as sent), parsed, and refused when a
// key could reach an object's prototype (PROTOCOL.md §2.1).
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.js';

/** The body limit of the activation, hit and usage routes (§2.1). */
export const COLLECT_BODY_LIMIT = 3 * 1024 * 1024;

/** The request content types of the SDK-facing routes (§2.1). */
export const JSON_OR_TEXT = ['application/json', 'text/plain'] as const;

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** The path of the first forbidden key in a parsed JSON value, or null. */
export const findForbiddenKey = (value: unknown, path = ''): string | null => {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findForbiddenKey(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const key of Object.keys(value)) {
    const here = path === '' ? key : `${path}.${key}`;
    if (FORBIDDEN.has(key)) return here;
    const found = findForbiddenKey((value as Record<string, unknown>)[key], here);
    if (found !== null) return found;
  }
  return null;
};

// The full walk only runs when the text could hold such a key, spelled out or with escapes.
const MAY_HOLD_FORBIDDEN = /__proto__|constructor|prototype|\\u/;

/** How deep JSON values may nest in a body (§2.1); every walk of a body is bounded by it. */
export const MAX_BODY_DEPTH = 64;

/**
 * The deepest nesting of `text`, counted on the text itself (brackets outside strings), so a 10 000-deep body
 * is refused before anything recurses into it. Stops counting past the limit.
 */
const nestingDepth = (text: string): number => {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > deepest) deepest = depth;
      if (deepest > MAX_BODY_DEPTH) return deepest;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
};

/** Parses a JSON body text; throws the §2.4 errors. */
export const parseJsonBody = (text: string): unknown => {
  // Nesting deeper than the limit needs at least twice as many brackets as the limit.
  if (text.length > 2 * MAX_BODY_DEPTH && nestingDepth(text) > MAX_BODY_DEPTH)
    throw errors.invalidBody('(body)', `nests deeper than ${MAX_BODY_DEPTH} levels: flatten it`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw errors.invalidJson(error instanceof Error ? error.message : 'unparsable');
  }
  if (MAY_HOLD_FORBIDDEN.test(text)) {
    const path = findForbiddenKey(value);
    if (path !== null) throw errors.forbiddenKey(path);
  }
  return value;
};

const BYTE_ORDER_MARK = 0xfeff;

/** Parses a JSON body's bytes: UTF-8 (a leading byte order mark is skipped, RFC 8259 §8.1), then as above. */
export const parseJsonBytes = (bytes: Buffer): unknown => {
  if (!isUtf8(bytes)) throw errors.invalidJson('it is not UTF-8 text');
  const text = bytes.toString('utf8');
  return parseJsonBody(text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text);
};

/** Replaces fastify's body parsers with the JSON-or-text parser above. */
export const registerJsonBodyParser = (app: FastifyInstance): void => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...JSON_OR_TEXT], { parseAs: 'buffer' }, (request, body, done) => {
    try {
      // Bodies are not decompressed: a compressed one is refused as such, not as text that does not parse.
      const coding = request.headers['content-encoding'];
      if (coding !== undefined && coding.trim().toLowerCase() !== 'identity')
        throw errors.unsupportedContentEncoding(coding);
      done(null, parseJsonBytes(typeof body === 'string' ? Buffer.from(body, 'utf8') : body));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
};
