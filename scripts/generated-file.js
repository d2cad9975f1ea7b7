// Writes a generated file, or (with `--check`) fails when the file on disk differs from what its generator
// makes now. CI runs the checks in `npm run lint`, so generated files never drift from their sources.
import { readFileSync, writeFileSync } from 'node:fs';

/** The file's text, or null when it does not exist. */
export const readOrNull = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** The first line (1-based) where `a` and `b` differ, with both versions of it. */
const firstDifference = (a, b) => {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i++)
    if (left[i] !== right[i]) return { line: i + 1, was: left[i], now: right[i] };
  return null;
};

/**
 * `--check`: exits 1 with a message naming `command` when `file` differs from `text`; otherwise writes `text`
 * into `file` (when it changed) and says so.
 */
export const writeOrCheck = ({ file, text, command, check, what }) => {
  const current = readOrNull(file);
  if (check) {
    if (current === text) {
      console.log(`${file}: up to date.`);
      return;
    }
    const at = current === null ? null : firstDifference(current, text);
    console.error(
      current === null
        ? `${file} is missing. Run \`${command}\` and commit the result.`
        : `${file} is out of date with ${what} (first difference at line ${at?.line ?? '?'}).\n` +
            `  in the file:  ${JSON.stringify(at?.was ?? null)}\n` +
            `  generated:    ${JSON.stringify(at?.now ?? null)}\n` +
            `Run \`${command}\` and commit the result.`,
    );
    process.exitCode = 1;
    return;
  }
  if (current === text) {
    console.log(`${file}: unchanged.`);
    return;
  }
  writeFileSync(file, text);
  console.log(`${file}: written.`);
};
