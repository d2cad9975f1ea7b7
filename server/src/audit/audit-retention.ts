// The audit log's retention (issue 36, FEATURE_AUDIT_RETENTION_DAYS): run by the app's hourly upkeep. No one
// asked for it, so the server is its actor; the purge records its own entry (store/sql/audit-sql.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { AuditStore } from '../store/audit-store.js';
import { actingAs, SERVER_ACTOR } from './actor.js';

const DAY_MS = 86_400_000;

/** Purges entries older than `days` at `nowMs` (none when `days` is null: kept forever); never throws. */
export const purgeOldAuditEntries = async (
  store: Pick<AuditStore, 'purgeAudit'>,
  nowMs: number,
  days: number | null,
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
): Promise<void> => {
  if (days === null) return;
  try {
    const purged = await actingAs(SERVER_ACTOR, () => store.purgeAudit(nowMs - days * DAY_MS));
    if (purged > 0) log.info({ purged }, 'old audit entries purged');
  } catch (error) {
    log.error({ err: error }, 'the audit log purge failed');
  }
};
