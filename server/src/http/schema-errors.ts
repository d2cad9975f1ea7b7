// Ajv's errors as the catalogue's `invalid_body` (PROTOCOL.md §2.4): each wrong field named by the path the
// body spells (`variation_groups[0].name`, `h[3].ev`, `limit`), with a message that says what to send, in the
// words the routes used when they checked by hand ("must be an integer from 0 to 100", "is required").
import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from 'feature-ts/protocol';
import { ApiError } from '../errors.js';
import { STORABLE_TEXT_RULE, shownKey } from '../validation/storable-text.js';

/** `path.key` (the key cut when long); just `key` at the top. */
export const fieldOf = (path: string, key: string): string => {
  // An empty key would vanish from the path: it is written as JSON, `value[""]`.
  if (key === '') return `${path}[""]`;
  return path === '' ? shownKey(key) : `${path}.${shownKey(key)}`;
};

/** JSON Pointer `/h/3/ev` as the body spells it: `h[3].ev`. */
const pathOf = (pointer: string): string => {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path = /^(0|[1-9][0-9]*)$/.test(segment) ? `${path}[${segment}]` : fieldOf(path, segment);
  }
  return path;
};

type Schema = Readonly<Record<string, unknown>>;

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const listOf = (values: readonly unknown[]): string =>
  values.map((value) => JSON.stringify(value)).join(', ');

/**
 * A number's range as the schema states it: "from 0 to 100", "≥ 0", "at most 10". A maximum that only keeps
 * counts exact in a double (2^53 − 1) is said only to a number past it.
 */
const rangeOf = (schema: Schema, full: boolean): string | null => {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const stated = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const max = stated === Number.MAX_SAFE_INTEGER && !full ? undefined : stated;
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
  if (min !== undefined) return `≥ ${min}`;
  if (max !== undefined) return `at most ${max}`;
  return null;
};

/** What a value of `schema` must be, in words: "an integer from 0 to 86400000". */
const kindOf = (schema: Schema, full = false): string => {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const names = types.filter((t): t is string => typeof t === 'string').map((t) => TYPE_NAMES[t] ?? t);
  const range = types.some((t) => t === 'integer' || t === 'number') ? rangeOf(schema, full) : null;
  const kind = names.length === 0 ? 'a value' : names.join(' or ');
  return range === null ? kind : `${kind} ${range}`;
};

