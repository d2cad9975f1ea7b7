// The operator routes' answers as the console reads them (server/src/routes/operator.ts and its answer schemas).
export type { CampaignReport, RemoteCampaign, RemotePage, VariationReport } from 'feature-ts/protocol';

/** An account. */
export interface Account {
  id: string;
  name: string;
  created_at: string | null;
}

/** An environment (never with its API key, except in the answers that make one). */
export interface Environment {
  id: string;
  account_id: string;
  name: string;
  panic: boolean;
  settings: { enabledXPC?: boolean; enabled1V1T?: boolean };
}

/** A remote control access (never with its secret, except when made). */
export interface Access {
  id: string;
  account_id: string;
  name: string;
  environments: string[];
  actions: string[];
  client_id: string;
  created_at: string | null;
  revoked_at: string | null;
}

/** A list answer of the operator routes. */
export interface Items<T> {
  items: T[];
}

/** A webhook of an environment (never with its secret, except in the answer that makes it). */
export interface Webhook {
  id: string;
  env_id: string;
  url: string;
  /** The event kinds it is sent; empty: every kind, later ones included. */
  events: string[];
  created_at: string;
}

/** One event's delivery to one webhook, as the delivery log shows it. */
export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: string;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status: number | null;
  /** The start of the target's last answer (1 KB). */
  last_answer: string | null;
  last_error: string | null;
  settled_at: string | null;
  body: string;
}

/** A member of an account (`GET /admin/v1/accounts/{accountId}/users`). */
export interface Member {
  id: string;
  email: string;
  /** Empty until the person chooses one. */
  name: string;
  role: 'admin' | 'editor' | 'viewer';
  /** False until the person accepted the invitation. */
  active: boolean;
  created_at: string;
  last_sign_in_at: string | null;
}

/** A one-time link the server made (invitation or reset): its path on this server, shown once. */
export interface PersonLink {
  path: string;
  expires_at: string;
}

/** One changed value of an audit entry ("" path: the whole subject); an absent side was not there. */
export interface AuditDiffLine {
  path: string;
  before?: unknown;
  after?: unknown;
}

/** An audit log entry (docs/teams.md "An entry"). */
export interface AuditEntry {
  seq: number;
  at: string;
  actor: { kind: string; id: string | null; label: string; address: string | null };
  account_id: string | null;
  env_id: string | null;
  subject: { kind: string; id: string | null };
  action: string;
  before: unknown;
  after: unknown;
  diff: AuditDiffLine[];
  details: Record<string, unknown> | null;
}

/** A page of audit entries, newest first; `next_before_seq` reads the older page (null: the last). */
export interface AuditPage {
  items: AuditEntry[];
  next_before_seq: number | null;
}

/** An account's single sign-on settings (`GET /admin/v1/accounts/{accountId}/sso`); the secret is never answered. */
export interface SsoSettings {
  account_id: string;
  /** What the sign-in button says: "Sign in with <name>". */
  name: string;
  issuer: string;
  client_id: string;
  client_secret: '(set)';
  groups_claim: string;
  group_roles: Array<{ group: string; role: 'admin' | 'editor' | 'viewer' }>;
  domain_roles: Array<{ domain: string; role: 'admin' | 'editor' | 'viewer' }>;
  enabled: boolean;
  /** The URL to register at the provider as the client's redirect URI. */
  redirect_uri: string;
  created_at: string;
  updated_at: string;
}
