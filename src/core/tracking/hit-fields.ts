import type { JsonValue } from '../../protocol/index.js';
import type { TrackedHit } from './tracker.js';

/**
 * How a field is checked (PROTOCOL.md §5.1). One letter each so the table below stays a table:
 * R required string ≤ 500, S optional string ≤ 500, L required string ≤ 2048, U required absolute http(s)
 * URL ≤ 2048, M optional money (finite, ≥ 0), N optional integer, P optional integer ≥ 0, C optional
 * currency code, E required event category.
 */
export type FieldRule = 'R' | 'S' | 'L' | 'U' | 'M' | 'N' | 'P' | 'C' | 'E';

/** One field: its SDK name (SPEC.md, also the cache content key), its wire key and its rule. */
export type HitField = readonly [sdkName: string, wireKey: string, rule: FieldRule];

/** The hit types that have fields of their own (SEGMENT carries a context instead). */
export type FieldHitType = Exclude<TrackedHit['type'], 'SEGMENT'>;

/** The fields every hit may carry (SPEC.md "Common optional parameters"). */
export const COMMON_FIELDS: readonly HitField[] = [
  ['userIp', 'uip', 'S'],
  ['screenResolution', 'sr', 'S'],
  ['userLanguage', 'ul', 'S'],
  ['sessionNumber', 'sn', 'P'],
];

/**
 * Each hit type's fields, in wire order, the common ones last. The one table drives validation, the cache
 * content and the wire conversion, so the three can never disagree on a name.
 */
export const HIT_FIELDS: Readonly<Record<FieldHitType, readonly HitField[]>> = {
  SCREENVIEW: [['location', 'dl', 'L'], ...COMMON_FIELDS],
  PAGEVIEW: [['location', 'dl', 'U'], ...COMMON_FIELDS],
  TRANSACTION: [
    ['transactionId', 'tid', 'R'],
    ['affiliation', 'ta', 'R'],
    ['revenue', 'tr', 'M'],
    ['shipping', 'ts', 'M'],
    ['shippingMethod', 'sm', 'S'],
    ['tax', 'tt', 'M'],
    ['currency', 'tc', 'C'],
    ['paymentMethod', 'pm', 'S'],
    ['itemCount', 'icn', 'N'],
    ['couponCode', 'tcc', 'S'],
    ...COMMON_FIELDS,
  ],
  ITEM: [
    ['transactionId', 'tid', 'R'],
    ['name', 'in', 'R'],
    ['code', 'ic', 'R'],
    ['price', 'ip', 'M'],
    ['category', 'iv', 'S'],
    ['quantity', 'iq', 'N'],
    ...COMMON_FIELDS,
  ],
  EVENT: [
    ['category', 'ec', 'E'],
    ['action', 'ea', 'R'],
    ['label', 'el', 'S'],
    ['value', 'ev', 'P'],
    ...COMMON_FIELDS,
  ],
};

/** The SPEC.md class name of each hit type, for messages. */
export const HIT_NAMES: Readonly<Record<TrackedHit['type'], string>> = {
  SCREENVIEW: 'Screen',
  PAGEVIEW: 'Page',
  TRANSACTION: 'Transaction',
  ITEM: 'Item',
  EVENT: 'Event',
  SEGMENT: 'Segment',
};

const RULE_TEXT: Readonly<Record<FieldRule, string>> = {
  R: 'a non-empty string of at most 500 characters',
  S: 'a string of at most 500 characters',
  L: 'a non-empty string of at most 2048 characters',
  U: 'an absolute http: or https: URL of at most 2048 characters',
  M: 'a finite number ≥ 0',
  N: 'an integer',
  P: 'an integer ≥ 0',
  C: 'a 3-letter upper-case ISO 4217 currency code such as "EUR"',
  E: 'EventCategory.Action_Tracking or EventCategory.User_Engagement',
};

const isHttpUrl = (text: string): boolean => {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
};

const passes = (rule: FieldRule, value: unknown): boolean => {
  const text = typeof value === 'string' ? value : null;
  switch (rule) {
    case 'R':
      return text !== null && text.length > 0 && text.length <= 500;
    case 'S':
      return text !== null && text.length <= 500;
    case 'L':
      return text !== null && text.length > 0 && text.length <= 2048;
    case 'U':
      return text !== null && text.length <= 2048 && isHttpUrl(text);
    case 'M':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0;
    case 'N':
      return Number.isInteger(value);
    case 'P':
      return Number.isInteger(value) && (value as number) >= 0;
    case 'C':
      return text !== null && /^[A-Z]{3}$/.test(text);
    case 'E':
      return value === 'Action_Tracking' || value === 'User_Engagement';
  }
};

/** Shows a bad value in a message without pasting a 10 000-character string into the console. */
const show = (value: unknown): string =>
  typeof value === 'string'
    ? value.length > 60
      ? `a string of ${value.length} characters`
      : JSON.stringify(value)
    : typeof value === 'object' && value !== null
      ? 'an object'
      : String(value);

/**
 * Checks a hit's content (SDK names) against PROTOCOL.md §5.1. Returns null when valid, else one message
 * that names the hit, the field and what to change, e.g. `Event value must be an integer ≥ 0, got -1`.
 * The SDK's one check of a hit, run by `HitProtocol.validate()` (once per hit): the hits the SDK builds itself
 * (the `fs_consent` event, the SEGMENT hit) are correct by construction and not checked.
 */
export const validateHitContent = (
  type: FieldHitType,
  content: Readonly<Record<string, unknown>>,
): string | null => {
  for (const [name, , rule] of HIT_FIELDS[type]) {
    const value = content[name];
    // Optional rules accept absence; R, L, U and E are the required ones.
    if (value === undefined && !'RLUE'.includes(rule)) continue;
    if (!passes(rule, value))
      return `${HIT_NAMES[type]} ${name} must be ${RULE_TEXT[rule]}, got ${show(value)}`;
  }
  return null;
};

/** The content of a hit: the table's fields that are set, so unknown properties never reach the wire. */
export const pickHitContent = (
  type: FieldHitType,
  source: Readonly<Record<string, unknown>>,
): Record<string, JsonValue> => {
  const content: Record<string, JsonValue> = {};
  for (const [name] of HIT_FIELDS[type]) {
    const value = source[name];
    if (value !== undefined) content[name] = value as JsonValue;
  }
  return content;
};
