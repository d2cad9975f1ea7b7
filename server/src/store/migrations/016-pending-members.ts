// Consent to join (issue 36, security review): a person who already has a user is not added to an account at
// once when an admin invites them; their membership waits, `pending`, until they answer a one-time `join` link
// signed in as themselves. A pending membership grants nothing (every authorization read skips it) and shows
// the account's admins nothing of the person beyond the email the admin typed.

/** Migration 16: account_members.pending, and the `join` kind of user link. */
export const pendingMembersMigration = {
  version: 16,
  name: '016-pending-members',
  sql: `
ALTER TABLE account_members ADD COLUMN pending boolean NOT NULL DEFAULT false;
ALTER TABLE user_links DROP CONSTRAINT user_links_kind_check;
ALTER TABLE user_links ADD CONSTRAINT user_links_kind_check CHECK (kind IN ('invitation', 'reset', 'join'));
CREATE INDEX user_links_user_account ON user_links (user_id, account_id) WHERE used_ms IS NULL;
`,
} as const;
