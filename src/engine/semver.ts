// Semantic versions for the SEMVER_* targeting operators (PROTOCOL.md §7): `MAJOR[.MINOR[.PATCH]][-pre][+build]`
// with an optional leading `v`, missing parts 0, the build ignored, and SemVer 2.0 precedence. Numeric parts
// follow SemVer 2.0 strictly (no leading zeros), so `1.02` is not a version and a rule on it does not match.

/** A parsed semantic version. Numeric parts are kept as digit strings so that any length compares exactly. */
export interface SemVer {
  /** MAJOR, MINOR and PATCH as digit strings without leading zeros. */
  readonly core: readonly [string, string, string];
  /** The pre-release identifiers; empty for a release. */
  readonly pre: readonly string[];
}

// One pre-release identifier: numeric without a leading zero, or alphanumeric with at least one non-digit.
const PRE_ID = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
const SEMVER = new RegExp(
  '^v?(0|[1-9]\\d*)(?:\\.(0|[1-9]\\d*)(?:\\.(0|[1-9]\\d*))?)?' +
    `(?:-(${PRE_ID}(?:\\.${PRE_ID})*))?` +
    '(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$',
);
const DIGITS = /^\d+$/;

/** Parses a semantic version; `undefined` when `text` is not one. */
export const parseSemVer = (text: string): SemVer | undefined => {
  const m = SEMVER.exec(text);
  if (m === null) return undefined;
  const pre = m[4];
  return {
    core: [m[1] ?? '0', m[2] ?? '0', m[3] ?? '0'],
    pre: pre === undefined ? [] : pre.split('.'),
  };
};

/** Compares two digit strings without leading zeros as numbers. */
const compareDigits = (a: string, b: string): number =>
  a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;

/**
 * A version made ready for many comparisons (targeting compiles its targets into these, and reads each
 * context value into one once per decision): `key` is a text whose code-unit order is SemVer 2.0 precedence,
 * so a comparison is one native string comparison, however many identifiers the versions have.
 */
export interface ComparableVersion extends SemVer {
  /** Equal exactly when precedence is equal (the build ignored); ordered as precedence is. */
  readonly key: string;
}

/** A number's digits (no leading zeros) after their count: a shorter number sorts first. */
const counted = (digits: string): string => String.fromCharCode(digits.length) + digits;

/**
 * The version ready for {@link compareVersions}. Each core part is its digit count then its digits. A release
 * then ends with U+0003, above any pre-release; a pre-release lists its identifiers: a numeric one as U+0001,
 * its digit count and digits, below an alphanumeric one as U+0002, its text and U+0000 (below every character
 * an identifier may hold, so a shorter text sorts first). With fewer identifiers a version is a prefix of the
 * other's key, so it sorts first, as SemVer says.
 */
export const comparableVersion = (v: SemVer): ComparableVersion => {
  let key = v.core.map(counted).join('');
  if (v.pre.length === 0) key += '\u0003';
  else for (const id of v.pre) key += DIGITS.test(id) ? `\u0001${counted(id)}` : `\u0002${id}\u0000`;
  return { core: v.core, pre: v.pre, key };
};

/** SemVer 2.0 precedence of two comparable versions: the sign of `a` − `b`. */
export const compareVersions = (a: ComparableVersion, b: ComparableVersion): number =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** Compares two pre-release identifiers: numeric ones numerically and below alphanumeric ones (ASCII order). */
const compareIdentifiers = (a: string, b: string): number => {
  const an = DIGITS.test(a);
  const bn = DIGITS.test(b);
  if (an && bn) return compareDigits(a, b);
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
};

/** SemVer 2.0 precedence: negative when `a` < `b`, 0 when equal (build ignored), positive when `a` > `b`. */
export const compareSemVer = (a: SemVer, b: SemVer): number => {
  for (let i = 0; i < 3; i++) {
    const c = compareDigits(a.core[i] ?? '0', b.core[i] ?? '0');
    if (c !== 0) return c;
  }
  // A pre-release is lower than its release; otherwise identifiers compare in turn, fewer being lower.
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  const n = Math.min(a.pre.length, b.pre.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifiers(a.pre[i] ?? '', b.pre[i] ?? '');
    if (c !== 0) return c;
  }
  return a.pre.length - b.pre.length;
};

/**
 * Reads a plain release `v?MAJOR[.MINOR[.PATCH]]` (no pre-release, no build, parts of at most 15 digits) into
 * `out` without allocating; false for anything else, which then takes the full parser.
 */
const readPlainRelease = (text: string, out: [number, number, number]): boolean => {
  const n = text.length;
  let i = text.charCodeAt(0) === 0x76 /* v */ ? 1 : 0;
  for (let part = 0; part < 3; part++) {
    const start = i;
    let value = 0;
    for (; i < n; i++) {
      const d = text.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) break;
      value = value * 10 + d;
    }
    const digits = i - start;
    if (digits === 0 || digits > 15 || (digits > 1 && text.charCodeAt(start) === 0x30)) return false;
    out[part] = value;
    if (i === n) {
      for (let rest = part + 1; rest < 3; rest++) out[rest] = 0;
      return true;
    }
    if (text.charCodeAt(i) !== 0x2e /* . */ || part === 2) return false;
    i++;
  }
  return false;
};

/**
 * A comparison of any text against a fixed target version: the sign of `text` − `target` by SemVer 2.0
 * precedence, or undefined when `text` is not a version. Plain releases (the usual app versions) compare
 * without allocating; anything else goes through {@link parseSemVer}.
 */
export const semVerComparator = (target: SemVer): ((text: string) => number | undefined) => {
  const core = target.core.map(Number);
  const numeric = target.core.every((part) => part.length <= 15);
  const targetIsRelease = target.pre.length === 0;
  return (text) => {
    const v: [number, number, number] = [0, 0, 0];
    if (numeric && readPlainRelease(text, v)) {
      for (let i = 0; i < 3; i++) {
        const d = (v[i] ?? 0) - (core[i] ?? 0);
        if (d !== 0) return d;
      }
      // A release is above any pre-release of the same version.
      return targetIsRelease ? 0 : 1;
    }
    const parsed = parseSemVer(text);
    return parsed === undefined ? undefined : compareSemVer(parsed, target);
  };
};
