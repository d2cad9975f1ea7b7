// Audit entries on the wire (issue 36, docs/teams.md "Audit log"): the entry as stored, its time in ISO form,
// and the readable diff of its two states, computed here so the console shows it without a diff of its own.
import { auditDiff, type DiffLine, type JsonValue } from '../audit/audit-diff.js';
import type { AuditEntry } from '../store/audit-store.js';

/** An entry as the audit routes and the export answer it. */
export interface AuditAnswer {
  seq: number;
  at: string;
  actor: AuditEntry['actor'];
  account_id: string | null;
  env_id: string | null;
  subject: { kind: string; id: string | null };
  action: string;
  before: JsonValue;
  after: JsonValue;
  diff: DiffLine[];
  details: { [key: string]: JsonValue } | null;
}

/** The answer of one entry. */
export const auditAnswer = (entry: AuditEntry): AuditAnswer => ({
  seq: entry.seq,
  at: new Date(entry.atMs).toISOString(),
  actor: entry.actor,
  account_id: entry.accountId,
  env_id: entry.envId,
  subject: { kind: entry.subjectKind, id: entry.subjectId },
  action: entry.action,
  before: entry.before,
  after: entry.after,
  diff: auditDiff(entry.before, entry.after),
  details: entry.details,
});

const isObject = (value: JsonValue): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An entry narrowed to one campaign, for that campaign's history: an import's entry keeps every campaign of
 * the environment, of which the history shows only this one's states (null where it was not there).
 */
export const campaignEntry = (entry: AuditEntry, campaignId: string): AuditEntry => {
  if (entry.subjectKind !== 'campaigns') return entry;
  const pick = (state: JsonValue): JsonValue =>
    isObject(state) && Object.hasOwn(state, campaignId) ? (state[campaignId] ?? null) : null;
  return {
    ...entry,
    subjectKind: 'campaign',
    subjectId: campaignId,
    before: pick(entry.before),
    after: pick(entry.after),
  };
};
