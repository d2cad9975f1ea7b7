// The token service (PROTOCOL.md §13.3, §13.4, §13.6): client credentials in, bearer tokens out, and the
// check every remote control call makes. Every kind of bad credential (unknown client, wrong secret, revoked
// access, another account's access) takes the same path: one lookup, one digest comparison, one answer, so
// neither the body nor the time tells them apart. Tokens are looked up on every use, so a revocation stops
// them at their next call, on every server instance.
import type { Action, TokenCheckAnswer } from 'feature-ts/protocol';
import { digest, secretMatches } from '../ids.js';
import { isStorableText } from '../validation/storable-text.js';
import type { AccessRecord, TokenRecord, AccessStore } from '../store/access-store.js';
import type { AccountStore } from '../store/account-store.js';
import { looksLikeAccessToken, newAccessToken } from './credentials.js';
import { accessRights, formatScope, narrowRights, parseScope } from './scope.js';

/** What a token request carries once parsed (the route has checked presence and duplicates). */
export interface TokenGrant {
  accountId: string;
  clientId: string;
  clientSecret: string;
  scope: string | undefined;
  /** Seconds; 0 = no expiry. */
  expiresIn: number;
}

/** The outcome of a token request. */
export type TokenOutcome =
  | { kind: 'issued'; accessToken: string; scope: string; expiresIn: number | null; access: AccessRecord }
  | { kind: 'invalid_client' }
  | { kind: 'invalid_scope'; message: string };

/** The outcome of authorizing a remote control call. */
export type CallAuthorization =
  | { kind: 'allowed'; access: AccessRecord; token: TokenRecord }
  | { kind: 'invalid_token' }
  | { kind: 'insufficient_scope'; scope: string };

// Compared against when the client id is unknown, so that path costs what a wrong secret costs.
const DECOY_DIGEST = digest('ffs_decoy-secret-never-issued');

/** Issues and checks tokens over the store. */
export class TokenService {
  readonly #store: AccessStore & AccountStore;
  readonly #now: () => number;

  constructor(store: AccessStore & AccountStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** Authenticates the client and issues a token with the requested (narrowed) scope. */
  async issue(grant: TokenGrant): Promise<TokenOutcome> {
    // A client id the store cannot hold belongs to no access (and must not reach the database).
    const access = isStorableText(grant.clientId)
      ? await this.#store.findAccessByClientId(grant.clientId)
      : null;
    const matches = secretMatches(grant.clientSecret, access?.secretDigest ?? DECOY_DIGEST);
    if (access === null || !matches || access.revokedMs !== null || access.accountId !== grant.accountId)
      return { kind: 'invalid_client' };
    // Which environments exist matters only when the scope names one and the access holds them all.
    const namesEnvironment = access.environments.length === 0 && /(^|\s)env:(?!\*)/.test(grant.scope ?? '');
    const environments = new Set(
      namesEnvironment
        ? (await this.#store.listEnvironments(access.accountId)).map((environment) => environment.id)
        : [],
    );
    let scope: string;
    try {
      scope = formatScope(narrowRights(accessRights(access), grant.scope, environments));
    } catch (error) {
      return { kind: 'invalid_scope', message: error instanceof Error ? error.message : String(error) };
    }
    const accessToken = newAccessToken();
    const issuedMs = this.#now();
    await this.#store.insertToken({
      digest: digest(accessToken),
      accessId: access.id,
      accountId: access.accountId,
      scope,
      issuedMs,
      expiresMs: grant.expiresIn === 0 ? null : issuedMs + grant.expiresIn * 1000,
    });
    return {
      kind: 'issued',
      accessToken,
      scope,
      expiresIn: grant.expiresIn === 0 ? null : grant.expiresIn,
      access,
    };
  }

  /** The token and its access when the token is live (known, unexpired, access not revoked), else null. */
  async #live(accessToken: string): Promise<{ token: TokenRecord; access: AccessRecord } | null> {
    if (!looksLikeAccessToken(accessToken)) return null;
    const found = await this.#store.findToken(digest(accessToken));
    if (found === null || found.access.revokedMs !== null) return null;
    if (found.token.expiresMs !== null && found.token.expiresMs <= this.#now()) return null;
    return found;
  }

  /** The RFC 7662 answer for a token: its details when live, `{active:false}` and nothing else otherwise. */
  async check(accessToken: string): Promise<TokenCheckAnswer> {
    const live = await this.#live(accessToken);
    if (live === null) return { active: false };
    const { token, access } = live;
    const answer: TokenCheckAnswer = {
      active: true,
      client_id: access.clientId,
      account: token.accountId,
      scope: token.scope,
      iat: Math.floor(token.issuedMs / 1000),
      token_type: 'Bearer',
    };
    if (token.expiresMs !== null) {
      answer.expires_in = Math.max(1, Math.ceil((token.expiresMs - this.#now()) / 1000));
      answer.exp = Math.ceil(token.expiresMs / 1000);
    }
    return answer;
  }

  /**
   * Authorizes a call of `action` on `envId` of `accountId` (§13.6): the token must be live, of that account,
   * and its scope must hold the action and the environment (`env:*` holds every one; whether the environment
   * exists in the account is the caller's check, after this one).
   */
  async authorize(
    accessToken: string,
    accountId: string,
    envId: string,
    action: Action,
  ): Promise<CallAuthorization> {
    const live = await this.#live(accessToken);
    if (live === null) return { kind: 'invalid_token' };
    const rights = parseScope(live.token.scope);
    const allowed =
      live.token.accountId === accountId &&
      rights.actions.has(action) &&
      (rights.environments === '*' || rights.environments.has(envId));
    return allowed
      ? { kind: 'allowed', access: live.access, token: live.token }
      : { kind: 'insufficient_scope', scope: `${action} env:${envId}` };
  }
}
