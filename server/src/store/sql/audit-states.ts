// The states the audit log keeps of each subject (issue 36): what people read in a diff and what a restore
// puts back, never a secret. A secret is a marker ("(set)"; "(rotated)" after a rotation), so a diff still
// shows that it changed and the log gives nothing away to whoever reads it.
import type { JsonValue } from '../../audit/audit-diff.js';
import type { AccessRecord } from '../access-store.js';
import type { Account, EnvironmentRecord } from '../account-store.js';
import type { CampaignRecord } from '../campaign-store.js';
import type { MemberRecord, UserRecord } from '../user-store.js';
import type { WebhookRecord } from '../webhook-store.js';
import { recordAudit, SECRET_SET } from './audit-sql.js';
import type { Queryable } from './sql.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * A campaign as the log keeps it: everything a restore needs (body, description, state, position), not its
 * timestamps, which every edit moves and which say nothing the entry's own time does not.
 */
export const campaignState = (record: CampaignRecord): JsonValue => ({
  id: record.id,
  position: record.position,
  state: record.state,
  description: record.description,
  // A validated campaign body: plain JSON.
  body: record.body as unknown as JsonValue,
});

/** An environment as the log keeps it; its API key only as a marker. */
export const environmentState = (env: EnvironmentRecord, apiKey: string = SECRET_SET): JsonValue => ({
  id: env.id,
  name: env.name,
  panic: env.panic,
  accountSettings: {
    enabledXPC: env.accountSettings.enabledXPC,
    enabled1V1T: env.accountSettings.enabled1V1T,
  },
  apiKey,
});

/** An account as the log keeps it. */
export const accountState = (account: Account): JsonValue => ({ id: account.id, name: account.name });

/** An access as the log keeps it; its client secret only as a marker. */
export const accessState = (access: AccessRecord): JsonValue => ({
  id: access.id,
  name: access.name,
  clientId: access.clientId,
  clientSecret: SECRET_SET,
  environments: [...access.environments],
  actions: [...access.actions],
  revokedAt: iso(access.revokedMs),
});

/** A member of an account as the log keeps it: who, their role there, and whether they chose a password yet. */
export const memberState = (member: MemberRecord): JsonValue => ({
  userId: member.userId,
  email: member.email,
  name: member.name,
  role: member.role,
  active: member.active,
});

/** A person as the log keeps them; their password only as a marker (none yet: null). */
export const userState = (user: UserRecord): JsonValue => ({
  id: user.id,
  email: user.email,
  name: user.name,
  password: user.passwordHash === null ? null : SECRET_SET,
});

/** A webhook target as the log keeps it; its signing secret only as a marker. */
export const webhookState = (webhook: WebhookRecord): JsonValue => ({
  id: webhook.id,
  url: webhook.url,
  events: [...webhook.events],
  secret: SECRET_SET,
});

/** Records a change of one campaign, from its records before and after (null: not there). */
export const auditCampaign = async (
  tx: Queryable,
  envId: string,
  action: string,
  before: CampaignRecord | null,
  after: CampaignRecord | null,
  details?: { restoredFrom: number },
): Promise<void> => {
  await recordAudit(tx, {
    accountId: null,
    envId,
    subjectKind: 'campaign',
    subjectId: (after ?? before)?.id ?? null,
    action,
    before: before === null ? null : campaignState(before),
    after: after === null ? null : campaignState(after),
    ...(details === undefined ? {} : { details }),
  });
};

/** The live campaigns of an environment keyed by id, as an import's entry keeps them before and after. */
export const campaignsState = (records: readonly CampaignRecord[]): JsonValue =>
  Object.fromEntries(
    records.filter((record) => record.deletedMs === null).map((r) => [r.id, campaignState(r)]),
  );
