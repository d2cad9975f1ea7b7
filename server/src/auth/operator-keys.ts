// The operator keys one server instance accepts (PROTOCOL.md §13.8): FEATURE_OPERATOR_KEY and, on the embedded
// store, the key it makes for each run (local-operator.ts). A console session and a sign-in link are bound to
// the key that opened them by a digest of that key kept in their row (console-sessions.ts), and an instance
// accepts only rows bound to one of its own keys: changing FEATURE_OPERATOR_KEY ends the old key's sessions and
// links on every instance sharing the database, and the per-run key's end with its run.
//
// That digest is scrypt, not SHA-256: an operator key is chosen by a person (24 characters at least, not
// necessarily random), and a copy of the database must not hand out a fast test of guesses at it. It is derived
// once per key and process, when first needed, with a fixed salt: every instance must derive the same digest.
import { scrypt, timingSafeEqual } from 'node:crypto';
import { digest, secretMatches } from '../ids.js';

const SALT = 'feature-server: operator key of console sessions';
const DIGEST_BYTES = 32;

/** Digests already derived in this process, by the SHA-256 of their key (apps of one process share them). */
const derived = new Map<string, Promise<Buffer>>();

const keyDigest = (key: string): Promise<Buffer> => {
  const id = digest(key).toString('hex');
  let found = derived.get(id);
  if (found === undefined) {
    found = new Promise<Buffer>((resolve, reject) => {
      scrypt(key, SALT, DIGEST_BYTES, (error, value) => (error === null ? resolve(value) : reject(error)));
    });
    derived.set(id, found);
  }
  return found;
};

/** One of an instance's operator keys, as a caller proved it. */
export interface OperatorKey {
  /** The digest that the sessions and links this key opens carry. */
  digest(): Promise<Uint8Array>;
}

/** The operator keys of one instance. */
export class OperatorKeys {
  readonly #keys: readonly string[];
  /** SHA-256 of each key, for the constant-time check of a key a request sends. */
  readonly #digests: readonly Buffer[];

  constructor(keys: readonly string[]) {
    this.#keys = keys;
    this.#digests = keys.map((key) => digest(key));
  }

  /** How many keys there are; none: the operator routes and the console are off. */
  get size(): number {
    return this.#keys.length;
  }

  /** The key `given` is, or null; every key is compared, so the timing tells nothing of which or how close. */
  find(given: string): OperatorKey | null {
    const matches = this.#digests.map((d) => secretMatches(given, d));
    const key = this.#keys[matches.indexOf(true)];
    return key === undefined ? null : { digest: () => keyDigest(key) };
  }

  /** The first key (FEATURE_OPERATOR_KEY when set): the one the links the server makes on its own are bound to. */
  first(): OperatorKey | null {
    const key = this.#keys[0];
    return key === undefined ? null : { digest: () => keyDigest(key) };
  }

  /** Whether a session or link carrying `stored` (null: a row that names no key) was opened with one of these keys. */
  async accepts(stored: Uint8Array | null): Promise<boolean> {
    if (stored === null || stored.length !== DIGEST_BYTES) return false;
    const own = await Promise.all(this.#keys.map((key) => keyDigest(key)));
    return own.map((d) => timingSafeEqual(d, stored)).includes(true);
  }
}
