// Lists for the terminal (the commands without --json): left-aligned columns, a header row, no trailing
// spaces.

/** Renders `rows` under `header` as aligned columns; `empty` when there are no rows. */
export const textTable = (header: readonly string[], rows: readonly string[][], empty: string): string => {
  if (rows.length === 0) return empty;
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};
