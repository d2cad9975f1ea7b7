// The audit log over the shared SQL (issue 36). `recordAudit` is called inside each change's own transaction,
// exactly like queueWebhookEvent: an entry exists exactly when its change does, and its actor is the one the
// request's credential check named (or the CLI's, or the server's, through actingAs). A change stored with no
// actor at all is a wiring bug: it throws, so the change rolls back and the tests that drive it fail.
import { currentActor, type ActorKind } from '../../audit/actor.js';
import type { JsonValue } from '../../audit/audit-diff.js';
import { AUDIT_PURGE_SETTING } from '../migrations/014-audit-log.js';
import type { AuditChange, AuditEntry, AuditFilter, AuditStore, AuditSubjectKind } from '../audit-store.js';
import { num, text, textOrNull, type Queryable, type Row, type Sql } from './sql.js';

/** What an entry shows in place of a secret that was set or replaced: the secret itself never enters it. */
export const SECRET_SET = '(set)';
/** What an entry shows in place of a secret that was replaced by a new one. */
export const SECRET_ROTATED = '(rotated)';

// What the database cannot keep (U+0000, lone surrogates) becomes U+FFFD: an entry about a refused request
// (a failed sign-in with a client id full of junk) must still be written, not fail the request with a 500.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/g;
const MAX_TEXT = 1_000;

const storable = (value: string, max = Number.POSITIVE_INFINITY): string =>
  value.replace(NUL, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD').slice(0, max);

const storableJson = (value: JsonValue): JsonValue => {
  if (typeof value === 'string') return storable(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [storable(key), storableJson(item)]),
    );
  return value;
};

const jsonParameter = (value: JsonValue | undefined): string | null =>
  value === null || value === undefined ? null : JSON.stringify(storableJson(value));

/**
 * Records `change` by the current actor; call inside the change's transaction. The account is the one named,
 * else the environment's (an unknown account id, as a failed sign-in may send, is kept as none).
 */
export const recordAudit = async (tx: Queryable, change: AuditChange, atMs = Date.now()): Promise<void> => {
  const actor = change.actor ?? currentActor();
  if (actor === null)
    throw new Error(
      `The change ${change.action} has no actor for the audit log: run it in a request whose credential check names its caller, or inside actingAs(…).`,
    );
  await tx.query(
    `INSERT INTO audit_entries (at_ms, actor_kind, actor_id, actor_label, actor_address, account_id,
       environment_id, subject_kind, subject_id, action, before, after, details)
     VALUES ($1, $2, $3, $4, $5,
       COALESCE((SELECT id FROM accounts WHERE id = $6::text), (SELECT account_id FROM environments WHERE id = $7::text)),
       $7::text, $8, $9, $10, $11::jsonb, $12::jsonb, $13::jsonb)`,
    [
      atMs,
      actor.kind,
      actor.id === null ? null : storable(actor.id, MAX_TEXT),
      storable(actor.label, MAX_TEXT),
      actor.address,
      change.accountId === null ? null : storable(change.accountId, MAX_TEXT),
      change.envId === null ? null : storable(change.envId, MAX_TEXT),
      change.subjectKind,
      change.subjectId === null ? null : storable(change.subjectId, MAX_TEXT),
      change.action,
      jsonParameter(change.before),
      jsonParameter(change.after),
      jsonParameter(change.details),
    ],
  );
};

const jsonColumn = (row: Row, column: string): JsonValue => {
  const value = row[column];
  if (value === null || value === undefined) return null;
  // Written only by recordAudit, from JSON text.
  return (typeof value === 'string' ? JSON.parse(value) : value) as JsonValue;
};

/** Maps an audit_entries row. */
export const toEntry = (row: Row): AuditEntry => {
  const details = jsonColumn(row, 'details');
  return {
    seq: num(row, 'seq'),
    atMs: num(row, 'at_ms'),
    actor: {
      kind: text(row, 'actor_kind') as ActorKind,
      id: textOrNull(row, 'actor_id'),
      label: text(row, 'actor_label'),
      address: textOrNull(row, 'actor_address'),
    },
    accountId: textOrNull(row, 'account_id'),
    envId: textOrNull(row, 'environment_id'),
    subjectKind: text(row, 'subject_kind') as AuditSubjectKind,
    subjectId: textOrNull(row, 'subject_id'),
    action: text(row, 'action'),
    before: jsonColumn(row, 'before'),
    after: jsonColumn(row, 'after'),
    details: details !== null && typeof details === 'object' && !Array.isArray(details) ? details : null,
  };
};

