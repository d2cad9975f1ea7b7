// How assignment histories (§8.4) are written to and read from the assignments table. Since migration 006 a
// history is written as numbers: "group:variation" pairs of the codes of its ids in assignment_ids, joined by
// commas ("3:7,4:9"): 231 characters where the JSON of 37 groups of 20-character ids took 1 703, which made
// the write of a new visitor about a quarter cheaper on the embedded store's threads (interleaved against the
// JSON store). Rows written before are JSON objects (migration 005's text) and are read and merged as such. The numbers of ids are learnt from the database as they are needed and kept for the
// store's life (ids are a few per variation, never removed, and never change number).
import type { AssignmentHistory } from 'feature-ts/protocol';
import { num, text, type Queryable, type Row } from './sql.js';

/** A code as written: a positive integer that fits PostgreSQL's integer, without leading zeros. */
const CODE = '[1-9][0-9]{0,9}';
/**
 * The numbers form, whole: what a history written since migration 006 looks like (empty for none). The same
 * expression tells the forms apart in merged_assignment_history (migration 006).
 */
const NUMBERS_FORM = new RegExp(`^(?:${CODE}:${CODE}(?:,${CODE}:${CODE})*)?$`);
/** The largest code PostgreSQL's integer holds: a larger number in a row written by hand is no code. */
const MAX_CODE = 2_147_483_647;

/** The history of a visitor written again (`ON CONFLICT DO UPDATE SET history = …`). */
export const HISTORY_ON_CONFLICT = {
  /**
   * The stored history merged with the new one, the stored variation of a group winning (§8.4), in the form
   * the row has (numbers, or JSON written before migration 006); a row that cannot be read is replaced. A
   * stored text that starts like JSON and is not fails with a data exception (SQLSTATE class 22): the caller
   * then writes that visitor alone with `replace`. A function of migration 006: inline, its subqueries were
   * planned with every statement.
   */
  merge: 'merged_assignment_history(assignments.history, excluded.history)',
  /** For a stored history that cannot be read at all: the new one replaces it. */
  replace: 'excluded.history',
} as const;

/**
 * A JSON history (written before migration 006) as the engine reads it: string variations only (a row written
 * by hand may hold others), group ids as own keys of an object without prototype, so that "__proto__" stays a
 * group. Null for a text that is not a JSON object: that visitor is read as having no history, and its
 * decision answered, not failed.
 */
const jsonHistory = (raw: string): AssignmentHistory | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const out = Object.create(null) as AssignmentHistory;
  for (const [group, variation] of Object.entries(parsed))
    if (typeof variation === 'string') out[group] = variation;
  return out;
};

/** The codes of a history in the numbers form, in pairs: [group, variation, group, variation, …]. */
const codesOf = (raw: string): number[] => (raw === '' ? [] : raw.split(/[,:]/).map(Number));

/** Writes and reads histories over `db`, learning the numbers of ids from assignment_ids. */
export const storedHistories = (db: Queryable) => {
  const codeOf = new Map<string, number>();
  const idOf = new Map<number, string>();
  const learn = (rows: readonly Row[]): void => {
    for (const row of rows) {
      const code = num(row, 'code');
      const id = text(row, 'id');
      codeOf.set(id, code);
      idOf.set(code, id);
    }
  };

  // The text of each "group:variation" pair written, by group then variation: a history is written with two
  // lookups per group and no number formatted (every new visitor of the decision API writes dozens).
  const pairs = new Map<string, Map<string, string>>();
  const pairOf = (group: string, variation: string): string | undefined => {
    let byVariation = pairs.get(group);
    const known = byVariation?.get(variation);
    if (known !== undefined) return known;
    const groupCode = codeOf.get(group);
    const variationCode = codeOf.get(variation);
    if (groupCode === undefined || variationCode === undefined) return undefined;
    const pair = `${groupCode}:${variationCode}`;
    if (byVariation === undefined) pairs.set(group, (byVariation = new Map<string, string>()));
    byVariation.set(variation, pair);
    return pair;
  };
  /** The numbers form of `history`; null when one of its ids has no number known here yet. */
  const numbersOf = (history: AssignmentHistory): string | null => {
    let out = '';
    for (const group of Object.keys(history)) {
      const pair = pairOf(group, history[group] as string);
      if (pair === undefined) return null;
      out = out === '' ? pair : `${out},${pair}`;
    }
    return out;
  };

  return {
    /**
     * The histories in the numbers form, ids without a number given one first. The numbers are committed
     * before this returns, so a row written with them can always be read, by any process on the database.
     */
    async write(histories: readonly AssignmentHistory[]): Promise<string[]> {
      const texts = histories.map(numbersOf);
      if (texts.includes(null)) {
        const missing = new Set<string>();
        for (const history of histories)
          for (const group of Object.keys(history)) {
            if (!codeOf.has(group)) missing.add(group);
            const variation = history[group] as string;
            if (!codeOf.has(variation)) missing.add(variation);
          }
        const ids = [...missing];
        // Another process may give the same id its number meanwhile: the insert then skips it (waiting for
        // that one's commit), and the read, a statement of its own, sees the number it committed.
        await db.query(
          'INSERT INTO assignment_ids (id) SELECT unnest($1::text[]) ON CONFLICT (id) DO NOTHING',
          [ids],
        );
        learn(await db.query('SELECT code, id FROM assignment_ids WHERE id = ANY($1::text[])', [ids]));
        const lost = ids.find((id) => !codeOf.has(id));
        if (lost !== undefined) throw new Error(`assignment id "${lost}" got no number in assignment_ids`);
      }
      return texts.map((text, i) => text ?? numbersOf(histories[i] ?? {}) ?? '');
    },

    /**
     * The histories of stored rows (the history column of each), in order: null for one that cannot be read
     * (written by hand), which is then treated as no history. A pair naming a number unknown to
     * assignment_ids (written by hand too) is left out.
     */
    async read(raws: readonly unknown[]): Promise<Array<AssignmentHistory | null>> {
      const unknown = new Set<number>();
      for (const raw of raws)
        if (typeof raw === 'string' && NUMBERS_FORM.test(raw))
          for (const code of codesOf(raw)) if (!idOf.has(code) && code <= MAX_CODE) unknown.add(code);
      if (unknown.size > 0)
        learn(
          await db.query('SELECT code, id FROM assignment_ids WHERE code = ANY($1::integer[])', [
            [...unknown],
          ]),
        );
      return raws.map((raw) => {
        if (typeof raw !== 'string') return null;
        if (!NUMBERS_FORM.test(raw)) return raw.startsWith('{') ? jsonHistory(raw) : null;
        const codes = codesOf(raw);
        const out = Object.create(null) as AssignmentHistory;
        for (let i = 0; i < codes.length; i += 2) {
          const group = idOf.get(codes[i] as number);
          const variation = idOf.get(codes[i + 1] as number);
          // The first pair of a group wins, as in the merge (a row written by hand may repeat one).
          if (group !== undefined && variation !== undefined && !(group in out)) out[group] = variation;
        }
        return out;
      });
    },
  };
};
