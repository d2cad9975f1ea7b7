// Webhooks (issue 36): an environment's targets, and one delivery row per event and target, written in the
// transaction of the change it reports, so an event is never lost nor made twice, whatever happens to the
// process afterwards. Deliveries wait in the store until answered with a 2xx or given up after 24 h; each
// target's are sent in `seq` order (only the oldest unsettled one of a target is ever in flight), and a lease
// keeps two instances on one database from sending the same one at once.

/** Migration 12: webhooks and their deliveries. */
export const webhooksMigration = {
  version: 12,
  name: '012-webhooks',
  sql: `
CREATE TABLE webhooks (
  id text PRIMARY KEY,
  env_id text NOT NULL REFERENCES environments(id),
  url text NOT NULL,
  secret text NOT NULL,
  events text NOT NULL,
  created_ms bigint NOT NULL,
  deleted_ms bigint
);
CREATE INDEX webhooks_env ON webhooks (env_id) WHERE deleted_ms IS NULL;
CREATE TABLE webhook_deliveries (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  webhook_id text NOT NULL REFERENCES webhooks(id),
  event_id text NOT NULL,
  event_type text NOT NULL,
  body text NOT NULL,
  created_ms bigint NOT NULL,
  state text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_ms bigint NOT NULL,
  lease_until_ms bigint,
  last_attempt_ms bigint,
  last_status integer,
  last_answer text,
  last_error text,
  settled_ms bigint
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (webhook_id, seq) WHERE state = 'pending';
`,
} as const;
