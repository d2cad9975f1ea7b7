// One hit of `POST /events` (PROTOCOL.md §5.1), validated on its own: a bad hit is rejected with its index
// and a message naming its field, and the batch's other hits are still stored (§5.2). Every string the hit
// row keeps (its columns and its JSON body, unknown keys included) is storable text, every number within its
// field's range (§2.1): what is stored is exactly what was sent, or the hit is rejected.
import { EVENT_CATEGORIES, HIT_LIMITS, HIT_TYPES, isJsonObject } from 'feature-ts/protocol';
import type { HitRow } from '../store/collect-store.js';
import {
  badCount,
  badOptionalCount,
  badOptionalMoney,
  badOptionalQueueTime,
  badOptionalString,
  badString,
  unstorableIn,
} from './fields.js';
import { STORABLE_TEXT_RULE, isStorableText, shownKey } from './storable-text.js';

const MAX: number = HIT_LIMITS.maxStringLength;
const MAX_ID = 256;

/** A check of one field's value: a message when it is wrong, else null. */
type Rule = readonly [field: string, check: (value: unknown) => string | null];

const required =
  (max = MAX) =>
  (value: unknown): string | null =>
    badString(value, max);
const optional =
  (max = MAX) =>
  (value: unknown): string | null =>
    badOptionalString(value, max);

// The platform's SDK sends the session number as text: a string of digits is taken as that integer (§5.1).
const SESSION_DIGITS = /^[0-9]{1,16}$/;
const sessionNumberOf = (value: unknown): number | undefined =>
  typeof value === 'string' && SESSION_DIGITS.test(value) ? Number(value) : undefined;
const sessionNumber = (value: unknown): string | null => {
  if (value === undefined) return null;
  const digits = sessionNumberOf(value);
  return badCount(digits ?? value) === null ? null : 'must be an integer ≥ 0, or a string of its digits';
};

/** A page location: an absolute http(s) URL, or a path starting with `/` (the platform's SDK sends one). */
const pageLocation = (value: unknown): string | null => {
  const problem = badString(value, HIT_LIMITS.maxLocationLength);
  if (problem !== null) return problem;
  const location = value as string;
  if (location.startsWith('/')) return null;
  try {
    const url = new URL(location);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? null
      : 'must be an http: or https: URL, or a path starting with /';
  } catch {
    return 'must be an absolute http: or https: URL, or a path starting with /';
  }
};

const currency = (value: unknown): string | null =>
  value === undefined || (typeof value === 'string' && /^[A-Za-z]{3}$/.test(value))
    ? null
    : 'must be a 3-letter ISO 4217 code';

const category = (value: unknown): string | null =>
  (EVENT_CATEGORIES as readonly unknown[]).includes(value)
    ? null
    : `must be one of ${EVENT_CATEGORIES.map((c) => `"${c}"`).join(', ')}`;

const COMMON: readonly Rule[] = [
  ['vid', required(MAX_ID)],
  ['cuid', (value) => (value === null ? null : badOptionalString(value, MAX_ID))],
  ['qt', badOptionalQueueTime],
  ['hid', optional(128)],
  ['uip', optional()],
  ['sr', optional()],
  ['ul', optional()],
  ['sn', sessionNumber],
];

const BY_TYPE: Readonly<Record<string, readonly Rule[]>> = {
  SCREENVIEW: [['dl', required(HIT_LIMITS.maxLocationLength)]],
  PAGEVIEW: [['dl', pageLocation]],
  TRANSACTION: [
    ['tid', required()],
    ['ta', required()],
    ['tr', badOptionalMoney],
    ['ts', badOptionalMoney],
    ['tt', badOptionalMoney],
    ['tc', currency],
    ['sm', optional()],
    ['pm', optional()],
    ['tcc', optional()],
    ['icn', badOptionalCount],
  ],
  ITEM: [
    ['tid', required()],
    ['in', required()],
    ['ic', required()],
    ['ip', badOptionalMoney],
    ['iv', optional()],
    ['iq', badOptionalCount],
  ],
  EVENT: [
    ['ec', category],
    ['ea', required()],
    ['el', optional()],
    ['ev', badOptionalCount],
  ],
  // `s` is checked on its own (segmentProblem): its keys are the client's.
  SEGMENT: [],
};

