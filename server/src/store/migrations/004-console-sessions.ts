// The console's sessions and one-time sign-in links (console/console-sessions.ts), kept in the database so
// that every server instance of one PostgreSQL database knows them (sign-out on one ends the session on all)
// and a restart signs no one out. Only SHA-256 digests are stored: a copy of the table opens nothing.

/** Migration 4: console_sessions and console_sign_in_links. */
export const consoleSessionsMigration = {
  version: 4,
  name: '004-console-sessions',
  sql: `
CREATE TABLE console_sessions (
  digest bytea PRIMARY KEY,
  created_ms bigint NOT NULL,
  expires_ms bigint NOT NULL
);
CREATE INDEX console_sessions_expires ON console_sessions (expires_ms);
CREATE TABLE console_sign_in_links (
  digest bytea PRIMARY KEY,
  expires_ms bigint NOT NULL
);
`,
} as const;
