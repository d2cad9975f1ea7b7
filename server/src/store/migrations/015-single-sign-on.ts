// Single sign-on (issue 36): an account's OpenID provider and how its people's groups and email domains map to
// roles, and the sign-ins started at a provider and not yet back. The client secret is kept as given: the
// server sends it to the provider's token endpoint, so a digest would not do (as webhook secrets). A started
// sign-in is keyed by the SHA-256 digest of the random value in the browser's cookie, and deleted when the
// browser comes back: it is used once, on whichever instance of one database the browser reaches. A person is
// remembered by their provider's issuer and subject (an email can change at the provider; the pair does not).

/** Migration 15: sso_settings, sso_sign_ins and sso_identities. */
export const singleSignOnMigration = {
  version: 15,
  name: '015-single-sign-on',
  sql: `
CREATE TABLE sso_settings (
  account_id text PRIMARY KEY REFERENCES accounts(id),
  name text NOT NULL,
  issuer text NOT NULL,
  client_id text NOT NULL,
  client_secret text NOT NULL,
  groups_claim text NOT NULL,
  group_roles text NOT NULL,
  domain_roles text NOT NULL,
  enabled boolean NOT NULL,
  created_ms bigint NOT NULL,
  updated_ms bigint NOT NULL
);
CREATE TABLE sso_sign_ins (
  digest bytea PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  state text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  expires_ms bigint NOT NULL
);
CREATE INDEX sso_sign_ins_expires ON sso_sign_ins (expires_ms);
CREATE TABLE sso_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL REFERENCES users(id),
  created_ms bigint NOT NULL,
  last_sign_in_ms bigint NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX sso_identities_user ON sso_identities (user_id);
`,
} as const;
