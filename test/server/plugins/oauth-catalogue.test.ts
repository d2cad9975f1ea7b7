// The token service and remote control authorization against bad input and attacks (PROTOCOL.md §13.3,
// §13.4, §13.6, §13.7): content types, malformed and oversized bodies, prototype pollution, doubled
// parameters and credentials, wrong grant types, every kind of bad credential (one answer for all), revoked,
// expired and tampered tokens, another account's tokens, expires_in bounds and types, scope widening. Each
// case asserts the exact status, the headers that matter and the whole body. The limits have their own file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccess } from '../../../server/src/auth/create-access.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { AccessRecord } from '../../../server/src/store/access-store.js';
import type { Store } from '../../../server/src/store/store.js';
import { checkoutCampaign, seedEnvironment, startApp, type Running } from '../support.js';

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

const INVALID_CLIENT = {
  error: 'invalid_client',
  error_description:
    'Client authentication failed: check the client id, the client secret and the account id in the path.',
};
const CT_REFUSED = {
  error: 'invalid_request',
  error_description: 'Content-Type must be application/x-www-form-urlencoded or application/json.',
};
const invalidRequest = (error_description: string) => ({ error: 'invalid_request', error_description });
const EXPIRES_RANGE = invalidRequest('expires_in must be a whole number of seconds from 0 to 31536000.');

let store: Store;
let server: Running;
let limited: Running;
let clock = Date.now();
let accountId = '';
let otherAccountId = '';
let envId = '';
let envB = '';
let full: { access: AccessRecord; clientSecret: string };
let narrow: { access: AccessRecord; clientSecret: string };
let revoked: { access: AccessRecord; clientSecret: string };
let foreign: { access: AccessRecord; clientSecret: string };

before(async () => {
  store = await openFreshPgliteStore();
  const seeded = await seedEnvironment(store, [checkoutCampaign()]);
  accountId = seeded.accountId;
  envId = seeded.envId;
  envB = (await store.createEnvironment({ accountId, name: 'B' })).environment.id;
  const otherAccount = await store.createAccount('Other account');
  otherAccountId = otherAccount.id;
  await store.createEnvironment({ accountId: otherAccountId, name: 'theirs' });
  full = await createAccess(store, {
    accountId,
    name: 'all',
    actions: ['campaign.list', 'campaign.toggle', 'report.read'],
  });
  narrow = await createAccess(store, {
    accountId,
    name: 'A only',
    actions: ['campaign.toggle'],
    environments: [envId],
  });
  revoked = await createAccess(store, { accountId, name: 'gone', actions: ['campaign.list'] });
  await store.revokeAccess(revoked.access.id);
  foreign = await createAccess(store, {
    accountId: otherAccountId,
    name: 'theirs',
    actions: ['campaign.list'],
  });
  server = await startApp(store, {
    now: () => clock,
    tokenLimits: { tokenRequestsPerMinute: 10_000, pairFailures: 10_000, ipFailures: 10_000 },
  });
  limited = await startApp(store, {
    maxTokenLifetimeSeconds: 600,
    tokenLimits: { tokenRequestsPerMinute: 10_000 },
  });
});
after(async () => {
  await limited.close();
  await server.close();
  await store.close();
});

const answer = async (res: Response): Promise<Answer> => {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text so the assertion shows it
  }
  return { status: res.status, headers: res.headers, body };
};

/** A token request with a raw body and headers. */
const tokenRequest = async (
  options: {
    body?: string;
    type?: string | null;
    headers?: Record<string, string>;
    query?: string;
    account?: string;
    on?: Running;
  } = {},
): Promise<Answer> => {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.type !== null) headers['content-type'] = options.type ?? 'application/x-www-form-urlencoded';
  const target = options.on ?? server;
  return answer(
    await fetch(`${target.url}/oauth/${options.account ?? accountId}/token${options.query ?? ''}`, {
      method: 'POST',
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
    }),
  );
};

const form = (fields: Record<string, string> | Array<[string, string]>): string =>
  new URLSearchParams(fields).toString();

const credentials = (who = full) => ({
  grant_type: 'client_credentials',
  client_id: who.access.clientId,
  client_secret: who.clientSecret,
});

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

