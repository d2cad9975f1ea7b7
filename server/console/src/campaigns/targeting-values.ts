// What a targeting rule's value looks like for each operator (docs/bucketing-file.md#targeting): the value
// input follows the operator, so a numeric comparison asks for a number, a version operator for a version, and
// EXISTS asks for nothing. Every operator but EXISTS/NOT_EXISTS also takes a list (any element matching; every
// element for the NOT_ ones), and JSON stays available so that a value made elsewhere survives an edit.
import { TARGETING_OPERATORS, type JsonValue } from 'feature-ts/protocol';

/** How a targeting value is typed in: each kind has its own input and parser. */
export type ValueKind =
  'text' | 'number' | 'boolean' | 'version' | 'text-list' | 'number-list' | 'version-list' | 'json' | 'none';

/** The key that matches every visitor, whatever the operator and value. */
export const ALL_USERS_KEY = 'fs_all_users';

/** Readable names of the operators the server accepts (TARGETING_OPERATORS), in its order. */
export const OPERATOR_LABELS: Readonly<Record<(typeof TARGETING_OPERATORS)[number], string>> = {
  EQUALS: 'is equal to',
  NOT_EQUALS: 'is not equal to',
  CONTAINS: 'contains',
  NOT_CONTAINS: 'does not contain',
  STARTS_WITH: 'starts with',
  ENDS_WITH: 'ends with',
  GREATER_THAN: 'is greater than',
  LOWER_THAN: 'is lower than',
  GREATER_THAN_OR_EQUALS: 'is greater than or equal to',
  LOWER_THAN_OR_EQUALS: 'is lower than or equal to',
  EXISTS: 'is set (exists)',
  NOT_EXISTS: 'is not set (does not exist)',
  SEMVER_EQUALS: 'version is',
  SEMVER_NOT_EQUALS: 'version is not',
  SEMVER_GREATER_THAN: 'version is above',
  SEMVER_LOWER_THAN: 'version is below',
  SEMVER_GREATER_THAN_OR_EQUALS: 'version is at least',
  SEMVER_LOWER_THAN_OR_EQUALS: 'version is at most',
};

/** Every operator, for the select. */
export const OPERATORS: readonly string[] = TARGETING_OPERATORS;

/** Labels of the value kinds, as the "Value type" select shows them. */
export const KIND_LABELS: Readonly<Record<ValueKind, string>> = {
  text: 'Text',
  number: 'Number',
  boolean: 'True / false',
  version: 'Version (1.2.3)',
  'text-list': 'List of texts',
  'number-list': 'List of numbers',
  'version-list': 'List of versions',
  json: 'JSON',
  none: 'No value',
};

/** Context keys worth suggesting: the special keys and those the SDKs set (PROTOCOL.md §16.5). */
export const COMMON_KEYS: ReadonlyArray<[string, string]> = [
  [ALL_USERS_KEY, 'every visitor'],
  ['fs_users', 'the visitor id'],
  ['fs_client', 'the SDK name'],
  ['fs_version', 'the SDK version'],
  ['sdk_deviceType', 'mobile, tablet, desktop or server'],
  ['sdk_deviceLanguage', 'browser or process locale'],
  ['sdk_osName', 'Windows, macOS, Linux, Android, iOS…'],
  ['sdk_osVersionCode', 'operating system version'],
  ['sdk_fsVersion', 'the SDK version'],
  ['sdk_firstTimeInit', 'true on the first start'],
];

/** The value kinds an operator takes, the first being its default. */
export const kindsFor = (operator: string): readonly ValueKind[] => {
  if (operator === 'EXISTS' || operator === 'NOT_EXISTS') return ['none'];
  if (operator.startsWith('SEMVER_')) return ['version', 'version-list', 'json'];
  if (operator === 'EQUALS' || operator === 'NOT_EQUALS')
    return ['text', 'number', 'boolean', 'text-list', 'number-list', 'json'];
  if (/^(GREATER|LOWER)_THAN/.test(operator)) return ['number', 'text', 'number-list', 'text-list', 'json'];
  return ['text', 'text-list', 'json'];
};

