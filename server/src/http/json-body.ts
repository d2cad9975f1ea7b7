// Request bodies: JSON text under `application/json` or `text/plain` (sendBeacon sends the latter), read as
// a string within the route's byte limit (fastify counts while reading and stops at the limit), parsed, and
// refused when a key could reach an object's prototype (PROTOCOL.md §2.1).
import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.js';

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

/** Parses a JSON body text; throws the §2.4 errors. */
export const parseJsonBody = (text: string): unknown => {
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

/** Replaces fastify's body parsers with the JSON-or-text parser above. */
export const registerJsonBodyParser = (app: FastifyInstance): void => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...JSON_OR_TEXT], { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
};
