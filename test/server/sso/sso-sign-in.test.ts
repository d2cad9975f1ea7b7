// The single sign-on relying party against a real OpenID provider (issue 36): the start sends the browser to
// the provider with PKCE S256, state and nonce, binding the sign-in to the browser by a short-lived HttpOnly,
// SameSite=Lax cookie; the callback opens what the identity gives only when openid-client's checks pass.
// A replayed callback, a replayed code, a wrong state, another audience, an expired ID token, a wrong nonce,
// a person the mappings give no role and an unverified email are each refused with a page that says why, and
// nothing is opened. The pages run here in a bare fastify app whose `onSignedIn` records the identity (the
// console session it opens in the server is tested end to end).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { ssoPagesWith } from '../../../server/src/plugins/sso.js';
import { SsoProviders } from '../../../server/src/sso/sso-providers.js';
import { SsoSignIns, type SsoIdentity } from '../../../server/src/sso/sso-sign-in.js';
import type { Store } from '../../../server/src/store/store.js';
import {
  FetchBrowser,
  ID_TOKEN_TTL_S,
  startTestProvider,
  type TestProvider,
} from '../../support/oidc-provider.js';
import { openFreshPgliteStore } from '../template-data-dir.js';

void describe('single sign-on against a real provider', () => {
  let store: Store;
  let app: FastifyInstance;
  let base: string;
  let callback: string;
  let provider: TestProvider;
  let accountId: string;
  let clockOffsetMs = 0;
  const signedIn: SsoIdentity[] = [];

  before(async () => {
    store = await openFreshPgliteStore();
    accountId = (await store.createAccount('Acme')).id;
    const now = () => Date.now() + clockOffsetMs;
    const signIns = new SsoSignIns(store, new SsoProviders(now), now);
    app = Fastify();
    await app.register(ssoPagesWith, {
      store,
      signIns,
      now,
      onSignedIn: async (identity, _request, reply) => {
        signedIn.push(identity);
        return reply.code(303).header('location', '/admin/').send();
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    callback = `${base}/admin/sso/callback`;
    provider = await startTestProvider(callback, {
      alice: { email: 'Alice@Example.com', groups: ['feature-admins', 'marketing'] },
      mia: { email: 'mia@example.com', groups: ['marketing'] },
      bob: { email: 'bob@elsewhere.org', groups: ['sales'] },
      eve: { email: 'eve@example.com', emailVerified: false, groups: ['feature-admins'] },
    });
    await store.putSsoSettings(
      accountId,
      {
        name: 'Acme',
        issuer: provider.issuer,
        clientId: provider.client.id,
        clientSecret: provider.client.secret,
        groupsClaim: 'groups',
        groupRoles: [
          { group: 'feature-admins', role: 'admin' },
          { group: 'marketing', role: 'editor' },
        ],
        domainRoles: [{ domain: 'example.com', role: 'viewer' }],
        enabled: true,
      },
      Date.now(),
    );
  });
  beforeEach(() => {
    provider.reissueIdToken = null;
    clockOffsetMs = 0;
    signedIn.length = 0;
  });
  after(async () => {
    await app.close();
    await provider.close();
    await store.close();
  });

  /** Starts a sign-in in `browser`; the provider's authorization URL. */
  const start = async (browser: FetchBrowser): Promise<URL> => {
    const started = await browser.request(`${base}/admin/sso/${accountId}/start`);
    assert.equal(started.status, 303);
    return new URL(started.headers.get('location') ?? '');
  };

  /** A refusal page: its status and reason. */
  const refusal = async (browser: FetchBrowser, url: string): Promise<{ status: number; reason: string }> => {
    const answer = await browser.request(url);
    const page = await answer.text();
    assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(
      answer.headers.get('set-cookie') ?? '',
      /feature_sso=; .*Max-Age=0/,
      'the sign-in cookie is cleared',
    );
    assert.equal(answer.headers.get('referrer-policy'), 'no-referrer', 'the code in the URL goes nowhere');
    return { status: answer.status, reason: /data-reason="([a-z_]+)"/.exec(page)?.[1] ?? page.slice(0, 200) };
  };

  void it('signs in: PKCE S256, state and nonce, a Lax cookie, the role of the highest group', async () => {
    const browser = new FetchBrowser();
    const started = await browser.request(`${base}/admin/sso/${accountId}/start`);
    const cookie = started.headers.get('set-cookie') ?? '';
    assert.match(
      cookie,
      /^feature_sso=fss_[A-Za-z0-9_-]{43}; Path=\/admin\/sso; HttpOnly; SameSite=Lax; Max-Age=600$/,
    );
    const authorization = new URL(started.headers.get('location') ?? '');
    assert.equal(authorization.origin, provider.issuer);
    const query = authorization.searchParams;
    assert.equal(query.get('client_id'), provider.client.id);
    assert.equal(query.get('redirect_uri'), callback);
    assert.equal(query.get('response_type'), 'code');
    assert.equal(query.get('code_challenge_method'), 'S256');
    assert.match(query.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(query.get('state') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(query.get('nonce') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(query.get('scope'), 'openid email profile');

    const back = await browser.signInAtProvider(authorization.href, 'alice', callback);
    const answer = await browser.request(back);
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.get('location'), '/admin/');
    assert.deepEqual(signedIn, [
      {
        accountId,
        issuer: provider.issuer,
        subject: 'alice',
        email: 'alice@example.com',
        name: null,
        role: 'admin',
      },
    ]);
    assert.match(answer.headers.get('set-cookie') ?? '', /feature_sso=; /);

    // The same callback again (a replay, or the back button): the sign-in was spent.
    assert.deepEqual(await refusal(browser, back), { status: 400, reason: 'not_started' });
    assert.equal(signedIn.length, 1, 'nothing more opened');
  });

  void it('gives the editor role to a person in marketing, and follows a changed group', async () => {
    const browser = new FetchBrowser();
    await browser.request(await browser.signInAtProvider((await start(browser)).href, 'mia', callback));
    const later = new FetchBrowser();
    provider.people.set('mia', { email: 'mia@example.com', groups: [] });
    await later.request(await later.signInAtProvider((await start(later)).href, 'mia', callback));
    assert.deepEqual(
      signedIn.map((identity) => identity.role),
      ['editor', 'viewer'],
      'no group left: the email domain gives viewer',
    );
    provider.people.set('mia', { email: 'mia@example.com', groups: ['marketing'] });
  });

  void it('refuses a replayed code under a new sign-in (the provider refuses it)', async () => {
    const browser = new FetchBrowser();
    const back = new URL(await browser.signInAtProvider((await start(browser)).href, 'alice', callback));
    await browser.request(back.href);
    assert.equal(signedIn.length, 1);
    // The attacker's browser starts its own sign-in and brings the used code with its own state.
    const attacker = new FetchBrowser();
    const fresh = await start(attacker);
    const replay = new URL(back.href);
    replay.searchParams.set('state', fresh.searchParams.get('state') ?? '');
    const requests = provider.tokenRequests;
    assert.deepEqual(await refusal(attacker, replay.href), { status: 400, reason: 'code_refused' });
    assert.equal(provider.tokenRequests, requests + 1, 'the provider was asked, and refused');
    assert.equal(signedIn.length, 1);
  });

  void it('refuses a wrong state before asking the provider, and spends the sign-in', async () => {
    const browser = new FetchBrowser();
    const back = new URL(await browser.signInAtProvider((await start(browser)).href, 'alice', callback));
    const forged = new URL(back.href);
    forged.searchParams.set('state', 'another-state');
    const requests = provider.tokenRequests;
    assert.deepEqual(await refusal(browser, forged.href), { status: 400, reason: 'state_mismatch' });
    assert.equal(provider.tokenRequests, requests, 'no code exchange');
    browser.jar.set(base, 'feature_sso', 'x');
    assert.deepEqual(await refusal(browser, back.href), { status: 400, reason: 'not_started' });
    assert.equal(signedIn.length, 0);
  });

  void it('refuses a callback from a browser that did not start the sign-in', async () => {
    const browser = new FetchBrowser();
    const back = await browser.signInAtProvider((await start(browser)).href, 'alice', callback);
    const other = new FetchBrowser();
    assert.deepEqual(await refusal(other, back), { status: 400, reason: 'not_started' });
    assert.equal(signedIn.length, 0);
  });

  void it('refuses an ID token for another audience, with another nonce, or expired', async () => {
    const cases: Array<[string, () => void, RegExp]> = [
      [
        'another audience',
        () => {
          provider.reissueIdToken = (claims) => ({ ...claims, aud: provider.otherClient.id });
        },
        /&#34;aud&#34; \(audience\)/,
      ],
      [
        'another nonce',
        () => {
          provider.reissueIdToken = (claims) => ({ ...claims, nonce: 'another-nonce' });
        },
        /&#34;nonce&#34;/,
      ],
      [
        'expired (our clock past its end)',
        () => {
          clockOffsetMs = (ID_TOKEN_TTL_S + 60) * 1000;
        },
        /&#34;exp&#34; \(expiration time\)/,
      ],
    ];
    for (const [name, misbehave, why] of cases) {
      provider.reissueIdToken = null;
      clockOffsetMs = 0;
      const browser = new FetchBrowser();
      const back = await browser.signInAtProvider((await start(browser)).href, 'alice', callback);
      misbehave();
      const answer = await browser.request(back);
      const page = await answer.text();
      assert.equal(answer.status, 400, name);
      assert.match(page, /data-reason="id_token_refused"/, name);
      assert.match(page, why, name);
      assert.doesNotMatch(page, /<script/i);
    }
    assert.equal(signedIn.length, 0);
  });

  void it('refuses a person no mapping gives a role, and an unverified email', async () => {
    const bob = new FetchBrowser();
    const bobBack = await bob.signInAtProvider((await start(bob)).href, 'bob', callback);
    const noRole = await bob.request(bobBack);
    assert.equal(noRole.status, 403);
    assert.match(
      await noRole.text(),
      /bob@elsewhere\.org is in none of the groups and email domains that &#34;Acme&#34;/,
    );
    const eve = new FetchBrowser();
    assert.deepEqual(
      await refusal(eve, await eve.signInAtProvider((await start(eve)).href, 'eve', callback)),
      { status: 403, reason: 'email_unverified' },
    );
    assert.equal(signedIn.length, 0);
  });

  void it('refuses to start for an account without single sign-on on', async () => {
    const browser = new FetchBrowser();
    const other = await store.createAccount('Other');
    const answer = await browser.request(`${base}/admin/sso/${other.id}/start`);
    assert.equal(answer.status, 404);
    assert.match(await answer.text(), /data-reason="sso_off"/);
    assert.equal(answer.headers.get('set-cookie'), null, 'nothing started');
  });

  void it('lists the accounts that offer it', async () => {
    const answer = await fetch(`${base}/admin/sso`);
    assert.deepEqual(await answer.json(), {
      items: [{ account_id: accountId, name: 'Acme', start_path: `/admin/sso/${accountId}/start` }],
    });
  });
});
