import type { VisitorContext } from '../../protocol/index.js';

/** True when both contexts hold the same keys and values. */
export const sameContext = (a: Readonly<VisitorContext>, b: Readonly<VisitorContext>): boolean => {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  // A loop, not `every` with a closure: a returning visitor's assignment compares its context once (issue 33).
  for (const k of keys) if (!Object.hasOwn(b, k) || a[k] !== b[k]) return false;
  return true;
};
