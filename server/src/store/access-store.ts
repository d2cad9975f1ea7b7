// Accesses of the remote control API and the tokens issued to them (§13.1-§13.4), kept as digests only:
// making secrets and tokens, and deciding whether a token still holds, is the token service's job.
import type { Action } from 'feature-ts/protocol';

/**
 * An access of the remote control API (§13.1): who may call it, in which environments, for which actions.
 * The client secret is kept only as its SHA-256 digest.
 */
export interface AccessRecord {
  id: string;
  accountId: string;
  name: string;
  /** Environment ids; empty means every environment of the account, including ones created later. */
  environments: string[];
  actions: Action[];
  clientId: string;
  secretDigest: Uint8Array;
  createdMs: number;
  /** Set once, when the access is revoked; revocation is permanent. */
  revokedMs: number | null;
}

/** A token as stored (§13.3): only its SHA-256 digest, never the token itself. */
export interface TokenRecord {
  digest: Uint8Array;
  accessId: string;
  accountId: string;
  /** The granted scope, in the answer's form: actions, then `env:<id>` or `env:*`. */
  scope: string;
  issuedMs: number;
  /** Null for a token without expiry (still revocable through its access). */
  expiresMs: number | null;
}

/** The store's accesses and tokens. */
export interface AccessStore {
  /** Creates an access; the caller made the client id and the secret's digest. */
  createAccess(input: Omit<AccessRecord, 'id' | 'createdMs' | 'revokedMs'>): Promise<AccessRecord>;
  /** The accounts's accesses, revoked ones included, oldest first. */
  listAccesses(accountId: string): Promise<AccessRecord[]>;
  getAccess(id: string): Promise<AccessRecord | null>;
  findAccessByClientId(clientId: string): Promise<AccessRecord | null>;
  /** Revokes an access (its tokens stop at their next use); the record, or null when unknown. */
  revokeAccess(id: string): Promise<AccessRecord | null>;
  insertToken(token: TokenRecord): Promise<void>;
  /** The token with this digest and its access, or null when unknown. */
  findToken(digest: Uint8Array): Promise<{ token: TokenRecord; access: AccessRecord } | null>;
  /** Deletes tokens that expired before `beforeMs`; returns how many. */
  purgeExpiredTokens(beforeMs: number): Promise<number>;
}
