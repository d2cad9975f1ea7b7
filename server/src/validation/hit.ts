// One hit of `POST /events` (PROTOCOL.md §5.1), validated on its own against the hit schema (hit-schemas.ts):
// a bad hit is rejected with its index and a message naming its field, and the batch's other hits are still
// stored (§5.2). Every string the hit row keeps (its columns and its JSON body, unknown keys included) is
// storable text, every number within its field's range (§2.1): what is stored is exactly what was sent, or
// the hit is rejected.
import { isJsonObject } from 'feature-ts/protocol';
import { itemChecker } from '../http/schema-validation.js';
import { hitSchema } from '../plugins/hit-schemas.js';
import type { HitRow } from '../store/collect-store.js';

const checkShape = itemChecker(hitSchema);

// The platform's SDK sends the session number as text: a string of digits is taken as that integer (§5.1).
const SESSION_DIGITS = /^[0-9]{1,16}$/;
const sessionNumberOf = (value: unknown): number | undefined =>
  typeof value === 'string' && SESSION_DIGITS.test(value) ? Number(value) : undefined;

/** A page location: an absolute http(s) URL, or a path starting with `/` (the platform's SDK sends one). */
const pageLocationProblem = (location: string): string | null => {
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
  const problem = checkShape(raw, path);
  if (problem !== null) return { message: problem };
  // What the hit schema cannot say: the batch's environment, and a page location's URL syntax.
  if (raw.cid !== undefined && raw.cid !== cid)
    return { message: `${at('cid')} differs from the batch's cid` };
  const type = raw.t as string;
  const location = type === 'PAGEVIEW' ? pageLocationProblem(raw.dl as string) : null;
  if (location !== null) return { message: `${at('dl')} ${location}` };
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
