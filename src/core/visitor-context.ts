import { CONTEXT_LIMITS, type ContextValue, type VisitorContext } from '../protocol/index.js';
import { contextValueProblem } from './context-keys.js';

/** Keys the SDK sets on every context it sends (PROTOCOL.md §16.5); applications cannot set them. */
export const RESERVED_CONTEXT_PREFIX = 'fs_';

/** The number of `fs_*` keys added when sending (`fs_client`, `fs_version`, `fs_users`). */
const SDK_KEYS = 3;

const byteLength = (text: string): number => new TextEncoder().encode(text).length;

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
  for (const [key, value] of entries) {
    const label = typeof key === 'string' ? `"${key}"` : String(key);
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
    if (problem !== null) {
      refused.push(`context key ${label} refused: ${problem}.`);
      continue;
    }
    const k = key as string;
    const v = value as ContextValue;
    if (context[k] === v) continue;
    const before = context[k];
    context[k] = v;
    const size = Object.keys(context).length + SDK_KEYS;
    const overSize = size > CONTEXT_LIMITS.maxKeys;
    if (overSize || byteLength(JSON.stringify(context)) > CONTEXT_LIMITS.maxSerializedBytes) {
      if (before === undefined) Reflect.deleteProperty(context, k);
      else context[k] = before;
      refused.push(
        `context key ${label} refused: a context holds at most ${overSize ? `${CONTEXT_LIMITS.maxKeys} keys` : `${CONTEXT_LIMITS.maxSerializedBytes} bytes of JSON`}.`,
      );
      continue;
    }
    changed = true;
  }
  return { changed, refused };
};

/** True when both contexts hold the same keys and values. */
export const sameContext = (a: Readonly<VisitorContext>, b: Readonly<VisitorContext>): boolean => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
};