const issued = async (options: Parameters<typeof tokenRequest>[0] = {}): Promise<Record<string, unknown>> => {
  const got = await tokenRequest({ body: form(credentials()), ...options });
  assert.equal(got.status, 200, JSON.stringify(got.body));
  assert.equal(got.headers.get('cache-control'), 'no-store');
  assert.equal(got.headers.get('pragma'), 'no-cache');
  assert.equal(got.headers.get('access-control-allow-origin'), null, 'token routes send no CORS headers');
  return got.body as Record<string, unknown>;
};

const refused = (got: Answer, status: number, body: unknown, wwwAuthenticate: string | null = null) => {
  assert.equal(got.status, status, JSON.stringify(got.body));
  assert.deepEqual(got.body, body);
  assert.equal(got.headers.get('cache-control'), 'no-store');
  assert.equal(got.headers.get('www-authenticate'), wwwAuthenticate);
};

const TOKEN_SHAPE = /^fft_[A-Za-z0-9_-]{43}$/;

void describe('token requests that are accepted', () => {
  void it('form-encoded credentials: a bearer token for the whole access, for an hour', async () => {
    const body = await issued();
    assert.match(String(body.access_token), TOKEN_SHAPE);
    assert.deepEqual(
      { ...body, access_token: 'x' },
      {
        access_token: 'x',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'campaign.list campaign.toggle report.read env:*',
      },
    );
  });
  void it('JSON credentials', async () => {
    const body = await issued({ type: 'application/json', body: JSON.stringify(credentials()) });
    assert.equal(body.scope, 'campaign.list campaign.toggle report.read env:*');
  });
  void it('JSON with a charset parameter', async () => {
    await issued({ type: 'application/json; charset=utf-8', body: JSON.stringify(credentials()) });
  });
  void it('HTTP Basic credentials (form-encoded parts)', async () => {
    await issued({
      body: form({ grant_type: 'client_credentials' }),
      headers: {
        authorization: basic(encodeURIComponent(full.access.clientId), encodeURIComponent(full.clientSecret)),
      },
    });
  });
  void it('expires_in=0: no expiry, so no expires_in field', async () => {
    const body = await issued({ query: '?expires_in=0' });
    assert.equal('expires_in' in body, false);
  });
  void it('expires_in at its bounds: 1 and 31536000', async () => {
    assert.equal((await issued({ query: '?expires_in=1' })).expires_in, 1);
    assert.equal((await issued({ query: '?expires_in=31536000' })).expires_in, 31536000);
  });
  void it('a scope naming some actions narrows them and keeps the environments', async () => {
    assert.equal(
      (await issued({ body: form({ ...credentials(), scope: 'report.read' }) })).scope,
      'report.read env:*',
    );
  });
  void it('a scope naming an environment narrows the environments and keeps the actions', async () => {
    const body = await issued({ body: form({ ...credentials(), scope: `env:${envB}` }) });
    assert.equal(body.scope, `campaign.list campaign.toggle report.read env:${envB}`);
  });
  void it('scope "*" is the whole access', async () => {
    assert.equal(
      (await issued({ body: form({ ...credentials(), scope: '*' }) })).scope,
      'campaign.list campaign.toggle report.read env:*',
    );
  });
  void it('a __proto__ form parameter is an ignored parameter, never a prototype', async () => {
    await issued({ body: `${form(credentials())}&__proto__=polluted&constructor=x` });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

void describe('token requests refused as malformed (400 invalid_request)', () => {
  const cases: Array<[string, () => Parameters<typeof tokenRequest>[0], unknown, number?]> = [
    [
      'text/plain',
      () => ({ type: 'text/plain', body: form({ grant_type: 'client_credentials' }) }),
      CT_REFUSED,
    ],
    ['multipart/form-data', () => ({ type: 'multipart/form-data; boundary=x', body: '--x--' }), CT_REFUSED],
    ['no Content-Type', () => ({ type: null, body: 'grant_type=client_credentials' }), CT_REFUSED],
    [
      'JSON that does not parse',
      () => ({ type: 'application/json', body: '{"grant_type":' }),
      invalidRequest('The body is not valid JSON (Unexpected end of JSON input): send a JSON text.'),
    ],
    [
      'a JSON array',
      () => ({ type: 'application/json', body: '[]' }),
      invalidRequest('The JSON body must be an object of string parameters.'),
    ],
    [
      'JSON null',
      () => ({ type: 'application/json', body: 'null' }),
      invalidRequest('The JSON body must be an object of string parameters.'),
    ],
    [
      'a JSON number for client_id',
      () => ({ type: 'application/json', body: '{"grant_type":"client_credentials","client_id":5}' }),
      invalidRequest('client_id must be a string.'),
    ],
    [
      'JSON with __proto__',
      () => ({ type: 'application/json', body: '{"grant_type":"client_credentials","__proto__":{"x":1}}' }),
      invalidRequest('__proto__: the keys __proto__, constructor and prototype are not allowed in a body'),
    ],
    [
      'JSON with constructor.prototype',
      () => ({ type: 'application/json', body: '{"constructor":{"prototype":{"x":1}}}' }),
      invalidRequest('constructor: the keys __proto__, constructor and prototype are not allowed in a body'),
    ],
    [
      'a body over 8 KB',
      () => ({ body: `grant_type=client_credentials&pad=${'x'.repeat(9000)}` }),
      invalidRequest('The body is over 8192 bytes.'),
      413,
    ],
    [
      'no grant_type',
      () => ({ body: form({ client_id: 'a', client_secret: 'b' }) }),
      invalidRequest('grant_type is missing: send grant_type=client_credentials.'),
    ],
    [
      'grant_type twice',
      () => ({
        body: form([
          ['grant_type', 'client_credentials'],
          ['grant_type', 'client_credentials'],
        ]),
      }),
      invalidRequest('grant_type is given more than once: send it once.'),
    ],
    [
      'client_id twice',
      () => ({
        body: form([
          ['grant_type', 'client_credentials'],
          ['client_id', 'a'],
          ['client_id', 'b'],
          ['client_secret', 's'],
        ]),
      }),
      invalidRequest('client_id is given more than once: send it once.'),
    ],
    [
      'client_secret twice',
      () => ({
        body: form([
          ['grant_type', 'client_credentials'],
          ['client_id', 'a'],
          ['client_secret', 's'],
          ['client_secret', 't'],
        ]),
      }),
      invalidRequest('client_secret is given more than once: send it once.'),
    ],
    [
      'no client_id',
      () => ({ body: form({ grant_type: 'client_credentials', client_secret: 's' }) }),
      invalidRequest('client_id is missing: send it in the body or in HTTP Basic credentials.'),
    ],
    [
      'an empty client_id',
      () => ({ body: form({ grant_type: 'client_credentials', client_id: '', client_secret: 's' }) }),
      invalidRequest('client_id is missing: send it in the body or in HTTP Basic credentials.'),
    ],
    [
      'no client_secret',
      () => ({ body: form({ grant_type: 'client_credentials', client_id: 'a' }) }),
      invalidRequest('client_secret is missing: send it in the body or in HTTP Basic credentials.'),
    ],
    [
      'an empty client_secret',
      () => ({ body: form({ grant_type: 'client_credentials', client_id: 'a', client_secret: '' }) }),
      invalidRequest('client_secret is missing: send it in the body or in HTTP Basic credentials.'),
    ],
    [
      'Basic credentials and a body client_id',
      () => ({
        body: form({ grant_type: 'client_credentials', client_id: 'a' }),
        headers: { authorization: basic('a', 'b') },
      }),
      invalidRequest(
        'Client credentials are given both in the Authorization header and in the body: send them once.',
      ),
    ],
    [
      'Basic credentials and a body client_secret',
      () => ({
        body: form({ grant_type: 'client_credentials', client_secret: 'b' }),
        headers: { authorization: basic('a', 'b') },
      }),
      invalidRequest(
        'Client credentials are given both in the Authorization header and in the body: send them once.',
      ),
    ],
    [
      'Basic credentials without a colon',
      () => ({
        body: form({ grant_type: 'client_credentials' }),
        headers: { authorization: `Basic ${Buffer.from('abc').toString('base64')}` },
      }),
      invalidRequest('The Basic credentials must be "client_id:client_secret", base64-encoded.'),
    ],
    [
      'Basic credentials that are not base64',
      () => ({ body: form({ grant_type: 'client_credentials' }), headers: { authorization: 'Basic !!!' } }),
      invalidRequest('The Authorization header must be "Basic <base64 of id:secret>".'),
    ],
    [
      'a Bearer header on the token route',
      () => ({
        body: form({ grant_type: 'client_credentials' }),
        headers: { authorization: 'Bearer fft_x' },
      }),
      invalidRequest('The Authorization header must be "Basic <base64 of id:secret>".'),
    ],
    [
      'Basic parts that are not form-encoded',
      () => ({
        body: form({ grant_type: 'client_credentials' }),
        headers: { authorization: basic('%zz', 'b') },
      }),
      invalidRequest('The Basic credentials are not valid form-encoded text.'),
    ],
    [
      'expires_in over a year',
      () => ({ body: form(credentials()), query: '?expires_in=31536001' }),
      EXPIRES_RANGE,
    ],
    ['expires_in negative', () => ({ body: form(credentials()), query: '?expires_in=-1' }), EXPIRES_RANGE],
    ['expires_in a fraction', () => ({ body: form(credentials()), query: '?expires_in=1.5' }), EXPIRES_RANGE],
    ['expires_in text', () => ({ body: form(credentials()), query: '?expires_in=abc' }), EXPIRES_RANGE],
    [
      'expires_in in exponent form',
      () => ({ body: form(credentials()), query: '?expires_in=1e3' }),
      EXPIRES_RANGE,
    ],
    ['expires_in empty', () => ({ body: form(credentials()), query: '?expires_in=' }), EXPIRES_RANGE],
    [
      'expires_in twice',
      () => ({ body: form(credentials()), query: '?expires_in=60&expires_in=60' }),
      invalidRequest('expires_in is given more than once: send it once.'),
    ],
    [
      'scope twice',
      () => ({
        body: form([...Object.entries(credentials()), ['scope', 'report.read'], ['scope', 'campaign.list']]),
      }),
      invalidRequest('scope is given more than once: send it once.'),
    ],
  ];
  for (const [name, options, body, status] of cases)
    void it(name, async () => refused(await tokenRequest(options()), status ?? 400, body));
});

void describe('token requests refused for their grant type or scope', () => {
  for (const grant of ['password', 'authorization_code', 'refresh_token', ''])
    void it(`grant_type ${JSON.stringify(grant)}: 400 unsupported_grant_type`, async () =>
      refused(await tokenRequest({ body: form({ ...credentials(), grant_type: grant }) }), 400, {
        error: 'unsupported_grant_type',
        error_description: `grant_type ${JSON.stringify(grant)} is not supported: use client_credentials.`,
      }));
  const scopeCases: Array<[string, () => { who: typeof full; scope: string }, string | (() => string)]> = [
    [
      'an action the access lacks',
      () => ({ who: full, scope: 'campaign.delete' }),
      'campaign.delete is not an action this access grants.',
    ],
    [
      'env:* on an access limited to one environment',
      () => ({ who: narrow, scope: 'env:*' }),
      'env:* asks for every environment; this access holds only some of them.',
    ],
    [
      'an environment outside a limited access',
      () => ({ who: narrow, scope: `env:${envB}` }),
      () => `env:${envB} is not an environment this access holds.`,
    ],
    [
      'an environment of another account',
      () => ({ who: full, scope: 'env:not-ours' }),
      'env:not-ours is not an environment this access holds.',
    ],
    [
      'an unknown word',
      () => ({ who: full, scope: 'admin' }),
      '"admin" is neither an action (campaign.list, campaign.read, campaign.create, campaign.update, campaign.delete, campaign.toggle, environment.panic, report.read) nor env:<id> or env:*.',
    ],
  ];
  for (const [name, make, description] of scopeCases)
    void it(`scope widening: ${name}: 400 invalid_scope`, async () => {
      const { who, scope } = make();
      refused(await tokenRequest({ body: form({ ...credentials(who), scope }) }), 400, {
        error: 'invalid_scope',
        error_description: typeof description === 'string' ? description : description(),
      });
    });
});

void describe('bad credentials: one answer for all (401 invalid_client)', () => {
  const basicHeader = 'Basic realm="feature"';
  const cases: Array<[string, () => Parameters<typeof tokenRequest>[0]]> = [
    ['an unknown client id', () => ({ body: form({ ...credentials(), client_id: 'ffc_unknown' }) })],
    ['a wrong secret', () => ({ body: form({ ...credentials(), client_secret: 'ffs_wrong' }) })],
    [
      "another access's secret",
      () => ({ body: form({ ...credentials(), client_secret: narrow.clientSecret }) }),
    ],
    ['a revoked access', () => ({ body: form(credentials(revoked)) })],
    ["another account's access", () => ({ body: form(credentials(foreign)) })],
    ['an unknown account in the path', () => ({ body: form(credentials()), account: 'no-such-account' })],
    [
      'a wrong secret in Basic credentials',
      () => ({
        body: form({ grant_type: 'client_credentials' }),
        headers: { authorization: basic(full.access.clientId, 'ffs_wrong') },
      }),
    ],
    [
      'a secret with one character changed',
      () => ({
        body: form({
          ...credentials(),
          client_secret: `${full.clientSecret.slice(0, -1)}${full.clientSecret.endsWith('A') ? 'B' : 'A'}`,
        }),
      }),
    ],
  ];
  for (const [name, make] of cases)
    void it(name, async () => refused(await tokenRequest(make()), 401, INVALID_CLIENT, basicHeader));
});

void describe('the operator limit on token lifetimes (FEATURE_MAX_TOKEN_LIFETIME=600)', () => {
  const limit = invalidRequest(
    'This server issues tokens for at most 600 s (FEATURE_MAX_TOKEN_LIFETIME): ask for 1 to 600.',
  );
  void it('no expiry is refused', async () =>
    refused(
      await tokenRequest({ on: limited, body: form(credentials()), query: '?expires_in=0' }),
      400,
      limit,
    ));
  void it('longer than the limit is refused', async () =>
    refused(
      await tokenRequest({ on: limited, body: form(credentials()), query: '?expires_in=601' }),
      400,
      limit,
    ));
  void it('without expires_in the token lives the limit', async () =>
    assert.equal((await issued({ on: limited })).expires_in, 600));
});

const check = async (token: string, on = server): Promise<Answer> =>
  answer(await fetch(`${on.url}/oauth/token?access_token=${encodeURIComponent(token)}`));

void describe('token checks (RFC 7662)', () => {
  void it('a live token: who, which account, the scope, and when it ends', async () => {
    const token = String((await issued({ query: '?expires_in=120' })).access_token);
    const got = await check(token);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('cache-control'), 'no-store');
    const iat = Math.floor(clock / 1000);
    assert.deepEqual(got.body, {
      active: true,
      client_id: full.access.clientId,
      account: accountId,
      scope: 'campaign.list campaign.toggle report.read env:*',
      iat,
      token_type: 'Bearer',
      expires_in: 120,
      exp: Math.ceil((clock + 120_000) / 1000),
    });
  });
  void it('a token without expiry has neither expires_in nor exp', async () => {
    const token = String((await issued({ query: '?expires_in=0' })).access_token);
    const body = (await check(token)).body as Record<string, unknown>;
    assert.equal(body.active, true);
    assert.equal('expires_in' in body, false);
    assert.equal('exp' in body, false);
  });
  void it('an expired token: {"active":false} and nothing else', async () => {
    const token = String((await issued({ query: '?expires_in=60' })).access_token);
    clock += 60_000;
    try {
      assert.deepEqual((await check(token)).body, { active: false });
    } finally {
      clock -= 60_000;
    }
  });
  const inactive: Array<[string, () => Promise<string>]> = [
    ['an unknown token of the right shape', () => Promise.resolve(`fft_${'A'.repeat(43)}`)],
    ['a malformed token', () => Promise.resolve('not-a-token')],
    [
      'a tampered token (one character changed)',
      async () => {
        const token = String((await issued()).access_token);
        return `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      },
    ],
    [
      'a token of a revoked access',
      async () => {
        const gone = await createAccess(store, { accountId, name: 'soon gone', actions: ['campaign.list'] });
        const token = String((await issued({ body: form(credentials(gone)) })).access_token);
        await store.revokeAccess(gone.access.id);
        return token;
      },
    ],
    ['a token with a NUL byte', () => Promise.resolve('fft_\u0000')],
  ];
  for (const [name, make] of inactive)
    void it(`${name}: {"active":false}`, async () => {
      const got = await check(await make());
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, { active: false });
    });
  void it('no access_token: 400 invalid_request', async () =>
    refused(
      await answer(await fetch(`${server.url}/oauth/token`)),
      400,
      invalidRequest('access_token is missing: send the token to check as ?access_token=….'),
    ));
  void it('access_token twice: 400 invalid_request', async () =>
    refused(
      await answer(await fetch(`${server.url}/oauth/token?access_token=a&access_token=b`)),
      400,
      invalidRequest('access_token is given more than once: send it once.'),
    ));
});

void describe('remote control calls (RFC 6750)', () => {
  const call = async (
    authorization: string | null,
    path = `/v1/accounts/${accountId}/account_environments/${envId}/campaigns`,
  ) =>
    answer(await fetch(`${server.url}${path}`, { headers: authorization === null ? {} : { authorization } }));
  const invalidToken = {
    message:
      'The bearer token is malformed, unknown, expired or revoked: get a new one from POST /oauth/{accountId}/token.',
    code: 'invalid_token',
  };
  const INVALID = 'Bearer realm="feature", error="invalid_token"';
  const scopeOf = (action: string, env: string) =>
    `Bearer realm="feature", error="insufficient_scope", scope="${action} env:${env}"`;
  const insufficient = (scope: string) => ({
    message: `The token does not grant ${scope} (or belongs to another account): use a token of an access that grants it.`,
    code: 'insufficient_scope',
  });
  const expect = (got: Answer, status: number, body: unknown, header: string | null) => {
    assert.equal(got.status, status, JSON.stringify(got.body));
    assert.deepEqual(got.body, body);
    assert.equal(got.headers.get('www-authenticate'), header);
  };
  void it('a live token with the action: 200', async () => {
    const token = String((await issued()).access_token);
    assert.equal((await call(`Bearer ${token}`)).status, 200);
  });
  void it('no Authorization: 401 with no error code', async () =>
    expect(
      await call(null),
      401,
      {
        message:
          'The Authorization header is missing: send "Authorization: Bearer <token>" with a token from POST /oauth/{accountId}/token.',
        code: 'missing_token',
      },
      'Bearer realm="feature"',
    ));
  void it('another scheme counts as no bearer token', async () =>
    assert.equal((await call(basic('a', 'b'))).headers.get('www-authenticate'), 'Bearer realm="feature"'));
  void it('"Bearer" with no token: 401 invalid_token', async () =>
    expect(await call('Bearer'), 401, invalidToken, INVALID));
  void it('a malformed token: 401 invalid_token', async () =>
    expect(await call('Bearer abc'), 401, invalidToken, INVALID));
  void it('a tampered token: 401 invalid_token', async () => {
    const token = String((await issued()).access_token);
    expect(await call(`Bearer ${token.slice(0, -2)}xx`), 401, invalidToken, INVALID);
  });
  void it('an expired token: 401 invalid_token', async () => {
    const token = String((await issued({ query: '?expires_in=1' })).access_token);
    clock += 1000;
    try {
      expect(await call(`Bearer ${token}`), 401, invalidToken, INVALID);
    } finally {
      clock -= 1000;
    }
  });
  void it('a token of a revoked access: 401 invalid_token', async () => {
    const gone = await createAccess(store, { accountId, name: 'revoked later', actions: ['campaign.list'] });
    const token = String((await issued({ body: form(credentials(gone)) })).access_token);
    await store.revokeAccess(gone.access.id);
    expect(await call(`Bearer ${token}`), 401, invalidToken, INVALID);
  });
  void it("another account's token, on this account's path: 403", async () => {
    const token = String(
      (await issued({ body: form(credentials(foreign)), account: otherAccountId })).access_token,
    );
    expect(
      await call(`Bearer ${token}`),
      403,
      insufficient(`campaign.list env:${envId}`),
      scopeOf('campaign.list', envId),
    );
  });
  void it('an environment outside the scope: 403', async () => {
    const token = String((await issued({ body: form(credentials(narrow)) })).access_token);
    const path = `/v1/accounts/${accountId}/account_environments/${envB}/campaigns/c1/toggle`;
    const got = await answer(
      await fetch(`${server.url}${path}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"state":"paused"}',
      }),
    );
    expect(got, 403, insufficient(`campaign.toggle env:${envB}`), scopeOf('campaign.toggle', envB));
  });
  void it('an action the token lacks: 403', async () => {
    const token = String(
      (await issued({ body: form({ ...credentials(), scope: 'report.read' }) })).access_token,
    );
    expect(
      await call(`Bearer ${token}`),
      403,
      insufficient(`campaign.list env:${envId}`),
      scopeOf('campaign.list', envId),
    );
  });
  void it('an environment that does not exist, with env:*: 404 unknown_environment', async () => {
    const token = String((await issued()).access_token);
    const got = await call(
      `Bearer ${token}`,
      `/v1/accounts/${accountId}/account_environments/nope/campaigns`,
    );
    assert.equal(got.status, 404);
    assert.equal((got.body as { code: string }).code, 'unknown_environment');
  });
});
