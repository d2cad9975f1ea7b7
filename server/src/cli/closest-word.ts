// "Did you mean …?" for the command line: the known word nearest to a mistyped one. A transposition
// ("reprot") costs one edit, as a person's typo does, so the distance is Damerau-Levenshtein's (the optimal
// string alignment form); no library for it is a dependency, and the words compared are a few dozen of under
// 20 letters, so a plain table does.

/** The number of insertions, deletions, substitutions and adjacent swaps that turn `a` into `b`. */
export const editDistance = (a: string, b: string): number => {
  // d[i][j]: the distance between a's first i letters and b's first j.
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(a.length, b.length);
};

/**
 * The known word nearest to `typed`, or null when none is near enough to be what was meant: at most 2 edits,
 * and at most a third of the word's length (rounded up), so that a short word is not "corrected" into an
 * unrelated one ("ls" is not "list"). Ties go to a word that begins with `typed`, else to the first in
 * `known`'s order.
 */
export const closestWord = (typed: string, known: Iterable<string>): string | null => {
  const limit = Math.min(2, Math.ceil(typed.length / 3));
  let best: string | null = null;
  let bestDistance = limit + 1;
  const lower = typed.toLowerCase();
  for (const word of known) {
    const distance = editDistance(lower, word);
    // At the same distance, a word that begins with what was typed ("of": "off" rather than "on").
    const better =
      distance < bestDistance ||
      (best !== null && distance === bestDistance && word.startsWith(lower) && !best.startsWith(lower));
    if (better) {
      best = word;
      bestDistance = distance;
    }
  }
  return best;
};
