// What the rules of one bucketing file read of a context value, done once per decision and key however many
// rules read it: the string targets' scans (string-patterns.ts) and the value parsed as a version. A rule
// that parsed the value itself would cost the value's length each time; a tenant's thousands of SEMVER rules
// on a long value then held the main thread (issue 29).
import { comparableVersion, parseSemVer, type ComparableVersion } from './semver.js';
import { StringPatterns } from './string-patterns.js';

/** The reads shared by the rules of one file; build one per file and seal it once the file is compiled. */
export class FileReads {
  /** The string targets, per key and place. */
  readonly patterns = new StringPatterns();
  private readonly versions = new Map<string, (text: string) => ComparableVersion | undefined>();

  /**
   * The reader of key `key`'s values as versions, ready for comparison, remembering the last value it read:
   * a value's identifiers are classified and its precedence key built once, not once per rule.
   */
  version(key: string): (text: string) => ComparableVersion | undefined {
    let parse = this.versions.get(key);
    if (parse === undefined) {
      let last: string | undefined;
      let parsed: ComparableVersion | undefined;
      parse = (text) => {
        if (text !== last) {
          last = text;
          const version = parseSemVer(text);
          parsed = version === undefined ? undefined : comparableVersion(version);
        }
        return parsed;
      };
      this.versions.set(key, parse);
    }
    return parse;
  }

  /** Builds the automata now, so that no decision pays for them. */
  seal(): void {
    this.patterns.seal();
  }
}