// MAJOR[.MINOR[.PATCH]][-prerelease][+build], optional leading v, no leading zeros (docs: Versions).
const NUM = '(?:0|[1-9]\\d*)';
const VERSION = new RegExp(
  `^v?${NUM}(?:\\.${NUM}){0,2}(?:-[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?(?:\\+[0-9A-Za-z.-]+)?$`,
);

/** True when `text` parses as a version the server compares. */
export const isVersion = (text: string): boolean => VERSION.test(text);

/** The value of a typed-in text, or why it cannot be one. */
export type Parsed = { ok: true; value: JsonValue } | { ok: false; error: string };

const listItems = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');

const parseNumber = (text: string): number | null => {
  const trimmed = text.trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  return Number.isFinite(value) ? value : null;
};

/** Reads a typed-in value of `kind`. */
export const parseTargetValue = (kind: ValueKind, text: string): Parsed => {
  switch (kind) {
    case 'none':
      return { ok: true, value: '' };
    case 'text':
      return { ok: true, value: text };
    case 'boolean':
      return { ok: true, value: text === 'true' };
    case 'number': {
      const value = parseNumber(text);
      return value === null
        ? { ok: false, error: 'must be a number, such as 18 or 2.5' }
        : { ok: true, value };
    }
    case 'version':
      return isVersion(text.trim())
        ? { ok: true, value: text.trim() }
        : { ok: false, error: 'must be a version such as 1.2.3, 2.4 or 2.0.0-rc.1' };
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as JsonValue };
      } catch (error) {
        return { ok: false, error: `is not valid JSON: ${error instanceof Error ? error.message : ''}` };
      }
    default: {
      const items = listItems(text);
      if (items.length === 0)
        return { ok: false, error: 'needs at least one item (an empty list never matches)' };
      if (kind === 'text-list') return { ok: true, value: items };
      if (kind === 'version-list') {
        const bad = items.find((item) => !isVersion(item));
        return bad === undefined
          ? { ok: true, value: items }
          : { ok: false, error: `"${bad}" is not a version` };
      }
      const numbers = items.map(parseNumber);
      const bad = numbers.findIndex((n) => n === null);
      return bad === -1
        ? { ok: true, value: numbers as number[] }
        : { ok: false, error: `"${items[bad] ?? ''}" is not a number` };
    }
  }
};

/** The kind and text to edit a stored value with, so that it comes back unchanged when left alone. */
export const formatTargetValue = (operator: string, value: JsonValue): { kind: ValueKind; text: string } => {
  const kinds = kindsFor(operator);
  if (kinds[0] === 'none') return { kind: 'none', text: '' };
  const semver = operator.startsWith('SEMVER_');
  if (typeof value === 'string' && !semver) return { kind: 'text', text: value };
  if (typeof value === 'string' && isVersion(value)) return { kind: 'version', text: value };
  if (typeof value === 'number' && kinds.includes('number')) return { kind: 'number', text: String(value) };
  if (typeof value === 'boolean' && kinds.includes('boolean'))
    return { kind: 'boolean', text: String(value) };
  if (Array.isArray(value) && value.length > 0) {
    // A list is edited as lines unless an item would not survive the round trip (a comma, a blank).
    const texts = value.filter(
      (item): item is string => typeof item === 'string' && item === item.trim() && !/[\n,]/.test(item),
    );
    const numbers = value.filter((item): item is number => typeof item === 'number');
    if (texts.length === value.length && semver && texts.every(isVersion))
      return { kind: 'version-list', text: texts.join('\n') };
    if (texts.length === value.length && !semver && kinds.includes('text-list'))
      return { kind: 'text-list', text: texts.join('\n') };
    if (numbers.length === value.length && kinds.includes('number-list'))
      return { kind: 'number-list', text: numbers.join('\n') };
  }
  return { kind: 'json', text: JSON.stringify(value) };
};
