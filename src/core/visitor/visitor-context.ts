// The context rules (SPEC.md Visitor context, PROTOCOL.md §3's limits), applied as a visitor's context changes.
import { CONTEXT_LIMITS, type ContextValue, type VisitorContext } from '../../protocol/index.js';
import { contextValueProblem } from './context-keys.js';

/** Keys the SDK sets on every context it sends (PROTOCOL.md §16.5); applications cannot set them. */
export const RESERVED_CONTEXT_PREFIX = 'fs_';

/** The number of `fs_*` keys added when sending (`fs_client`, `fs_version`, `fs_users`). */
const SDK_KEYS = 3;

const byteLength = (text: string): number => new TextEncoder().encode(text).length;

/**
 * At least the bytes `"key":value,` takes in a context's JSON: a UTF-16 unit never takes more than 6 (a `\u`
 * escape), a number no more than 24 characters. Summed, it spares the exact count (a JSON.stringify of the
 * whole context per entry, quadratic in its keys) while the context is far below the limit.
 */
const entryBound = (key: string, value: unknown): number =>
  6 * key.length + (typeof value === 'string' ? 6 * value.length : 24) + 6;

/**
 * Applies `entries` to `context` in place, one by one: an entry whose key or value breaks SPEC.md's context
 * rules or PROTOCOL.md §3's limits is refused with its reason, the rest are applied. Returns whether a value
 * changed and the refusals.
 */
export const applyContext = (
  context: VisitorContext,
  entries: Iterable<[unknown, unknown]>,
): { changed: boolean; refused: string[] } => {
  let changed = false;
  const refused: string[] = [];
  let size = Object.keys(context).length + SDK_KEYS;
  // An upper bound of JSON.stringify(context)'s bytes: the exact count is taken only when it passes the limit.
  let bytes = 2;
  for (const k in context) bytes += entryBound(k, context[k]);
  for (const [key, value] of entries) {
    const problem =
      typeof key !== 'string' || key === ''
        ? 'a key must be a non-empty string'
        : key.length > CONTEXT_LIMITS.maxKeyLength
          ? `a key has at most ${CONTEXT_LIMITS.maxKeyLength} characters`
          : key.startsWith(RESERVED_CONTEXT_PREFIX)
            ? 'keys starting with fs_ are set by the SDK'
            : /^(__proto__|constructor|prototype)$/.test(key)
              ? 'JSON parsers reserve it'
              : contextValueProblem(value);
    const label = typeof key === 'string' ? `"${key}"` : String(key);
    if (problem !== null) {
      refused.push(`context key ${label} refused: ${problem}.`);
      continue;
    }
    const k = key as string;
    const v = value as ContextValue;
    if (context[k] === v) continue;
    const before = context[k];
    context[k] = v;
    const added = before === undefined ? 1 : 0;
    const overSize = size + added > CONTEXT_LIMITS.maxKeys;
    bytes += entryBound(k, v);
    if (bytes > CONTEXT_LIMITS.maxSerializedBytes) bytes = byteLength(JSON.stringify(context));
    if (overSize || bytes > CONTEXT_LIMITS.maxSerializedBytes) {
      if (before === undefined) Reflect.deleteProperty(context, k);
      else context[k] = before;
      refused.push(
        `context key ${label} refused: a context holds at most ${overSize ? `${CONTEXT_LIMITS.maxKeys} keys` : `${CONTEXT_LIMITS.maxSerializedBytes} bytes of JSON`}.`,
      );
      continue;
    }
    size += added;
    changed = true;
  }
  return { changed, refused };
};
