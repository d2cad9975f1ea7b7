// People's passwords (issue 36): argon2id through @node-rs/argon2 at its defaults (19 MiB, 2 passes, 1 lane:
// OWASP's first recommendation), kept as the PHC string, which names its own parameters so stronger ones can
// come later without breaking the old hashes. A password is chosen by a person, unlike the random secrets that
// SHA-256 is enough for (PROTOCOL.md §13.7). The hash runs in libuv's thread pool: the event loop goes on.
import { hash, verify } from '@node-rs/argon2';

/** The shortest password accepted: 12 characters (NIST SP 800-63B asks for at least 8; length is strength). */
export const MIN_PASSWORD_LENGTH = 12;
/** The longest: 1024 characters, so that a huge body cannot keep a hashing thread busy. */
export const MAX_PASSWORD_LENGTH = 1024;

/** What a password must be, said the same way by the schemas and the checks. */
export const PASSWORD_RULE = `must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long`;

/** Why `password` is refused (PASSWORD_RULE), or null when it is long enough and not too long. */
export const passwordProblem = (password: string): string | null => {
  // Code points, not UTF-16 units, as the route schemas count them (each surrogate pair is one character).
  const length = password.length - (password.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
  return length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH ? PASSWORD_RULE : null;
};

/** The argon2id hash of a password (PHC string). */
export const hashPassword = (password: string): Promise<string> => hash(password);

// Verified against when there is no user or no password yet, so that an unknown email costs what a wrong
// password costs: one argon2id verification. Made once per process, on first need.
let dummy: Promise<string> | undefined;

/**
 * Whether `password` matches `stored`; with no stored hash, verifies against a dummy one all the same and
 * answers false, so the time tells nothing about whether the person exists.
 */
export const passwordMatches = async (stored: string | null, password: string): Promise<boolean> => {
  if (stored === null) {
    dummy ??= hash('a password no one has, for the timing of unknown emails');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  // A stored value that is not a PHC string (a hand edit) opens nothing.
  return verify(stored, password).catch(() => false);
};
