// A body part checked by its JSON Schema outside a route (the CLI's edits and imports, a campaign body read
// again in the handler): the same Ajv and messages as the routes' (http/schema-validation.ts), the first wrong
// field thrown as a FieldError.
import type { AnySchema } from 'ajv';
import { requestAjv } from '../http/schema-validation.js';
import { detailsOf } from '../http/schema-errors.js';
import { fail } from './field-error.js';

/** A check of values against `schema`: throws FieldError naming the first wrong field under `path`. */
export type SchemaCheck = (value: unknown, path?: string) => void;

/** Compiles `schema` once; the check throws the first problem as the routes word it. */
export const schemaCheck = (schema: AnySchema): SchemaCheck => {
  const validate = requestAjv.compile(schema);
  return (value, path = '') => {
    if (validate(value)) return;
    const detail = detailsOf(validate.errors ?? [], 'body', path)[0];
    fail(detail?.path ?? (path || '(body)'), detail?.message ?? 'is not valid');
  };
};
