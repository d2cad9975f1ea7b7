// Targeting (PROTOCOL.md §7), compiled: each rule becomes a closure specialised for its operator and target
// once per bucketing file, so evaluating a visitor does no operator dispatch and no target parsing.
import { isJsonObject, type VisitorContext } from '../protocol/index.js';
import { parseSemVer, semVerComparator } from './semver.js';

/** A compiled rule or variation-group targeting: does it match this visitor? */
export type TargetingPredicate = (context: VisitorContext, visitorId: string) => boolean;

/** A test of one present context value (already known to be a string, number or boolean). */
type ValueTest = (c: string | number | boolean) => boolean;

const NEVER: TargetingPredicate = () => false;
const ALWAYS: TargetingPredicate = () => true;
const NEVER_VALUE: ValueTest = () => false;

/** Operators that match a list target when they hold for every element (the others: for some). */
const NEGATIVE = new Set(['NOT_EQUALS', 'NOT_CONTAINS']);

/** A context value as the operators see it: `undefined` for a missing key or a value of another type. */
const read = (context: VisitorContext, key: string): string | number | boolean | undefined => {
  // Reading through the prototype is harmless: inherited members are functions or objects, never these.
  const c = (context as Record<string, unknown>)[key];
  return typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean' ? c : undefined;
};

const semverTest = (operator: string, target: string): ValueTest => {
  const t = parseSemVer(target);
  if (t === undefined) return NEVER_VALUE;
  const compare = semVerComparator(t);
  const holds = (d: number): boolean => {
    switch (operator) {
      case 'SEMVER_EQUALS':
        return d === 0;
      case 'SEMVER_NOT_EQUALS':
        return d !== 0;
      case 'SEMVER_GREATER_THAN':
        return d > 0;
      case 'SEMVER_LOWER_THAN':
        return d < 0;
      case 'SEMVER_GREATER_THAN_OR_EQUALS':
        return d >= 0;
      default:
        return d <= 0;
    }
  };
  return (c) => {
    if (typeof c !== 'string') return false;
    const d = compare(c);
    return d !== undefined && holds(d);
  };
};

/** The test of one scalar target `t` under `operator` (type-strict, case-sensitive); undefined if unknown. */
const valueTest = (operator: string, t: unknown): ValueTest | undefined => {
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
      return typeof t === 'string' ? semverTest(operator, t) : NEVER_VALUE;
    default:
      return undefined;
  }
};

/** The test of a target that may be a list: every element for NOT_EQUALS/NOT_CONTAINS, else some. */
const targetTest = (operator: string, target: unknown): ValueTest | undefined => {
  if (!Array.isArray(target)) return valueTest(operator, target);
  if (valueTest(operator, null) === undefined) return undefined;
  const tests = target.map((t: unknown) => valueTest(operator, t) ?? NEVER_VALUE);
  if (tests.length === 0) return NEVER_VALUE;
  if (tests.length === 1) return tests[0];
  return NEGATIVE.has(operator)
    ? (c) => tests.every((test) => test(c))
    : (c) => tests.some((test) => test(c));
};

/**
 * Compiles one targeting rule `{operator, key, value}`. A malformed rule or an unknown operator never
 * matches; why is pushed to `reasons`, prefixed with `where`.
 */
export const compileRule = (rule: unknown, reasons: string[], where: string): TargetingPredicate => {
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
  const test = targetTest(operator, value);
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

/** Compiles a variation group's `targeting`: any targeting group matches when all its targetings match. */
export const compileTargeting = (
  targeting: unknown,
  reasons: string[],
  where: string,
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
      compileRule(rule, reasons, `${at}.targetings[${r}]`),
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
