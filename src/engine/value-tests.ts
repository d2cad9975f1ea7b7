// The operators of targeting (PROTOCOL.md §7) as tests of one context value, compiled once per rule and
// bucketing file (targeting.ts turns them into rules): type-strict scalar tests, SEMVER_* on the file's
// once-parsed versions, and list targets whose cost does not grow with the list.
import { comparableVersion, compareVersions, parseSemVer, type ComparableVersion } from './semver.js';
import type { FileReads } from './file-reads.js';

/** A test of one present context value (already known to be a string, number or boolean). */
export type ValueTest = (c: string | number | boolean) => boolean;

/** The test that never holds: a rule with it never matches. */
export const NEVER_VALUE: ValueTest = () => false;

/** Whether a SEMVER_* operator holds for the sign of value − target. */
const semverHolds = (operator: string): ((d: number) => boolean) => {
  switch (operator) {
    case 'SEMVER_EQUALS':
      return (d) => d === 0;
    case 'SEMVER_NOT_EQUALS':
      return (d) => d !== 0;
    case 'SEMVER_GREATER_THAN':
      return (d) => d > 0;
    case 'SEMVER_LOWER_THAN':
      return (d) => d < 0;
    case 'SEMVER_GREATER_THAN_OR_EQUALS':
      return (d) => d >= 0;
    default:
      return (d) => d <= 0;
  }
};

/**
 * A SEMVER_* test against one target version. The value's version comes from the file's reads, parsed once
 * per decision and key: each rule then costs one comparison, however long the value and however many rules.
 */
const semverTest = (
  operator: string,
  target: string,
  versionOf: (text: string) => ComparableVersion | undefined,
): ValueTest => {
  const parsed = parseSemVer(target);
  if (parsed === undefined) return NEVER_VALUE;
  const t = comparableVersion(parsed);
  const holds = semverHolds(operator);
  return (c) => {
    const v = typeof c === 'string' ? versionOf(c) : undefined;
    return v !== undefined && holds(compareVersions(v, t));
  };
};

/** The test of one scalar target `t` under `operator` (type-strict, case-sensitive); undefined if unknown. */
const valueTest = (
  operator: string,
  t: unknown,
  versionOf: (text: string) => ComparableVersion | undefined = (text) => {
    const v = parseSemVer(text);
    return v === undefined ? undefined : comparableVersion(v);
  },
): ValueTest | undefined => {
  const type = typeof t;
  const scalar = type === 'string' || type === 'number' || type === 'boolean';
  switch (operator) {
    case 'EQUALS':
      return scalar ? (c) => c === t : NEVER_VALUE;
    case 'NOT_EQUALS':
      return scalar ? (c) => typeof c === type && c !== t : NEVER_VALUE;
    case 'CONTAINS':
    case 'NOT_CONTAINS':
    case 'STARTS_WITH':
    case 'ENDS_WITH': {
      if (typeof t !== 'string') return NEVER_VALUE;
      if (operator === 'CONTAINS') return (c) => typeof c === 'string' && c.includes(t);
      if (operator === 'NOT_CONTAINS') return (c) => typeof c === 'string' && !c.includes(t);
      if (operator === 'STARTS_WITH') return (c) => typeof c === 'string' && c.startsWith(t);
      return (c) => typeof c === 'string' && c.endsWith(t);
    }
    case 'GREATER_THAN':
    case 'LOWER_THAN':
    case 'GREATER_THAN_OR_EQUALS':
    case 'LOWER_THAN_OR_EQUALS': {
      // Numbers compare numerically and strings by UTF-16 code units: both are what JS `<` does.
      if (typeof t !== 'string' && typeof t !== 'number') return NEVER_VALUE;
      const u = t;
      if (operator === 'GREATER_THAN') return (c) => typeof c === typeof u && c > u;
      if (operator === 'LOWER_THAN') return (c) => typeof c === typeof u && c < u;
      if (operator === 'GREATER_THAN_OR_EQUALS') return (c) => typeof c === typeof u && c >= u;
      return (c) => typeof c === typeof u && c <= u;
    }
    case 'SEMVER_EQUALS':
    case 'SEMVER_NOT_EQUALS':
    case 'SEMVER_GREATER_THAN':
    case 'SEMVER_LOWER_THAN':
    case 'SEMVER_GREATER_THAN_OR_EQUALS':
    case 'SEMVER_LOWER_THAN_OR_EQUALS':
      return typeof t === 'string' ? semverTest(operator, t, versionOf) : NEVER_VALUE;
    default:
      return undefined;
  }
};

/** The value types a rule compares (§7: type-strict). */
type Scalar = string | number | boolean;

const isScalar = (t: unknown): t is Scalar =>
  typeof t === 'string' || typeof t === 'number' || typeof t === 'boolean';

/** The lowest (`sign` 1) or highest (-1) of `items` by `compare`, or undefined when there is none. */
const extreme = <T>(items: readonly T[], compare: (a: T, b: T) => number, sign: 1 | -1): T | undefined =>
  items.reduce<T | undefined>(
    (best, t) => (best === undefined || sign * compare(t, best) < 0 ? t : best),
    undefined,
  );

