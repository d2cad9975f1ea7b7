// A real OpenID provider for the single sign-on tests: oidc-provider 8 on 127.0.0.1:0, with its development
// login and consent pages (any login, any password: the login names one of the test's people), a client for
// our server and a second client of another relying party, ID tokens that hold `email`, `email_verified` and
// `groups`, and one way to make it misbehave: `reissueIdToken` has the token endpoint answer an ID token
// re-signed with the provider's own key after the test changed its claims (another audience, an expiry in the
// past, another nonce). A validly signed token with a wrong claim is what a relying party must still refuse.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWTPayload } from 'jose';
import { Provider, type ProviderContext } from 'oidc-provider';

/** A person the provider knows, by the login typed on its sign-in page. */
export interface ProviderPerson {
  email: string;
  /** Whether the provider vouches for the email (default true). */
  emailVerified?: boolean;
  groups?: string[];
}

/** A client registered at the provider. */
export interface ProviderClient {
  id: string;
  secret: string;
}

/** A started provider. */
export interface TestProvider {
  /** The issuer URL (http://127.0.0.1:port, no trailing slash). */
  issuer: string;
  /** Our server's client (redirect URI: the one given at start). */
  client: ProviderClient;
  /** Another relying party's client, with the same redirect URI: its tokens name another audience. */
  otherClient: ProviderClient;
  /** The people by login; a test may change one (new groups) between sign-ins. */
  people: Map<string, ProviderPerson>;
  /**
   * When set, the token endpoint answers an ID token re-signed with the provider's key after this change of
   * its claims (once per token answer, until unset).
   */
  reissueIdToken: ((claims: JWTPayload) => JWTPayload) | null;
  /** How many token requests the provider answered (a refused code included). */
  tokenRequests: number;
  close(): Promise<void>;
}

const KEY_ID = 'test-key-1';

/** How long the provider's ID tokens live: a test that moves its relying party's clock past it sees one expire. */
export const ID_TOKEN_TTL_S = 60;