/** Keys each type checks by rule; any other key is stored as sent, so it is checked for storable text. */
const KNOWN_KEYS: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries(BY_TYPE).map(([type, rules]) => [
    type,
    new Set([
      't',
      'cid',
      ...COMMON.map(([field]) => field),
      ...rules.map(([field]) => field),
      ...(type === 'SEGMENT' ? ['s'] : []),
    ]),
  ]),
);

/** What is wrong with a SEGMENT's `s` (field under the hit, and problem), or null. */
const segmentProblem = (s: unknown): [string, string] | null => {
  if (!isJsonObject(s)) return ['s', 'must be an object'];
  for (const [key, value] of Object.entries(s)) {
    const field = `s.${shownKey(key)}`;
    if (!isStorableText(key)) return [field, `${STORABLE_TEXT_RULE} (in its key)`];
    if (typeof value === 'string') {
      if (!isStorableText(value)) return [field, STORABLE_TEXT_RULE];
    } else if (typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) {
      return [field, 'must be a string, a finite number or a boolean'];
    }
  }
  return null;
};

/** A validated hit, or why it was rejected. */
export type HitCheck = { row: HitRow } | { message: string };

/** A SEGMENT hit's `s`: every context value as text, as the collector stores it (§5). */
export const segmentValues = (context: Readonly<Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(Object.entries(context).map(([k, v]) => [k, String(v)]));

/** The first problem of a hit of type `type` (field and message), or null. */
const problemOf = (hit: Record<string, unknown>, type: string): [string, string] | null => {
  for (const rules of [COMMON, BY_TYPE[type] ?? []]) {
    for (const [field, check] of rules) {
      const problem = check(hit[field]);
      if (problem !== null) return [field, problem];
    }
  }
  if (type === 'SEGMENT') {
    const problem = segmentProblem(hit.s);
    if (problem !== null) return problem;
  }
  const known = KNOWN_KEYS[type];
  for (const key of Object.keys(hit)) {
    if (known?.has(key) === true) continue;
    if (!isStorableText(key)) return [shownKey(key), `${STORABLE_TEXT_RULE} (in its key)`];
    const found = unstorableIn(hit[key], shownKey(key));
    if (found !== null) return [found.path, found.problem];
  }
  return null;
};

/**
 * Validates one hit of environment `cid`. `path` prefixes messages (`h[3]`, or "" for the single form);
 * `receivedMs` is when the request arrived: created time = received − qt (§14.4).
 */
export const checkHit = (raw: unknown, cid: string, path: string, receivedMs: number): HitCheck => {
  const at = (field: string): string => (path === '' ? field : `${path}.${field}`);
  if (!isJsonObject(raw)) return { message: `${path === '' ? 'the hit' : path} must be an object` };
  const type = raw.t;
  if (typeof type !== 'string' || !(HIT_TYPES as readonly string[]).includes(type)) {
    return { message: `${at('t')} must be one of ${HIT_TYPES.join(', ')}` };
  }
  if (raw.cid !== undefined && raw.cid !== cid)
    return { message: `${at('cid')} differs from the batch's cid` };
  const problem = problemOf(raw, type);
  if (problem !== null) return { message: `${at(problem[0])} ${problem[1]}` };
  const qt = typeof raw.qt === 'number' ? raw.qt : 0;
  const body: Record<string, unknown> = { ...raw };
  if (type === 'SEGMENT' && isJsonObject(raw.s)) body.s = segmentValues(raw.s);
  const sn = sessionNumberOf(raw.sn);
  if (sn !== undefined) body.sn = sn;
  const goal = type === 'EVENT' ? (raw.ea as string) : type === 'TRANSACTION' ? (raw.ta as string) : null;
  return {
    row: {
      hid: typeof raw.hid === 'string' ? raw.hid : null,
      type,
      visitorId: raw.vid as string,
      customerId: typeof raw.cuid === 'string' ? raw.cuid : null,
      goal,
      revenue: type === 'TRANSACTION' && typeof raw.tr === 'number' ? raw.tr : null,
      createdMs: receivedMs - qt,
      receivedMs,
      body,
    },
  };
};
