// The flags of a variation group as the editor holds them: one row per flag (its key and type, shared by every
// variation of the group) and, in each variation, one cell per row. The wire keeps its per-variation shape
// (modifications.value, PROTOCOL.md §9): a cell with a value sends it, a cell deliberately not set sends null,
// and a cell never filled in leaves the key out, which is what a variation stored without the key reads back as.
import type { JsonValue } from 'feature-ts/protocol';
import { flagPath, flagTypeOf, formatFlagValue, parseFlagValue, type FlagType } from './flag-values.js';

/** A flag of a group: one row of the flags grid. */
export interface FlagRowDraft {
  key: string;
  type: FlagType;
}

/**
 * A variation's value of one flag: `value` (typed text), `unset` (deliberately not set: null on the wire, the
 * page shows its default) or `missing` (never filled in: the key is left out, and saving warns).
 */
export interface FlagCellDraft {
  state: 'value' | 'unset' | 'missing';
  text: string;
}

/** What the rows need of a variation. */
export interface FlagCells {
  cells: FlagCellDraft[];
}

/** A cell not filled in yet. */
export const missingCell = (): FlagCellDraft => ({ state: 'missing', text: '' });

/** The rows of the group whose variations store `values`, and each variation's cells, in the same order. */
export const flagRowsOf = (
  values: ReadonlyArray<Readonly<Record<string, JsonValue>>>,
): { rows: FlagRowDraft[]; cells: FlagCellDraft[][] } => {
  const keys: string[] = [];
  for (const value of values) for (const key of Object.keys(value)) if (!keys.includes(key)) keys.push(key);
  const rows = keys.map((key): FlagRowDraft => {
    const types = new Set(
      values.flatMap((value) => {
        const v = Object.hasOwn(value, key) ? value[key] : null;
        return v === null || v === undefined ? [] : [flagTypeOf(v)];
      }),
    );
    // Types that differ (stored before the one-type rule) are edited as JSON, which shows each value as it is;
    // the save then names the rule, as the server would.
    const [only] = types;
    return {
      key,
      type: types.size === 1 && only !== undefined ? only : types.size === 0 ? 'string' : 'json',
    };
  });
  const cells = values.map((value) =>
    rows.map((row): FlagCellDraft => {
      if (!Object.hasOwn(value, row.key)) return missingCell();
      const v = value[row.key];
      return v === null || v === undefined
        ? { state: 'unset', text: '' }
        : { state: 'value', text: formatFlagValue(v, row.type) };
    }),
  );
  return { rows, cells };
};

/** Adds a blank row, with a cell not filled in yet in every variation. */
export const addFlagRow = (rows: FlagRowDraft[], variations: readonly FlagCells[]): void => {
  rows.push({ key: '', type: 'string' });
  for (const v of variations) v.cells.push(missingCell());
};

/** Removes row `f` and its cell in every variation. */
export const removeFlagRow = (rows: FlagRowDraft[], variations: readonly FlagCells[], f: number): void => {
  rows.splice(f, 1);
  for (const v of variations) v.cells.splice(f, 1);
};

/** The client-side path of a row's key (the server has none: it names a flag by its value's path). */
export const flagKeyPath = (groupPath: string, f: number): string => `${groupPath}.flags[${f}].key`;

const jsonType = (value: JsonValue): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** Checks the rows' keys: each is named once. */
export const checkFlagKeys = (
  rows: readonly FlagRowDraft[],
  groupPath: string,
  issue: (path: string, message: string, live: boolean) => void,
): void => {
  rows.forEach((row, f) => {
    const key = row.key.trim();
    const first = rows.findIndex((r) => r.key.trim() === key);
    if (key === '') issue(flagKeyPath(groupPath, f), 'is required: name the flag', false);
    else if (first !== f)
      issue(flagKeyPath(groupPath, f), `"${key}" is already flag ${first + 1}: one row per flag`, true);
  });
};

/**
 * The modifications.value of the variation with `cells`, at `valuePath`; `types` remembers the first JSON type
 * seen per key in the group, so an array here and an object there is named (the server refuses it).
 */
export const flagValuesBody = (
  rows: readonly FlagRowDraft[],
  cells: readonly FlagCellDraft[],
  valuePath: string,
  k: number,
  types: Map<string, { type: string; index: number }>,
  issue: (path: string, message: string, live: boolean) => void,
): Record<string, JsonValue> => {
  const value: Record<string, JsonValue> = {};
  rows.forEach((row, f) => {
    const key = row.key.trim();
    const cell = cells[f];
    if (key === '' || cell === undefined || cell.state === 'missing' || Object.hasOwn(value, key)) return;
    if (cell.state === 'unset') {
      value[key] = null;
      return;
    }
    const parsed = parseFlagValue(row.type, cell.text);
    if (!parsed.ok) {
      issue(flagPath(valuePath, key), parsed.error, true);
      return;
    }
    value[key] = parsed.value;
    const type = jsonType(parsed.value);
    const earlier = types.get(key);
    if (type === 'null') return;
    if (earlier === undefined) types.set(key, { type, index: k });
    else if (earlier.type !== type)
      issue(
        flagPath(valuePath, key),
        `is a ${type} here but a ${earlier.type} in variation ${earlier.index + 1}: a flag has one type in a group`,
        true,
      );
  });
  return value;
};
