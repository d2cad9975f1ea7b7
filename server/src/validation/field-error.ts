// A refusal that names one field of a body by its path (`variation_groups[0].name`, `analysis.alpha`), and the
// helpers every body reader shares: the campaign formats (bucketing-campaigns.ts, remote/campaign-format.ts)
// and their analysis settings (analysis-settings.ts).
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

/** Throws naming the first field of `object` not in `known`; the message lists the known ones. */
export const rejectUnknownFields = (
  object: Record<string, unknown>,
  known: readonly string[],
  path: string,
): void => {
  const unknown = Object.keys(object).filter((key) => !known.includes(key));
  const first = unknown[0];
  if (first === undefined) return;
  // The bucketing file is camelCase and the API snake_case: say so when that is the mistake.
  const snake = first.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const hint = snake !== first && known.includes(snake) ? ` (the API spells it ${snake})` : '';
  const others = unknown.length > 1 ? `; also unknown: ${unknown.slice(1).join(', ')}` : '';
  fail(fieldPath(path, first), `is not a known field${hint}; known: ${known.join(', ')}${others}`);
};
