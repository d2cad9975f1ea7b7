import type { VisitorContext } from '../../protocol/index.js';

/** True when both contexts hold the same keys and values. */
export const sameContext = (a: Readonly<VisitorContext>, b: Readonly<VisitorContext>): boolean => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
};
