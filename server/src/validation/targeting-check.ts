// The targeting of a variation group in the campaign formats (PROTOCOL.md §7, §13.5): each rule's key,
// operator and value, and the limits that bound a decision's cost (issue 29), with the path of the first
// problem. The remote control API's format is stricter than the bucketing file's (GroupRules).
import {
  CAMPAIGN_LIMITS,
  TARGETING_OPERATORS,
  isJsonObject,
  type JsonValue,
  type Targeting,
  type VariationGroupTargeting,
} from 'feature-ts/protocol';
import { TEXT_LIMITS, badText, checkJson, type GroupRules } from './campaign-rules.js';
import { fail, rejectUnknownFields } from './field-error.js';

const checkRule = (t: unknown, at: string, rules: GroupRules): Targeting => {
  if (rules.strict) {
    if (!isJsonObject(t)) fail(at, 'must be an object {"key", "operator", "value"}');
    rejectUnknownFields(t, ['key', 'operator', 'value'], at);
  }
  if (!isJsonObject(t) || typeof t.key !== 'string') fail(`${at}.key`, 'must be a string');
  const badKey = rules.strict ? badText(t.key, TEXT_LIMITS.key) : null;
  if (badKey !== null) fail(`${at}.key`, badKey);
  const operator = t.operator;
  if (!(TARGETING_OPERATORS as readonly unknown[]).includes(operator))
    fail(`${at}.operator`, `"${String(operator)}" is not a known operator`);
  if (rules.strict && !Object.hasOwn(t, 'value'))
    fail(`${at}.value`, 'is required (any JSON value; EXISTS and NOT_EXISTS ignore it)');
  checkTargetSize(operator as string, t.value, `${at}.value`);
  // The file's values are kept as given; the API's are checked as text the store can keep.
  const value = rules.strict ? checkJson(t.value, `${at}.value`) : (t.value as JsonValue);
  return { operator: operator as string, key: t.key, value };
};

const tooLong = (text: string, max: number): string =>
  `is ${text.length} characters long; a targeting's string value${max === CAMPAIGN_LIMITS.maxVersionTargetLength ? ' under a SEMVER operator' : ''} has at most ${max} (docs/http-api.md, Limits)`;

/** Where to put what does not fit in one list: for an "every element" operator, not in another group. */
const splitAdvice = (operator: string): string =>
  operator === 'NOT_EQUALS' || operator === 'NOT_CONTAINS'
    ? 'put the rest in another targeting of the same targeting group: both must hold'
    : 'put the rest in another targeting group: groups are alternatives';

/** Throws when a targeting's value passes the limits that bound a decision's cost (issue 29). */
const checkTargetSize = (operator: string, value: unknown, path: string): void => {
  const max = operator.startsWith('SEMVER_')
    ? CAMPAIGN_LIMITS.maxVersionTargetLength
    : CAMPAIGN_LIMITS.maxTargetLength;
  if (typeof value === 'string' && value.length > max) fail(path, tooLong(value, max));
  if (!Array.isArray(value)) return;
  if (value.length > CAMPAIGN_LIMITS.maxListItems)
    fail(
      path,
      `is a list of ${value.length} items; a targeting's list has at most ${CAMPAIGN_LIMITS.maxListItems} (${splitAdvice(operator)})`,
    );
  value.forEach((item, i) => {
    if (typeof item === 'string' && item.length > max) fail(`${path}[${i}]`, tooLong(item, max));
  });
};

/** The targeting of a variation group, checked; undefined when the file leaves it out. */
export const checkTargeting = (
  targeting: unknown,
  path: string,
  rules: GroupRules,
): VariationGroupTargeting | undefined => {
  const list = rules.targetingGroups;
  if (targeting === undefined) {
    if (!rules.strict) return undefined;
    fail(path, `is required: {"${list}": [{"targetings": [...]}]} (key fs_all_users targets everyone)`);
  }
  if (rules.strict) {
    if (!isJsonObject(targeting)) fail(path, `must be an object {"${list}": [...]}`);
    rejectUnknownFields(targeting, [list], path);
  }
  const groups = isJsonObject(targeting) ? targeting[list] : undefined;
  if (!Array.isArray(groups)) fail(`${path}.${list}`, 'must be an array');
  const targetingGroups = (groups as unknown[]).map((tg, i) => {
    const at = `${path}.${list}[${i}]`;
    if (rules.strict) {
      if (!isJsonObject(tg)) fail(at, 'must be an object {"targetings": [...]}');
      rejectUnknownFields(tg, ['targetings'], at);
    }
    const targetings = isJsonObject(tg) ? tg.targetings : undefined;
    if (!Array.isArray(targetings)) fail(`${at}.targetings`, 'must be an array');
    return {
      targetings: (targetings as unknown[]).map((t, j) => checkRule(t, `${at}.targetings[${j}]`, rules)),
    };
  });
  return { targetingGroups };
};
