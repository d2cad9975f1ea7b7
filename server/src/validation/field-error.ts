// A refusal that names one field of a body by its path (`variation_groups[0].name`, `analysis.alpha`): what a
// check outside a route throws (schema-check.ts, the campaign formats' rules that span fields), turned into
// a 400 `invalid_body` by the routes and into a message by the CLI.
import { InputError } from '../errors.js';

/** An InputError about one field; `path` names it as the body spells it (`variation_groups[0].name`). */
export class FieldError extends InputError {
  /** The field's path in the body. */
  readonly path: string;
  /** What is wrong with the field and what to change. */
  readonly reason: string;

  constructor(path: string, reason: string) {
    super(`${path} ${reason}`);
    this.name = 'FieldError';
    this.path = path;
    this.reason = reason;
  }
}

/** Throws the FieldError of `path`. (A declaration, so that TypeScript narrows after a call.) */
export function fail(path: string, reason: string): never {
  throw new FieldError(path, reason);
}

/** `path.key`, or `path["key"]` when the key is not a plain name; just `key` at the top. */
export const fieldPath = (path: string, key: string): string => {
  if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
};
