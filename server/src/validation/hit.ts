// One hit of `POST /events` (PROTOCOL.md §5.1), validated on its own: a bad hit is rejected with its index
// and a message naming its field, and the batch's other hits are still stored (§5.2).
import { EVENT_CATEGORIES, HIT_LIMITS, HIT_TYPES, isJsonObject } from 'feature-ts/protocol';
import type { HitRow } from '../store/store.js';
import { badOptionalAmount, badOptionalCount, badOptionalString, badString } from './fields.js';

const MAX: number = HIT_LIMITS.maxStringLength;
const MAX_ID = 256;

type Check = (hit: Record<string, unknown>) => [field: string, problem: string | null] | null;

const required =
  (field: string, max = MAX): Check =>
  (hit) => [field, badString(hit[field], max)];
const optional =
  (field: string, max = MAX): Check =>
  (hit) => [field, badOptionalString(hit[field], max)];
const amount =
  (field: string): Check =>
  (hit) => [field, badOptionalAmount(hit[field])];
const count =
  (field: string): Check =>
  (hit) => [field, badOptionalCount(hit[field])];

const httpUrl: Check = (hit) => {
  const problem = badString(hit.dl, HIT_LIMITS.maxLocationLength);
  if (problem !== null) return ['dl', problem];
  try {
    const url = new URL(hit.dl as string);
    return [
      'dl',
      url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http: or https: URL',
    ];
  } catch {
    return ['dl', 'must be an absolute http: or https: URL'];
  }
};

const currency: Check = (hit) => [
  'tc',
  hit.tc === undefined || (typeof hit.tc === 'string' && /^[A-Za-z]{3}$/.test(hit.tc))
    ? null
    : 'must be a 3-letter ISO 4217 code',
];

const category: Check = (hit) => [
  'ec',
  (EVENT_CATEGORIES as readonly unknown[]).includes(hit.ec)
    ? null
    : `must be one of ${EVENT_CATEGORIES.map((c) => `"${c}"`).join(', ')}`,
];

const segment: Check = (hit) => {
  if (!isJsonObject(hit.s)) return ['s', 'must be an object'];
  for (const [key, value] of Object.entries(hit.s)) {
    if (
      typeof value !== 'string' &&
      typeof value !== 'boolean' &&
      !(typeof value === 'number' && Number.isFinite(value))
    ) {
      return [`s.${key}`, 'must be a string, a finite number or a boolean'];
    }
  }
  return null;
};

const COMMON: Check[] = [
  required('vid', MAX_ID),
  (hit) => ['cuid', hit.cuid === null ? null : badOptionalString(hit.cuid, MAX_ID)],
  amount('qt'),
  optional('hid', 128),
  optional('uip'),
  optional('sr'),
  optional('ul'),
  count('sn'),
];

const BY_TYPE: Record<string, Check[]> = {
  SCREENVIEW: [required('dl', HIT_LIMITS.maxLocationLength)],
  PAGEVIEW: [httpUrl],
  TRANSACTION: [
    required('tid'),
    required('ta'),
    amount('tr'),
    amount('ts'),
    amount('tt'),
    currency,
    optional('sm'),
    optional('pm'),
    optional('tcc'),
    count('icn'),
  ],
  ITEM: [required('tid'), required('in'), required('ic'), amount('ip'), optional('iv'), count('iq')],
  EVENT: [category, required('ea'), optional('el'), count('ev')],
  SEGMENT: [segment],
};

/** A validated hit, or why it was rejected. */
export type HitCheck = { row: HitRow } | { message: string };

/** A SEGMENT hit's `s`: every context value as text, as the collector stores it (§5). */
export const segmentValues = (context: Readonly<Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(Object.entries(context).map(([k, v]) => [k, String(v)]));

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
  for (const check of [...COMMON, ...(BY_TYPE[type] ?? [])]) {
    const result = check(raw);
    if (result !== null && result[1] !== null) return { message: `${at(result[0])} ${result[1]}` };
  }
  const qt = typeof raw.qt === 'number' ? raw.qt : 0;
  const body: Record<string, unknown> = { ...raw };
  if (type === 'SEGMENT' && isJsonObject(raw.s)) {
    body.s = segmentValues(raw.s);
  }
  const goal = type === 'EVENT' ? (raw.ea as string) : type === 'TRANSACTION' ? (raw.ta as string) : null;
  return {
    row: {
      hid: typeof raw.hid === 'string' ? raw.hid : null,
      type,
      visitorId: raw.vid as string,
      customerId: typeof raw.cuid === 'string' ? raw.cuid : null,
      goal,
      revenue: type === 'TRANSACTION' && typeof raw.tr === 'number' ? raw.tr : null,
      createdMs: Math.round(receivedMs - qt),
      receivedMs,
      body,
    },
  };
};
