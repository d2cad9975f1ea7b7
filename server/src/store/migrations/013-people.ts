// People (issue 36): users who sign in to the console with an email and a password, their role in each account,
// and the one-time links that invite them or reset their password. Emails are kept lower-case, so that one
// person cannot hold two users by changing the case of their address. Links are kept as SHA-256 digests only
// (like console sign-in links: they are random, a copy of the table opens nothing), and a used link keeps its
// row (with when it was used) until the hourly purge, so that using it twice says "already used". A console
// session belongs either to an operator key (operator_key_digest) or to a user (user_id).

/** Migration 13: users, account_members, user_links, and console_sessions.user_id. */
export const peopleMigration = {
  version: 13,
  name: '013-people',
  sql: `
CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  password_hash text,
  created_ms bigint NOT NULL,
  last_sign_in_ms bigint
);
CREATE TABLE account_members (
  account_id text NOT NULL REFERENCES accounts(id),
  user_id text NOT NULL REFERENCES users(id),
  role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
  created_ms bigint NOT NULL,
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX account_members_user ON account_members (user_id);
CREATE TABLE user_links (
  digest bytea PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('invitation', 'reset')),
  user_id text NOT NULL REFERENCES users(id),
  created_ms bigint NOT NULL,
  expires_ms bigint NOT NULL,
  used_ms bigint
);
CREATE INDEX user_links_user ON user_links (user_id);
CREATE INDEX user_links_expires ON user_links (expires_ms);
ALTER TABLE console_sessions ADD COLUMN user_id text REFERENCES users(id);
CREATE INDEX console_sessions_user ON console_sessions (user_id) WHERE user_id IS NOT NULL;
`,
} as const;
