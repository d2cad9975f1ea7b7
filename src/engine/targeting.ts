// Targeting (PROTOCOL.md §7), compiled: each rule becomes a closure specialised for its operator and target
// once per bucketing file, so evaluating a visitor does no operator dispatch and no target parsing.
import { isJsonObject, type VisitorContext } from '../protocol/index.js';
import { comparableVersion, compareVersions, parseSemVer, type ComparableVersion } from './semver.js';
import { FileReads } from './file-reads.js';

/** A compiled rule or variation-group targeting: does it match this visitor? */
export type TargetingPredicate = (context: VisitorContext, visitorId: string) => boolean;

/** A test of one present context value (already known to be a string, number or boolean). */
type ValueTest = (c: string | number | boolean) => boolean;

const NEVER: TargetingPredicate = () => false;
const ALWAYS: TargetingPredicate = () => true;
const NEVER_VALUE: ValueTest = () => false;

/** A context value as the operators see it: `undefined` for a missing key or a value of another type. */
const read = (context: VisitorContext, key: string): string | number | boolean | undefined => {
  // Reading through the prototype is harmless: inherited members are functions or objects, never these.
  const c = (context as Record<string, unknown>)[key];
  return typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean' ? c : undefined;
};

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
const targetTest = (
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

/**
 * Compiles one targeting rule `{operator, key, value}`. A malformed rule or an unknown operator never
 * matches; why is pushed to `reasons`, prefixed with `where`. `reads` are the file's shared reads of context
 * values (one per file, sealed once the file is compiled); a rule compiled alone gets its own.
 */
export const compileRule = (
  rule: unknown,
  reasons: string[],
  where: string,
  reads: FileReads = new FileReads(),
): TargetingPredicate => {
  if (!isJsonObject(rule) || typeof rule.operator !== 'string' || typeof rule.key !== 'string') {
    reasons.push(`${where}: a targeting is not {operator: string, key: string, value}; it does not match`);
    return NEVER;
  }
  const { operator, key, value } = rule;
  if (key === 'fs_all_users') return ALWAYS;
  if (operator === 'EXISTS' || operator === 'NOT_EXISTS') {
    const present = operator === 'EXISTS';
    if (key === 'fs_users') return present ? ALWAYS : NEVER;
    return (context) => (read(context, key) !== undefined) === present;
  }
  const test = targetTest(operator, value, key, reads);
  if (test === undefined) {
    reasons.push(`${where}: unknown targeting operator ${JSON.stringify(operator)}; it does not match`);
    return NEVER;
  }
  if (test === NEVER_VALUE) return NEVER;
  if (key === 'fs_users') return (_context, visitorId) => test(visitorId);
  // The commonest rule, EQUALS on one scalar, is a single comparison: `===` is already type-strict.
  if (operator === 'EQUALS' && !Array.isArray(value)) {
    return (context) => (context as Record<string, unknown>)[key] === value;
  }
  return (context) => {
    const c = read(context, key);
    return c !== undefined && test(c);
  };
};

/**
 * Compiles a variation group's `targeting`: any targeting group matches when all its targetings match.
 * `reads` as for {@link compileRule}.
 */
export const compileTargeting = (
  targeting: unknown,
  reasons: string[],
  where: string,
  reads: FileReads = new FileReads(),
): TargetingPredicate => {
  if (targeting === undefined || targeting === null) return NEVER;
  if (!isJsonObject(targeting) || !Array.isArray(targeting.targetingGroups)) {
    reasons.push(`${where}: targeting has no targetingGroups array; the group does not match`);
    return NEVER;
  }
  const groups: TargetingPredicate[][] = [];
  targeting.targetingGroups.forEach((group: unknown, g) => {
    const at = `${where}.targetingGroups[${g}]`;
    if (!isJsonObject(group) || !Array.isArray(group.targetings)) {
      reasons.push(`${at}: not {targetings: []}; it does not match`);
      return;
    }
    const rules = group.targetings.map((rule: unknown, r) =>
      compileRule(rule, reasons, `${at}.targetings[${r}]`, reads),
    );
    // A group with no targetings, or with one that can never match, can be dropped.
    if (rules.length > 0 && !rules.includes(NEVER)) groups.push(rules.filter((p) => p !== ALWAYS));
  });
  if (groups.length === 0) return NEVER;
  if (groups.some((rules) => rules.length === 0)) return ALWAYS;
  const only = groups.length === 1 ? groups[0] : undefined;
  if (only?.length === 1 && only[0] !== undefined) return only[0];
  return (context, visitorId) => {
    for (const rules of groups) {
      let all = true;
      for (const rule of rules) {
        if (!rule(context, visitorId)) {
          all = false;
          break;
        }
      }
      if (all) return true;
    }
    return false;
  };
};

/** Whether one targeting rule matches (compiles it each call: for tests and one-off checks). */
export const matchesRule = (rule: unknown, context: VisitorContext, visitorId: string): boolean =>
  compileRule(rule, [], 'rule')(context, visitorId);
