// The migrations in the order they apply. A new one is a module `NNN-name.ts` exporting its SQL as a string
// (so the build carries it), and optionally a `run` step, and a line here; an applied migration is never edited.
import { initialMigration } from './001-initial.js';
import { accessesMigration } from './002-accesses.js';
import { trafficIndexMigration } from './003-traffic-index.js';
import { consoleSessionsMigration } from './004-console-sessions.js';
import { assignmentHistoryTextMigration } from './005-assignment-history-text.js';
import { assignmentIdCodesMigration } from './006-assignment-id-codes.js';
import { consoleSessionKeysMigration } from './007-console-session-keys.js';
import { campaignBytesMigration } from './008-campaign-bytes.js';
import { reportRollupsMigration } from './009-report-rollups.js';
import { timePartitionsMigration } from './010-time-partitions.js';
import { pendingReceivedMigration } from './011-pending-received.js';
import { webhooksMigration } from './012-webhooks.js';
import { peopleMigration } from './013-people.js';
import { auditLogMigration } from './014-audit-log.js';
import { singleSignOnMigration } from './015-single-sign-on.js';
import { pendingMembersMigration } from './016-pending-members.js';
import type { Queryable } from '../sql/sql.js';
import type { MigrationStep } from './migration-progress.js';

/**
 * One migration: statements separated by `;` (none inside strings or bodies), `--` comments allowed; then,
 * for what plain SQL cannot say without procedural code (e.g. one partition per month the data spans), `run`
 * in the same transaction, given the time it runs at and where to say how far it is (MigrationStep).
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  readonly run?: (tx: Queryable, step: MigrationStep) => Promise<void>;
}

/** Every migration, by ascending version. */
export const MIGRATIONS: readonly Migration[] = [
  initialMigration,
  accessesMigration,
  trafficIndexMigration,
  consoleSessionsMigration,
  assignmentHistoryTextMigration,
  assignmentIdCodesMigration,
  consoleSessionKeysMigration,
  campaignBytesMigration,
  reportRollupsMigration,
  timePartitionsMigration,
  pendingReceivedMigration,
  webhooksMigration,
  peopleMigration,
  auditLogMigration,
  singleSignOnMigration,
  pendingMembersMigration,
];
