// Assignment histories as JSON text instead of jsonb. Every new visitor of the decision API writes one row of
// dozens of groups, and parsing that JSON into jsonb was the largest part of the write on the embedded store
// (about two thirds of the row's cost on PGlite's thread, which shares two cores with the server). The store
// only ever reads a history whole and parses it in JavaScript, so nothing needs jsonb's form; the one merge
// (a visitor written again, ON CONFLICT) casts to jsonb for that row only (collect-sql.ts).
// ALTER COLUMN TYPE rewrites the table: on a large PostgreSQL table apply it at a quiet time.

/** Migration 5: assignments.history from jsonb to text. */
export const assignmentHistoryTextMigration = {
  version: 5,
  name: '005-assignment-history-text',
  sql: `
ALTER TABLE assignments ALTER COLUMN history TYPE text USING history::text;
`,
} as const;
