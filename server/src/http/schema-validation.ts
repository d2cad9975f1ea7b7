// Request validation from the route schemas (DESIGN.md: fastify's way, never a second hand-written
// validator). Ajv is configured so that validating a body changes nothing: no type coercion, no defaults
// filled in, no field removed, and every error reported so the answer can name each wrong field
// (schema-errors.ts turns them into the catalogue's `invalid_body`).
//
// The dialect is JSON Schema 2020-12, the OpenAPI 3.1 document's. What JSON Schema cannot say is said by
// keywords of our own, named as OpenAPI extensions so the document stays valid:
// - `x-storable: true` on a string: no U+0000 and no lone surrogate (§2.1), what PostgreSQL can hold;
// - `x-storable-keys: true` on free-form JSON (a flag value, a targeting's value, a hit's extra keys): every
//   string and key in it is storable, and it nests at most 64 levels;
// - `x-rule`: the message for a value the schema refuses, where a pattern or a oneOf would say it badly
//   (`{value}` in it quotes the value sent);
// - `x-if-missing`: on a property, what to send when it is required and missing;
// - `x-per-item`: a batch's items, checked one by one by the route (see `envelopeOf`).
import type { AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import type { FastifySchemaCompiler } from 'fastify';
import { STORABLE_TEXT_RULE, isStorableText } from '../validation/storable-text.js';
import { MAX_BODY_DEPTH } from './json-body.js';
import { detailsOf, fieldOf } from './schema-errors.js';

/** JSON values nest at most this deep (a parsed body is bounded alike, http/json-body.ts). */
const MAX_DEPTH = MAX_BODY_DEPTH;

/**
 * The first key or string under `value` that is not storable text, or the first level past MAX_DEPTH, as a
 * path suffix and a problem.
 */
const unstorableUnder = (
  value: unknown,
  path: string,
  depth = 0,
): { path: string; problem: string } | null => {
  if (typeof value === 'string') return isStorableText(value) ? null : { path, problem: STORABLE_TEXT_RULE };
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= MAX_DEPTH) return { path, problem: `nests deeper than ${MAX_DEPTH} levels: flatten it` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableUnder(value[i], `${path}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const here = fieldOf(path, key);
    if (!isStorableText(key)) return { path: here, problem: `${STORABLE_TEXT_RULE} (in its key)` };
    const found = unstorableUnder(item, here, depth + 1);
    if (found !== null) return found;
  }
  return null;
};

/** The keywords of our own in the route schemas (see the header); a reader of the document may ignore them. */
export const ANNOTATIONS = ['x-rule', 'x-if-missing', 'x-per-item', 'x-storable', 'x-storable-keys'] as const;

/** A keyword's check: Ajv reads the errors it leaves on itself (a function keyword's protocol). */
interface KeywordCheck {
  (expected: boolean, data: unknown): boolean;
  errors?: Array<Partial<ErrorObject>>;
}

const storable: KeywordCheck = (expected, data) => {
  if (!expected || typeof data !== 'string' || isStorableText(data)) return true;
  storable.errors = [{ keyword: 'x-storable', message: STORABLE_TEXT_RULE, params: {} }];
  return false;
};

const storableKeys: KeywordCheck = (expected, data) => {
  const found = expected ? unstorableUnder(data, '') : null;
  if (found === null) return true;
  storableKeys.errors = [
    { keyword: 'x-storable-keys', message: found.problem, params: { under: found.path } },
  ];
  return false;
};

/**
 * An Ajv with the project's keywords. Route schemas carry OpenAPI's annotations beside JSON Schema's; a oneOf
 * with a `discriminator` picks its branch by a property (a hit's `t`), so the errors are that branch's.
 */
const projectAjv = (options: { coerceTypes: false | 'array'; useDefaults: boolean }): Ajv => {
  const ajv = new Ajv({
    ...options,
    removeAdditional: false,
    allErrors: true,
    // The failing schema comes with each error: messages quote its limits and its `x-rule`.
    verbose: true,
    discriminator: true,
    strict: true,
    strictRequired: false,
    strictTypes: false,
    allowUnionTypes: true,
  });
  ajv.addVocabulary(ANNOTATIONS.filter((keyword) => !keyword.startsWith('x-storable')));
  ajv.addKeyword({
    keyword: 'x-storable',
    type: 'string',
    schemaType: 'boolean',
    errors: true,
    validate: storable,
  });
  ajv.addKeyword({
    keyword: 'x-storable-keys',
    schemaType: 'boolean',
    errors: true,
    validate: storableKeys,
  });
  return ajv;
};

/** Bodies, path parameters and headers: checked as sent, never changed (no coercion, no defaults). */
export const requestAjv = projectAjv({ coerceTypes: false, useDefaults: false });

/**
 * Query strings: every value arrives as text, so an `integer` or `boolean` parameter is read from its text
 * (`?limit=20`, `?exposeAllKeys=true`), a repeated one is an array, and an absent one takes its documented
 * default: the handler gets typed values, and the schema is the only place that says what they may be.
 */
export const queryAjv = projectAjv({ coerceTypes: 'array', useDefaults: true });

/**
 * What a route's schema checks before the handler runs: `schema` with each part marked `x-per-item` left to
 * the route (an array keeps its type but not its items; anything else takes any value). A batch of hits or
 * activations is checked item by item, so that a bad item is rejected by index while the others are stored
 * (§5.2), with the same item schema (see `itemChecker`).
 */
export const envelopeOf = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(envelopeOf);
  if (typeof schema !== 'object' || schema === null) return schema;
  const perItem = (schema as Record<string, unknown>)['x-per-item'] === true;
  if (perItem && (schema as Record<string, unknown>).type !== 'array') return {};
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !(perItem && key === 'items'))
      .map(([key, value]) => [key, envelopeOf(value)]),
  );
};

/** fastify's validator compiler: every route's body, query, params and headers through `requestAjv`. */
export const compileRequestSchema: FastifySchemaCompiler<AnySchema> = ({ schema, httpPart }) =>
  (httpPart === 'querystring' ? queryAjv : requestAjv).compile(
    envelopeOf(schema) as AnySchema,
  ) as ValidateFunction;

/** One item's check: null when it is valid, else its first problem as "path message". */
export type ItemCheck = (item: unknown, path: string) => string | null;

/**
 * The check of one item of a batch against `schema` (a hit, an activation), with the messages of the route's
 * own refusals: `h[3].ev must be an integer ≥ 0`. `path` names the item (`h[3]`, or "" for the single form).
 */
export const itemChecker = (schema: AnySchema): ItemCheck => {
  const validate = requestAjv.compile(schema);
  return (item, path) => {
    if (validate(item)) return null;
    const detail = detailsOf(validate.errors ?? [], 'body', path)[0];
    return detail === undefined ? `${path || 'the item'} is not valid` : `${detail.path} ${detail.message}`;
  };
};