/** The WHERE clause of `filter`, its parameters numbered from `$1`. */
const whereOf = (filter: AuditFilter): { clause: string; params: unknown[] } => {
  const params: unknown[] = [];
  const terms: string[] = [];
  const add = (column: string, op: string, value: unknown): void => {
    params.push(value);
    terms.push(`${column} ${op} $${params.length}`);
  };
  if (filter.accountId !== undefined) add('account_id', '=', filter.accountId);
  if (filter.actorKind !== undefined) add('actor_kind', '=', filter.actorKind);
  if (filter.actorId !== undefined) add('actor_id', '=', filter.actorId);
  if (filter.subjectKind !== undefined) add('subject_kind', '=', filter.subjectKind);
  if (filter.subjectId !== undefined) add('subject_id', '=', filter.subjectId);
  if (filter.action !== undefined) add('action', '=', filter.action);
  if (filter.envId !== undefined) add('environment_id', '=', filter.envId);
  if (filter.fromMs !== undefined) add('at_ms', '>=', filter.fromMs);
  if (filter.toMs !== undefined) add('at_ms', '<', filter.toMs);
  if (filter.campaignId !== undefined) {
    params.push(filter.campaignId);
    const id = `$${params.length}::text`;
    // An import's entry counts when it changed this campaign (jsonb compares by value, not by text).
    terms.push(
      `((subject_kind = 'campaign' AND subject_id = ${id}) OR (subject_kind = 'campaigns' AND before -> ${id} IS DISTINCT FROM after -> ${id}))`,
    );
  }
  return { clause: terms.length === 0 ? 'TRUE' : terms.join(' AND '), params };
};

/** Audit log operations of the store. */
export const auditQueries = (
  db: Pick<Sql, 'query' | 'transaction'>,
): Omit<AuditStore, 'restoreCampaign'> => ({
  async recordAuditEvent(change) {
    await db.transaction((tx) => recordAudit(tx, change));
  },
  async listAudit(filter, { beforeSeq, limit }) {
    const { clause, params } = whereOf(filter);
    params.push(beforeSeq ?? null, limit);
    const rows = await db.query(
      `SELECT * FROM audit_entries WHERE ${clause}
         AND ($${params.length - 1}::bigint IS NULL OR seq < $${params.length - 1}::bigint)
       ORDER BY seq DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(toEntry);
  },
  async listAuditAscending(filter, { afterSeq, limit }) {
    const { clause, params } = whereOf(filter);
    params.push(afterSeq, limit);
    const rows = await db.query(
      `SELECT * FROM audit_entries WHERE ${clause} AND seq > $${params.length - 1}::bigint
       ORDER BY seq LIMIT $${params.length}`,
      params,
    );
    return rows.map(toEntry);
  },
  async getAuditEntry(seq) {
    const rows = await db.query('SELECT * FROM audit_entries WHERE seq = $1', [seq]);
    return rows[0] === undefined ? null : toEntry(rows[0]);
  },
  async purgeAudit(beforeMs) {
    return db.transaction(async (tx) => {
      // Transaction-local: the guard lets this transaction's deletes through, and nothing after it.
      await tx.query('SELECT set_config($1, $2, true)', [AUDIT_PURGE_SETTING, 'on']);
      const rows = await tx.query(
        `WITH gone AS (DELETE FROM audit_entries WHERE at_ms < $1 RETURNING account_id)
         SELECT account_id, count(*)::int AS n FROM gone GROUP BY account_id ORDER BY account_id`,
        [beforeMs],
      );
      await tx.query('SELECT set_config($1, $2, true)', [AUDIT_PURGE_SETTING, 'off']);
      let total = 0;
      // One entry per account that lost entries, so each account's own log says what went and when.
      for (const row of rows) {
        const purged = num(row, 'n');
        total += purged;
        await recordAudit(tx, {
          accountId: textOrNull(row, 'account_id'),
          envId: null,
          subjectKind: 'audit',
          subjectId: null,
          action: 'audit.purged',
          before: null,
          after: null,
          details: { purged, before: new Date(beforeMs).toISOString() },
        });
      }
      return total;
    });
  },
});
