// The relying party of single sign-on (issue 36): authorization code flow with PKCE (S256), `state` and
// `nonce`, all built and checked by openid-client.
//
// Where state, nonce and the PKCE verifier wait while the browser is at the provider: in the store, under the
// SHA-256 digest of a random value the browser holds in a short-lived cookie (sso-cookie.ts). Kept server-side
// rather than in a signed cookie because
// - the sign-in is used once for real: coming back takes (deletes) the row, so a replayed callback finds
//   nothing, even on another instance of one database, where a signed cookie stays valid until it expires;
// - the server has no signing key of its own to keep, share between instances and rotate (deriving one from
//   the operator key would end every started sign-in when the key changes, and tie sign-on to that key);
// - the browser still proves it started the sign-in: the cookie is HttpOnly, and SameSite=Lax so that it is
//   sent on the provider's top-level redirect back (Strict would not be), but not on another site's request.
import { randomBytes } from 'node:crypto';
import {
  authorizationCodeGrant,
  buildAuthorizationUrl,
  calculatePKCECodeChallenge,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
} from 'openid-client';
import { digest } from '../ids.js';
import type { SsoStore } from '../store/sso-store.js';
import type { Role } from '../store/user-store.js';
import { refusalOfProviderError, refusals } from './sso-refusal.js';
import { roleFor } from './sso-roles.js';
import type { SsoProviders } from './sso-providers.js';

/** How long a browser has at the provider before its sign-in is forgotten. */
export const SIGN_IN_LIFETIME_MS = 10 * 60_000;

/** The scopes asked for: the ID token's email, and the profile (where providers put groups and names). */
export const SSO_SCOPES = 'openid email profile';

/** Who signed in, as the provider vouched for them, and the role the account's mappings give them. */
export interface SsoIdentity {
  accountId: string;
  /** The provider's issuer and the person's subject there: together, the person's stable id. */
  issuer: string;
  subject: string;
  /** The verified email, lower case. */
  email: string;
  /** The person's name when the provider sends one. */
  name: string | null;
  role: Role;
}

/** A sign-in just started: where to send the browser, and the cookie value that binds it to this browser. */
export interface StartedSignIn {
  authorizationUrl: URL;
  cookieValue: string;
  expiresMs: number;
}

/** Starts and finishes single sign-ons. */
export class SsoSignIns {
  readonly #store: SsoStore;
  readonly #providers: SsoProviders;
  readonly #now: () => number;

  constructor(store: SsoStore, providers: SsoProviders, now: () => number) {
    this.#store = store;
    this.#providers = providers;
    this.#now = now;
  }

  /**
   * Starts a sign-in to `accountId`, whose provider sends the browser back to `callbackUrl`; throws a
   * refusal when the account has no single sign-on on, or its provider cannot be discovered.
   */
  async start(accountId: string, callbackUrl: string): Promise<StartedSignIn> {
    const settings = await this.#store.getSsoSettings(accountId);
    if (settings === null || !settings.enabled) throw refusals.ssoOff();
    let config;
    try {
      config = await this.#providers.configuration(settings);
    } catch (error) {
      throw refusals.providerUnreachable(error);
    }
    const state = randomState();
    const nonce = randomNonce();
    const codeVerifier = randomPKCECodeVerifier();
    const cookieValue = `fss_${randomBytes(32).toString('base64url')}`;
    const expiresMs = this.#now() + SIGN_IN_LIFETIME_MS;
    await this.#store.startSsoSignIn(digest(cookieValue), {
      accountId,
      state,
      nonce,
      codeVerifier,
      expiresMs,
    });
    const authorizationUrl = buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl,
      scope: SSO_SCOPES,
      response_type: 'code',
      code_challenge: await calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { authorizationUrl, cookieValue, expiresMs };
  }

  /**
   * Finishes the sign-in the browser's cookie names, at `currentUrl` (the callback URL with the provider's
   * query); throws a refusal for anything that does not check out. The started sign-in is spent whatever
   * happens: a second try starts again.
   */
  async finish(cookieValue: string | null, currentUrl: URL): Promise<SsoIdentity> {
    if (cookieValue === null) throw refusals.notStarted();
    const pending = await this.#store.takeSsoSignIn(digest(cookieValue), this.#now());
    if (pending === null) throw refusals.notStarted();
    const settings = await this.#store.getSsoSettings(pending.accountId);
    if (settings === null || !settings.enabled) throw refusals.ssoOff();
    let claims;
    try {
      const config = await this.#providers.configuration(settings);
      const tokens = await authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      throw refusalOfProviderError(error);
    }
    // idTokenExpected: openid-client refuses an answer without an ID token, so there are claims.
    if (claims === undefined) throw refusals.idTokenRefused(new Error('the answer held no ID token'));
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (email === '' || claims.email_verified !== true) throw refusals.emailUnverified();
    const role = roleFor(settings, { email, groups: claims[settings.groupsClaim] });
    if (role === null) throw refusals.noRole(email, settings.name);
    return {
      accountId: settings.accountId,
      issuer: claims.iss,
      subject: claims.sub,
      email,
      name: typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim() : null,
      role,
    };
  }
}