// The keywords an `x-rule` speaks for: what a value is, and how many items a list holds. Lengths of text and
// fields (missing, unknown) keep their own messages.
const RULED = new Set([
  'type',
  'minItems',
  'maxItems',
  'not',
  'false schema',
  'pattern',
  'format',
  'enum',
  'const',
  'oneOf',
  'anyOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);

/** The value as a message quotes it: JSON, cut when long. */
const quoted = (value: unknown): string => {
  // JSON.stringify gives undefined for undefined (typed as string).
  const text = (JSON.stringify(value) as string | undefined) ?? String(value);
  return text.length > 64 ? `${text.slice(0, 63)}…` : text;
};

/** A camelCase field that the schema knows in snake_case (`variationGroups`): the hint, else ''. */
const spellingHint = (field: string, known: readonly string[]): string => {
  const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return snake !== field && known.includes(snake) ? ` (the API spells it ${snake})` : '';
};

/** The message of one Ajv error, saying what to send. */
const messageOf = (error: ErrorObject): string => {
  const parent = (error.parentSchema ?? {}) as Schema;
  const rule = parent['x-rule'];
  // `{value}` in a rule quotes the value sent: `"LIKE" is not a known operator`.
  if (typeof rule === 'string' && RULED.has(error.keyword))
    return rule.replace('{value}', quoted(error.data));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'maximum':
    case 'exclusiveMaximum':
      return `must be ${kindOf(parent, true)}`;
    case 'type':
    case 'minimum':
    case 'exclusiveMinimum':
    case 'multipleOf':
      return `must be ${kindOf(parent)}`;
    case 'required': {
      // What the missing field is, when its schema says (`x-if-missing`): "is required: {…}".
      const properties = (parent.properties ?? {}) as Record<string, Schema | undefined>;
      const hint = properties[String(params.missingProperty)]?.['x-if-missing'];
      return typeof hint === 'string' ? `is required: ${hint}` : 'is required';
    }
    case 'additionalProperties': {
      // A property whose schema refuses every value (`position` in a create body) is not one to suggest.
      const properties = (parent.properties ?? {}) as Record<string, Schema>;
      const known = Object.keys(properties).filter((key) => properties[key]?.not === undefined);
      const hint = spellingHint(String(params.additionalProperty), known);
      return known.length === 0
        ? 'is not a known field'
        : `is not a known field${hint}; known: ${known.join(', ')}`;
    }
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters`;
    case 'minItems':
      return params.limit === 1
        ? 'must be a non-empty array'
        : `must hold at least ${String(params.limit)} items`;
    case 'maxItems':
      return `must hold at most ${String(params.limit)} items`;
    case 'minProperties':
      return `must have at least ${String(params.limit)} field${params.limit === 1 ? '' : 's'}`;
    case 'maxProperties':
      return `must have at most ${String(params.limit)} fields`;
    case 'uniqueItems':
      return `must not repeat an item (items ${String(params.j)} and ${String(params.i)} are equal)`;
    case 'enum':
      return `must be one of ${listOf(Array.isArray(parent.enum) ? parent.enum : [])}`;
    case 'const':
      return `must be ${JSON.stringify(parent.const)}`;
    case 'pattern':
      return `must match ${String(params.pattern)}`;
    case 'format':
      return `must be a valid ${String(params.format)}`;
    case 'x-storable':
    case 'x-storable-keys':
      return error.message ?? STORABLE_TEXT_RULE;
    case 'discriminator':
      return params.error === 'tag'
        ? `must be a string`
        : `must be one of ${listOf(discriminatorValues(parent))}`;
    case 'oneOf':
    case 'anyOf':
      return `must be ${alternativesOf(parent)}`;
    default:
      return error.message ?? 'is not valid';
  }
};

/** The values a discriminated oneOf accepts for its tag (a hit's types). */
const discriminatorValues = (schema: Schema): unknown[] => {
  const tag = (schema.discriminator as { propertyName?: string } | undefined)?.propertyName;
  const branches = Array.isArray(schema.oneOf) ? (schema.oneOf as Schema[]) : [];
  return branches.map((branch) => {
    const properties = (branch.properties ?? {}) as Record<string, Schema>;
    return tag === undefined ? undefined : properties[tag]?.const;
  });
};

/** "a string or an integer ≥ 0": what one of a oneOf's branches would take. */
const alternativesOf = (schema: Schema): string => {
  const branches = (Array.isArray(schema.oneOf) ? schema.oneOf : schema.anyOf) as Schema[] | undefined;
  return (branches ?? []).map((branch) => kindOf(branch)).join(', or ');
};

/** The path an error is about: the missing or unknown field itself, not its parent. */
const fieldPathOf = (error: ErrorObject): string => {
  const at = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string')
    return fieldOf(at, params.missingProperty);
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string')
    return fieldOf(at, params.additionalProperty);
  if (error.propertyName !== undefined) return fieldOf(at, error.propertyName);
  if (error.keyword === 'x-storable-keys' && typeof params.under === 'string')
    return params.under.startsWith('[') || at === '' ? `${at}${params.under}` : `${at}.${params.under}`;
  if (error.keyword === 'discriminator' && typeof params.tag === 'string') return fieldOf(at, params.tag);
  return at;
};

// A oneOf reports each branch's errors and then its own; the branch errors say nothing useful alone.
const isBranchNoise = (error: ErrorObject, all: readonly ErrorObject[]): boolean =>
  all.some(
    (other) =>
      other !== error &&
      (other.keyword === 'oneOf' || other.keyword === 'anyOf') &&
      error.schemaPath.startsWith(other.schemaPath.replace(/\/(oneOf|anyOf)$/, '/$1/')),
  );

/**
 * The names an anyOf of `required` branches asks for, when none is there (a field with two spellings,
 * `visitorId` or `visitor_id`); null for any other anyOf.
 */
const missingSpellings = (error: ErrorObject, all: readonly ErrorObject[]): string[] | null => {
  const branches = all.filter((other) => other !== error && isBranchNoise(other, [error]));
  if (branches.length === 0 || branches.some((branch) => branch.keyword !== 'required')) return null;
  return branches.map((branch) => String((branch.params as { missingProperty?: unknown }).missingProperty));
};

/** At most this many wrong fields are listed in an answer's `details`. */
export const MAX_DETAILS = 20;
/** At most this many of Ajv's errors are read to find them (a oneOf's branch errors come with its own). */
const MAX_ERRORS_READ = 200;

// Query parameters are named as they are spelled in the URL (`limit`), as the routes always named them.
const PREFIX: Readonly<Record<string, string>> = {
  body: '',
  querystring: '',
  params: 'path',
  headers: 'header',
};

/** Each wrong field of a request part (`body`, `querystring`, …) once, with what to send. */
export const detailsOf = (
  validationErrors: readonly ErrorObject[],
  part = 'body',
  pathPrefix = PREFIX[part] ?? part,
): ErrorDetail[] => {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  // Ajv reports every error (a 64 KiB context of wrong values makes thousands): the answer and the work of
  // writing it stay bounded, and the client fixes the first fields and sends again.
  // An unknown field is named before a missing one: `targetingGroups` sent for `targeting_groups` is one
  // mistake, whose cause is the spelling.
  const read = validationErrors
    .slice(0, MAX_ERRORS_READ)
    .map((error, index) => ({ error, index, rank: error.keyword === 'additionalProperties' ? 0 : 1 }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ error }) => error);
  for (const error of read) {
    if (details.length === MAX_DETAILS) break;
    const spellings = error.keyword === 'anyOf' ? missingSpellings(error, read) : null;
    if (spellings !== null) {
      const [first, ...others] = spellings;
      const path = fieldOf(pathOf(error.instancePath), first ?? '');
      const or = others.length === 0 ? '' : ` (or ${others.join(' or ')})`;
      if (!seen.has(path))
        details.push({
          path: `${pathPrefix === '' ? '' : `${pathPrefix}.`}${path}`,
          message: `is required${or}`,
        });
      seen.add(path);
      continue;
    }
    // A key's own error (it carries the key's name) comes before its wrapper, which names only the object.
    if (error.keyword === 'propertyNames' || isBranchNoise(error, read)) continue;
    const field = fieldPathOf(error);
    const path =
      pathPrefix === ''
        ? field || '(body)'
        : field === ''
          ? pathPrefix
          : `${pathPrefix}${field.startsWith('[') ? '' : '.'}${field}`;
    if (seen.has(path)) continue;
    seen.add(path);
    const message = messageOf(error);
    details.push({ path, message: error.propertyName === undefined ? message : `${message} (in its key)` });
  }
  return details;
};

/**
 * fastify's `schemaErrorFormatter`: a request that fails its schema answers 400 `invalid_body`, its message
 * naming the first wrong field (`variation_groups[0].name: must not be empty`) and `details` each one, up to
 * MAX_DETAILS.
 */
export const formatSchemaErrors = (validationErrors: readonly ErrorObject[], part: string): ApiError => {
  const details = detailsOf(validationErrors, part);
  const first = details[0] ?? { path: '(body)', message: 'is not valid' };
  const capped = details.length === MAX_DETAILS ? `, which lists the first ${MAX_DETAILS}` : '';
  const more = details.length > 1 ? ` (and ${details.length - 1} more in details${capped})` : '';
  return new ApiError(400, 'invalid_body', `${first.path}: ${first.message}${more}`, { details });
};
