// The audit log as stored (issue 36): one append-only entry per change, written by the change's own
// transaction (sql/audit-sql.ts `recordAudit`), with the subject's whole state before and after it. Nothing
// in the product edits or deletes an entry: the database refuses it (migration 014) except to the retention
// purge, which logs itself.
import type { Actor, ActorKind } from '../audit/actor.js';
import type { JsonValue } from '../audit/audit-diff.js';
import type { CampaignRecord } from './campaign-store.js';

/** What an entry is about. */
export type AuditSubjectKind =
  | 'account'
  | 'environment'
  | 'campaign'
  | 'campaigns'
  | 'access'
  | 'token'
  | 'webhook'
  | 'session'
  | 'setting'
  | 'user'
  | 'sso'
  | 'audit';

/** The subject kinds, for schemas and checks. */
export const AUDIT_SUBJECT_KINDS: readonly AuditSubjectKind[] = [
  'account',
  'environment',
  'campaign',
  'campaigns',
  'access',
  'token',
  'webhook',
  'session',
  'setting',
  'user',
  'sso',
  'audit',
];

/** What a change writes into the log (the actor and the time are added by recordAudit). */
export interface AuditChange {
  /** The account, or null when only the environment is known (then the environment's account). */
  accountId: string | null;
  envId: string | null;
  subjectKind: AuditSubjectKind;
  subjectId: string | null;
  /** `campaign.updated`, `access.revoked`, `console.sign_in_failed`, … */
  action: string;
  /** The whole subject before the change; null where it did not exist (or the entry is an event). */
  before: JsonValue;
  /** The whole subject after the change; null where it no longer exists. Secrets are markers. */
  after: JsonValue;
  /** What neither state says: an import's count, the entry a restore came from, a purge's horizon. */
  details?: { [key: string]: JsonValue };
  /**
   * Who made it, when the change itself proves it rather than the request's credential check: a person using
   * their own invitation or reset link (the route is open to anyone; the link names the person).
   */
  actor?: Actor;
}

/** An entry as read back. */
export interface AuditEntry extends Omit<AuditChange, 'details' | 'actor'> {
  seq: number;
  atMs: number;
  actor: { kind: ActorKind; id: string | null; label: string; address: string | null };
  details: { [key: string]: JsonValue } | null;
}

/** Which entries to read; every field narrows. */
export interface AuditFilter {
  accountId?: string;
  actorKind?: ActorKind;
  actorId?: string;
  subjectKind?: AuditSubjectKind;
  subjectId?: string;
  action?: string;
  envId?: string;
  /** From this time (inclusive), in ms. */
  fromMs?: number;
  /** Before this time (exclusive), in ms. */
  toMs?: number;
  /**
   * One campaign's history: its own entries, and the imports that changed it (an import's entry keeps the
   * environment's campaigns by id).
   */
  campaignId?: string;
}

/** The store's audit log. */
export interface AuditStore {
  /** Records an event that changes nothing else (a failed sign-in), in its own transaction. */
  recordAuditEvent(change: AuditChange): Promise<void>;
  /** Entries matching `filter`, newest first, with `seq` below `beforeSeq` when given; at most `limit`. */
  listAudit(filter: AuditFilter, page: { beforeSeq?: number; limit: number }): Promise<AuditEntry[]>;
  /** Entries matching `filter`, oldest first, with `seq` above `afterSeq`; at most `limit` (export pages). */
  listAuditAscending(filter: AuditFilter, page: { afterSeq: number; limit: number }): Promise<AuditEntry[]>;
  /** One entry; null when unknown. */
  getAuditEntry(seq: number): Promise<AuditEntry | null>;
  /**
   * Deletes the entries recorded before `beforeMs` (the retention purge) and records an `audit.purged` entry
   * in the same transaction, by the current actor; returns how many went.
   */
  purgeAudit(beforeMs: number): Promise<number>;
  /**
   * Puts a campaign back as entry `seq` of its history left it (a `campaign.restored` entry with
   * `restoredFrom`); null when the entry is not in that campaign's history. IdConflictError when the entry
   * deleted the campaign, the campaign is deleted now, it is interrupted (final), or its ids or slug are taken.
   */
  restoreCampaign(envId: string, campaignId: string, seq: number): Promise<CampaignRecord | null>;
}
