// The readable difference between two states of an audited subject (issue 36). The log stores whole states
// before and after each change, never a diff: a diff computed when read can change its form (or be computed
// between any two entries) without rewriting an append-only table, and a state can be restored as it was.

/** A JSON value as stored in an entry's before and after. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One changed place: its path from the subject's root and the values on each side (absent: not there). */
export interface DiffLine {
  /** "" for the whole subject; `body.variationGroups[0].name`, `environments[1]`, `["odd key"]`. */
  path: string;
  before?: JsonValue;
  after?: JsonValue;
}

const isObject = (value: JsonValue | undefined): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

const keyPath = (path: string, key: string): string =>
  IDENTIFIER.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;

const sameValue = (a: JsonValue | undefined, b: JsonValue | undefined): boolean => {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => key in b && sameValue(a[key], b[key]))
    );
  }
  return false;
};

const line = (path: string, before: JsonValue | undefined, after: JsonValue | undefined): DiffLine => ({
  path,
  ...(before === undefined ? {} : { before }),
  ...(after === undefined ? {} : { after }),
});

const walk = (
  path: string,
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  out: DiffLine[],
): void => {
  if (sameValue(before, after)) return;
  if (isObject(before) && isObject(after)) {
    // Keys in the order the state before has them (as read back: jsonb's order), then the new ones.
    const keys = [...Object.keys(before), ...Object.keys(after).filter((key) => !(key in before))];
    for (const key of keys) walk(keyPath(path, key), before[key], after[key], out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i += 1)
      walk(`${path}[${i}]`, before[i], after[i], out);
    return;
  }
  out.push(line(path, before, after));
};

/**
 * The changes from `before` to `after`, leaf by leaf, in the order of the keys of `before`. A subject that did not
 * exist on one side (null: created, deleted) is one line for the whole subject; so is a value whose type
 * changed. Equal states give no lines.
 */
export const auditDiff = (before: JsonValue, after: JsonValue): DiffLine[] => {
  const out: DiffLine[] = [];
  if (before === null || after === null) {
    if (!sameValue(before, after)) out.push({ path: '', before, after });
    return out;
  }
  walk('', before, after, out);
  return out;
};
