// The subject kinds the server records, as it names them (server/src/store/audit-store.ts AUDIT_SUBJECT_KINDS,
// in its order; a test holds the two lists equal): the console bundle takes no server code, so the list is
// written here once more. The Audit log's Kind filter offers them.

/** The subject kinds of audit entries, in the order the filter lists them. */
export const AUDIT_SUBJECT_KINDS: readonly string[] = [
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
