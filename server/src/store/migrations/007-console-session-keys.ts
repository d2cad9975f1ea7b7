// Console sessions and sign-in links bound to the operator key that opened them (auth/operator-keys.ts): each
// row carries a digest of that key, and a server accepts only rows bound to a key it was started with, so
// changing FEATURE_OPERATOR_KEY ends the old key's sessions and links on every instance of the database.
// Rows of before this migration name no key, and a session of a key that has since leaked would live on: they
// are deleted (everyone signs in to the console once more after the upgrade). The column may be null so that a
// server of before, still running beside upgraded ones on PostgreSQL, can still write its rows; a row without
// a key digest is refused by every upgraded server.

/** Migration 7: console_sessions and console_sign_in_links carry the digest of their operator key. */
export const consoleSessionKeysMigration = {
  version: 7,
  name: '007-console-session-keys',
  sql: `
DELETE FROM console_sessions;
DELETE FROM console_sign_in_links;
ALTER TABLE console_sessions ADD COLUMN operator_key_digest bytea;
ALTER TABLE console_sign_in_links ADD COLUMN operator_key_digest bytea;
`,
} as const;