/** Starts a provider whose clients send people back to `redirectUri`. */
export const startTestProvider = async (
  redirectUri: string,
  people: Record<string, ProviderPerson> = {},
): Promise<TestProvider> => {
  // The issuer names the port, so the server listens first and hands its requests over once the provider exists.
  let handle: RequestListener | null = null;
  const server: Server = createServer((request, response) => {
    if (handle === null) {
      response.statusCode = 503;
      response.end();
      return;
    }
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' };
  const client: ProviderClient = { id: 'feature-console', secret: 'feature-console-secret-0123456789' };
  const otherClient: ProviderClient = { id: 'other-app', secret: 'other-app-secret-0123456789abcdef' };
  const registered = (c: ProviderClient) => ({
    client_id: c.id,
    client_secret: c.secret,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  });

  const state: TestProvider = {
    issuer,
    client,
    otherClient,
    people: new Map(Object.entries(people)),
    reissueIdToken: null,
    tokenRequests: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const provider = new Provider(issuer, {
    clients: [registered(client), registered(otherClient)],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['groups'] },
    scopes: ['openid', 'email', 'profile'],
    // Real providers (Keycloak, Google) put the scope's claims in the ID token, which is what we read.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // Set, so the provider does not warn about each default; a code and an ID token live one minute.
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: ID_TOKEN_TTL_S,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    findAccount: (_ctx, sub) => {
      const person = state.people.get(sub);
      if (person === undefined) return Promise.resolve(undefined);
      return Promise.resolve({
        accountId: sub,
        claims: () => ({
          sub,
          email: person.email,
          email_verified: person.emailVerified ?? true,
          groups: person.groups ?? [],
        }),
      });
    },
  });
  provider.use(async (ctx: ProviderContext, next) => {
    await next();
    if (ctx.path !== '/token' || ctx.method !== 'POST') return;
    state.tokenRequests += 1;
    const change = state.reissueIdToken;
    const body = ctx.body as { id_token?: unknown } | null;
    if (change === null || body === null || typeof body.id_token !== 'string') return;
    const claims = change(decodeJwt(body.id_token));
    body.id_token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' })
      .sign(privateKey);
  });
  handle = provider.callback();
  return state;
};

/** A page of the provider as a browser or the fetch client met it. */
interface Page {
  url: string;
  status: number;
  body: string;
}

/** A tiny cookie jar per origin: what the provider's interaction pages need between requests. */
export class CookieJar {
  readonly #cookies = new Map<string, Map<string, string>>();

  /** The Cookie header for `url`. */
  header(url: string): string {
    const jar = this.#cookies.get(new URL(url).origin);
    return jar === undefined ? '' : [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Keeps the cookies an answer from `url` set (and forgets the ones it expired). */
  store(url: string, response: Response): void {
    const origin = new URL(url).origin;
    const jar = this.#cookies.get(origin) ?? new Map<string, string>();
    this.#cookies.set(origin, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at === -1) continue;
      const name = pair.slice(0, at).trim();
      const gone = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a),
      );
      if (gone) jar.delete(name);
      else jar.set(name, pair.slice(at + 1).trim());
    }
  }

  /** Sets one cookie for `origin` by hand (a test that forges or replays one). */
  set(origin: string, name: string, value: string): void {
    const jar = this.#cookies.get(origin) ?? new Map<string, string>();
    this.#cookies.set(origin, jar);
    jar.set(name, value);
  }

  /** One cookie's value for `origin`, or undefined. */
  get(origin: string, name: string): string | undefined {
    return this.#cookies.get(origin)?.get(name);
  }
}

/** A plain fetch client with a cookie jar that follows redirects itself (so a test sees each hop). */
export class FetchBrowser {
  readonly jar = new CookieJar();

  /** One request, no redirect followed. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.jar.header(url);
    if (cookie !== '') headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.jar.store(url, response);
    return response;
  }

  /**
   * Follows redirects from `url` until an answer that is not one, or until a redirect to `stopAt` (a URL
   * prefix; that redirect's target is returned unfetched, as `url` with status 0).
   */
  async follow(url: string, stopAt?: string): Promise<Page> {
    let next = url;
    for (let hops = 0; hops < 20; hops++) {
      if (stopAt !== undefined && next.startsWith(stopAt)) return { url: next, status: 0, body: '' };
      const response = await this.request(next);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        next = new URL(location, next).href;
        continue;
      }
      return { url: next, status: response.status, body: await response.text() };
    }
    throw new Error(`FetchBrowser: more than 20 redirects from ${url}`);
  }

  /**
   * Signs in at the provider from its first page (the authorization URL's target): types `login` on the login
   * page, confirms the consent page, and returns the URL the provider sends the browser back to (unfetched).
   */
  async signInAtProvider(authorizationUrl: string, login: string, redirectUri: string): Promise<string> {
    let page = await this.follow(authorizationUrl, redirectUri);
    for (let step = 0; step < 4; step++) {
      if (page.status === 0) return page.url;
      const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
      const prompt = /name="prompt" value="([^"]+)"/.exec(page.body)?.[1];
      if (action === undefined || prompt === undefined)
        throw new Error(
          `FetchBrowser: no sign-in form at ${page.url} (${page.status}): ${page.body.slice(0, 300)}`,
        );
      const form = new URLSearchParams({ prompt });
      if (prompt === 'login') {
        form.set('login', login);
        form.set('password', 'any password');
      }
      const target = new URL(action.replace(/&amp;/g, '&'), page.url).href;
      const posted = await this.request(target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      const location = posted.headers.get('location');
      if (location === null)
        throw new Error(`FetchBrowser: the provider answered ${posted.status} to ${prompt}`);
      page = await this.follow(new URL(location, target).href, redirectUri);
    }
    throw new Error('FetchBrowser: the provider never sent the browser back');
  }
}
