// The audit log (issue 36): one row per change, in the order the changes committed their entries (`seq`).
// Append-only for real: a trigger refuses every UPDATE, DELETE and TRUNCATE of the table that the product (or
// a bug in it) sends, except a DELETE made while the transaction-local setting `feature.audit_purge` is on,
// which only the retention purge sets (sql/audit-sql.ts), and which logs itself. Someone with the database's
// own credentials can set that setting, or drop the trigger: keeping them from it is the database's access
// control, not something a table can do.
import type { Queryable } from '../sql/sql.js';

/** The setting the retention purge turns on for its own transaction only. */
export const AUDIT_PURGE_SETTING = 'feature.audit_purge';

// plpgsql bodies hold `;`: created by `run`, one statement each, not split.
const GUARD_FUNCTION = `
CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $guard$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('${AUDIT_PURGE_SETTING}', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit entries are append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$guard$`;

/** Migration 14: the audit log and its append-only guard. */
export const auditLogMigration = {
  version: 14,
  name: '014-audit-log',
  sql: `
CREATE TABLE audit_entries (
  seq bigserial PRIMARY KEY,
  at_ms bigint NOT NULL,
  actor_kind text NOT NULL,
  actor_id text,
  actor_label text NOT NULL,
  actor_address text,
  account_id text,
  environment_id text,
  subject_kind text NOT NULL,
  subject_id text,
  action text NOT NULL,
  before jsonb,
  after jsonb,
  details jsonb
);
CREATE INDEX audit_entries_account ON audit_entries (account_id, seq);
CREATE INDEX audit_entries_subject ON audit_entries (environment_id, subject_kind, subject_id, seq);
CREATE INDEX audit_entries_time ON audit_entries (at_ms);
`,
  run: async (tx: Queryable): Promise<void> => {
    await tx.query(GUARD_FUNCTION);
    await tx.query(
      `CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries
       FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`,
    );
    await tx.query(
      `CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
       FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()`,
    );
  },
} as const;
