// Targeting (PROTOCOL.md §7), compiled: each rule becomes a closure specialised for its operator and target
// once per bucketing file, so evaluating a visitor does no operator dispatch and no target parsing.
import { isJsonObject, type VisitorContext } from '../protocol/index.js';
import { FileReads } from './file-reads.js';
import { NEVER_VALUE, targetTest } from './value-tests.js';

/** A compiled rule or variation-group targeting: does it match this visitor? */
export type TargetingPredicate = (context: VisitorContext, visitorId: string) => boolean;

const NEVER: TargetingPredicate = () => false;
const ALWAYS: TargetingPredicate = () => true;

/** A context value as the operators see it: `undefined` for a missing key or a value of another type. */
const read = (context: VisitorContext, key: string): string | number | boolean | undefined => {
  // Reading through the prototype is harmless: inherited members are functions or objects, never these.
  const c = (context as Record<string, unknown>)[key];
  return typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean' ? c : undefined;
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