const order = (a: Scalar, b: Scalar): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The test of a list target, compiled so that its cost does not grow with the list: a `Set` for equality,
 * the file's string automata for CONTAINS / STARTS_WITH / ENDS_WITH, the list's least or greatest element for
 * the orderings. It gives what testing each element does: NOT_EQUALS and NOT_CONTAINS hold when they hold for
 * every element, the others (SEMVER_NOT_EQUALS too) when they hold for some (an element of the wrong type holds
 * for none).
 */
const listTest = (operator: string, list: readonly unknown[], key: string, reads: FileReads): ValueTest => {
  const strings = list.filter((t): t is string => typeof t === 'string');
  const { patterns } = reads;
  const versionOf = reads.version(key);
  switch (operator) {
    case 'EQUALS': {
      const set = new Set(list.filter(isScalar));
      return set.size === 0 ? NEVER_VALUE : (c) => set.has(c);
    }
    case 'NOT_EQUALS': {
      // Every element must be of the value's type and differ from it: a list of mixed types never holds.
      const types = new Set(list.map((t) => (isScalar(t) ? typeof t : 'other')));
      const [type] = types;
      if (types.size !== 1 || type === 'other') return NEVER_VALUE;
      const set = new Set(list);
      return (c) => typeof c === type && !set.has(c);
    }
    case 'CONTAINS':
    case 'STARTS_WITH':
    case 'ENDS_WITH': {
      if (strings.length === 0) return NEVER_VALUE;
      const place = operator === 'CONTAINS' ? 'inside' : operator === 'STARTS_WITH' ? 'start' : 'end';
      const occurs = patterns.rule(key, place, strings);
      return (c) => typeof c === 'string' && occurs(c);
    }
    case 'NOT_CONTAINS': {
      if (strings.length !== list.length) return NEVER_VALUE;
      const occurs = patterns.rule(key, 'inside', strings);
      return (c) => typeof c === 'string' && !occurs(c);
    }
    case 'GREATER_THAN':
    case 'GREATER_THAN_OR_EQUALS':
    case 'LOWER_THAN':
    case 'LOWER_THAN_OR_EQUALS': {
      // c > some t ⇔ c > the least t of c's type; c < some t ⇔ c < the greatest.
      const sign = operator.startsWith('GREATER') ? 1 : -1;
      const number = extreme(
        list.filter((t): t is number => typeof t === 'number'),
        order,
        sign,
      );
      const string = extreme(strings, order, sign);
      const bound = (c: Scalar): Scalar | undefined =>
        typeof c === 'number' ? number : typeof c === 'string' ? string : undefined;
      if (operator === 'GREATER_THAN')
        return (c) => {
          const t = bound(c);
          return t !== undefined && c > t;
        };
      if (operator === 'GREATER_THAN_OR_EQUALS')
        return (c) => {
          const t = bound(c);
          return t !== undefined && c >= t;
        };
      if (operator === 'LOWER_THAN')
        return (c) => {
          const t = bound(c);
          return t !== undefined && c < t;
        };
      return (c) => {
        const t = bound(c);
        return t !== undefined && c <= t;
      };
    }
    case 'SEMVER_EQUALS':
    case 'SEMVER_NOT_EQUALS': {
      const keys = new Set(strings.flatMap((t) => parseSemVer(t) ?? []).map((v) => comparableVersion(v).key));
      if (operator === 'SEMVER_EQUALS') {
        if (keys.size === 0) return NEVER_VALUE;
        return (c) => {
          const v = typeof c === 'string' ? versionOf(c) : undefined;
          return v !== undefined && keys.has(v.key);
        };
      }
      // §7 lists only NOT_EQUALS and NOT_CONTAINS as "every": SEMVER_NOT_EQUALS holds when some version of
      // the list differs from the value, that is unless the list's versions are all the value's.
      if (keys.size === 0) return NEVER_VALUE;
      return (c) => {
        const v = typeof c === 'string' ? versionOf(c) : undefined;
        return v !== undefined && (keys.size > 1 || !keys.has(v.key));
      };
    }
    default: {
      // The SEMVER orderings: against the least (GREATER…) or greatest (LOWER…) version of the list.
      const versions = strings.flatMap((t) => parseSemVer(t) ?? []).map(comparableVersion);
      const sign = operator.includes('GREATER') ? 1 : -1;
      const bound = extreme(versions, compareVersions, sign);
      if (bound === undefined) return NEVER_VALUE;
      const holds = semverHolds(operator);
      return (c) => {
        const v = typeof c === 'string' ? versionOf(c) : undefined;
        return v !== undefined && holds(compareVersions(v, bound));
      };
    }
  }
};

/** A target that may be a list (§7: NOT_EQUALS/NOT_CONTAINS hold for every element, the others for some). */
export const targetTest = (
  operator: string,
  target: unknown,
  key: string,
  reads: FileReads,
): ValueTest | undefined => {
  const known = valueTest(operator, null) !== undefined;
  if (!known) return undefined;
  if (Array.isArray(target))
    return target.length === 0 ? NEVER_VALUE : listTest(operator, target, key, reads);
  // A single CONTAINS target goes through the file's automata too: many rules on one long value then cost
  // one pass over it, not one each.
  if ((operator === 'CONTAINS' || operator === 'NOT_CONTAINS') && typeof target === 'string')
    return listTest(operator, [target], key, reads);
  return valueTest(operator, target, reads.version(key));
};
