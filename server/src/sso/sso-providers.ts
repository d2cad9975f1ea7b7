// The OpenID providers of the accounts' single sign-on (issue 36), reached through openid-client: discovery
// of an issuer (when settings are saved, and before a sign-in), kept a few minutes so a sign-in does not fetch
// the provider's metadata twice. Every check of what comes back (state, PKCE, issuer, audience, nonce, expiry,
// signature) is openid-client's; this module only chooses its options:
// - an issuer must be https, except on a loopback host (a provider on the developer's machine, and the tests'),
//   where plain http is allowed;
// - the provider's answers get 10 s;
// - the client's clock is the app's (`now`), so a test that moves the app's clock moves what "expired" means.
import {
  allowInsecureRequests,
  clockSkew,
  discovery,
  type Configuration,
  type DiscoveryRequestOptions,
} from 'openid-client';

/** What a provider is reached with: an account's issuer and client. */
export interface ProviderClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** How long a discovered provider is kept. */
const KEPT_MS = 5 * 60_000;

/** How long the provider gets to answer, in seconds. */
const PROVIDER_TIMEOUT_S = 10;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why `issuer` cannot be an issuer URL, or null when it can. */
export const issuerUrlProblem = (issuer: string): string | null => {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'must be an absolute https:// URL (the provider\'s "issuer")';
  }
  if (url.username !== '' || url.password !== '') return 'must not hold a user name or password';
  if (url.search !== '' || url.hash !== '') return 'must not hold a query or a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return null;
  return 'must be an https:// URL (plain http:// only on 127.0.0.1, [::1] or localhost)';
};

/**
 * What went wrong reaching or reading a provider, in words for a person: openid-client's error names the
 * check that failed in its cause (e.g. `unexpected JWT "aud" (audience) claim value`).
 */
export const providerErrorText = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  const detail = cause instanceof Error && cause.message !== '' ? cause.message : '';
  const body = error as Error & { error?: unknown; error_description?: unknown };
  if (typeof body.error === 'string') {
    const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
    return `the provider answered ${body.error}${description}`;
  }
  return detail === '' || detail === error.message ? error.message : `${error.message}: ${detail}`;
};

/** The accounts' providers, discovered on demand and kept a few minutes. */
export class SsoProviders {
  readonly #now: () => number;
  readonly #kept = new Map<string, { config: Promise<Configuration>; untilMs: number }>();

  constructor(now: () => number) {
    this.#now = now;
  }

  /**
   * The provider's configuration for `client` (discovered now, or kept from a discovery of the last minutes);
   * throws openid-client's error when the issuer cannot be discovered.
   */
  configuration(client: ProviderClient): Promise<Configuration> {
    // The skew is fixed at discovery: part of the key, so a test that moves the app's clock gets a new one.
    const skewSeconds = Math.round((this.#now() - Date.now()) / 1000);
    const key = JSON.stringify([client.issuer, client.clientId, client.clientSecret, skewSeconds]);
    const nowMs = Date.now();
    const kept = this.#kept.get(key);
    if (kept !== undefined && kept.untilMs > nowMs) return kept.config;
    for (const [old, entry] of this.#kept) if (entry.untilMs <= nowMs) this.#kept.delete(old);
    const config = this.#discover(client, skewSeconds);
    this.#kept.set(key, { config, untilMs: nowMs + KEPT_MS });
    // A failed discovery is not kept: the next sign-in tries again.
    config.catch(() => this.#kept.delete(key));
    return config;
  }

  /** Discovers `client`'s issuer now, bypassing what is kept (when settings are saved). */
  discoverNow(client: ProviderClient): Promise<Configuration> {
    return this.#discover(client, Math.round((this.#now() - Date.now()) / 1000));
  }

  #discover(client: ProviderClient, skewSeconds: number): Promise<Configuration> {
    const insecure = new URL(client.issuer).protocol === 'http:';
    const options: DiscoveryRequestOptions = {
      timeout: PROVIDER_TIMEOUT_S,
      // Deprecated only to stand out: it is what a loopback issuer needs (issuerUrlProblem allows no other).
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      ...(insecure ? { execute: [allowInsecureRequests] } : {}),
    };
    return discovery(
      new URL(client.issuer),
      client.clientId,
      { client_secret: client.clientSecret, [clockSkew]: skewSeconds },
      undefined,
      options,
    );
  }
}
