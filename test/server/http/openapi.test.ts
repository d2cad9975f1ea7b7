// The OpenAPI 3.1 document (GET /openapi.json) and the API reference page (/docs). Every route the app
// registers, except the hidden files and pages and the CORS preflights, is in the document with a summary, a
// description, a tag, its security, a 2xx answer with a schema and an example, and a request body example when
// it takes a body. Every example validates against its own schema (Ajv, JSON Schema 2020-12, as OpenAPI 3.1
// says), so examples cannot drift from schemas; every operation, called on a live server with its documented
// request example, answers a status the document lists, with a body its schema accepts, so schemas cannot drift
// from the routes. The page renders in Chromium from this server alone.
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { ACTIONS } from '../../../src/protocol/index.js';
import { startTestProvider } from '../../support/oidc-provider.js';
import { EXAMPLE } from '../../../server/src/plugins/shared-schemas.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { ANNOTATIONS } from '../../../server/src/http/schema-validation.js';
import { launchChromium } from '../../support/chromium.js';
import { until } from '../../support/until.js';
import { startApp, type Running } from '../support.js';

type Schema = Record<string, unknown>;
interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Answer {
  description: string;
  content?: Record<string, Media>;
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; schema?: Schema; example?: unknown }>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, Answer>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}
interface Route {
  method: string;
  url: string;
  hidden: boolean;
  bodyLimit: number | undefined;
}

const OPERATOR_KEY = 'operator-key-for-the-openapi-test';
const TAGS = ['sdk', 'ofrep', 'tokens', 'remote-control', 'operator'];
// Files and pages, not API operations: the only routes that may hide from the document (single sign-on's
// start and callback are browser navigations that answer redirects and pages).
const HIDDEN =
  /^\/(?:$|demo\/|sdk\/|docs(?:\/|$)|openapi\.json$|admin$|admin\/assets\/|admin\/sso\/(?::accountId\/start|callback)$)/;
// Actions that take no body (everything they need is in the path).
const BODYLESS = new Set([
  'post /admin/v1/environments/{envId}/rotate-key',
  'post /admin/v1/accesses/{accessId}/revoke',
  'post /admin/v1/console/sign-in-links',
  'post /admin/v1/reports/rebuild',
  'post /admin/v1/environments/{envId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
  'post /admin/v1/accounts/{accountId}/users/{userId}/reset-link',
  'post /admin/v1/environments/{envId}/campaigns/{campaignId}/history/{seq}/restore',
]);

const routes: Route[] = [];
let store: Store;
let server: Running;
let doc: OpenApiDocument;

/** Every route of the next app built, as fastify registers it (its own onRoute hook, from its creation). */
const collectRoutes = (message: unknown): void => {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routes.push({
        method,
        url: route.url,
        hidden: route.schema?.hide === true,
        bodyLimit: route.bodyLimit,
      });
  });
};

before(async () => {
  store = await openFreshPgliteStore();
  subscribe('fastify.initialization', collectRoutes);
  try {
    // Static folders that do not exist: the routes are registered all the same, and answer 404.
    server = await startApp(store, {
      operatorKeys: [OPERATOR_KEY],
      static: {
        demoDir: '/nonexistent/demo',
        sdkDir: '/nonexistent/sdk',
        frameworkDemoDir: '/nonexistent/fw',
      },
    });
  } finally {
    unsubscribe('fastify.initialization', collectRoutes);
  }
  const res = await fetch(`${server.url}/openapi.json`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  doc = (await res.json()) as OpenApiDocument;
});
after(async () => {
  await server.close();
  await store.close();
});

const templateOf = (url: string): string => url.replace(/:(\w+)/g, '{$1}');
const apiRoutes = (): Route[] =>
  routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !r.hidden);
const operations = (): Array<[string, Operation]> =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]): [string, Operation] => [`${method} ${path}`, op]),
  );
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const examplesOf = (media: Media): unknown[] =>
  'example' in media ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);

// Strict, except strictRequired: `anyOf: [{required: [a]}, {required: [b]}]` says "one of two spellings".
// An Ajv of its own, not the server's: the project's x- keywords are annotations here (the examples must pass
// the standard keywords whatever the server adds).
const ajv = new Ajv2020({
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  allErrors: true,
  discriminator: true,
});
ajv.addVocabulary([...ANNOTATIONS]);
addFormats(ajv);
const validate = (schema: Schema | undefined, value: unknown, where: string): void => {
  assert.ok(schema !== undefined, `${where}: no schema`);
  const check = ajv.compile(schema);
  assert.ok(check(value), `${where}: ${ajv.errorsText(check.errors)}\n${JSON.stringify(value)}`);
};

/** Every example in `schema` and its subschemas, with the schema it belongs to. */
const schemaExamples = (schema: unknown, where: string): Array<[string, Schema, unknown]> => {
  if (!isObject(schema)) return [];
  const found: Array<[string, Schema, unknown]> = Array.isArray(schema.examples)
    ? schema.examples.map((value: unknown, i): [string, Schema, unknown] => [
        `${where}.examples[${i}]`,
        schema,
        value,
      ])
    : [];
  const children: Array<[string, unknown]> = [];
  if (isObject(schema.properties)) children.push(...Object.entries(schema.properties));
  for (const key of ['items', 'additionalProperties', 'not']) children.push([key, schema[key]]);
  for (const key of ['oneOf', 'anyOf', 'allOf'])
    if (Array.isArray(schema[key]))
      children.push(...schema[key].map((s: unknown, i): [string, unknown] => [`${key}[${i}]`, s]));
  for (const [name, child] of children) found.push(...schemaExamples(child, `${where}.${name}`));
  return found;
};

void describe('the OpenAPI document', () => {
  void it('is OpenAPI 3.1, generated for this server, and the same at /docs/json', async () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'feature-server');
    assert.deepEqual(await (await fetch(`${server.url}/docs/json`)).json(), doc);
  });

  void it('lists every API route, and only hides files, pages and preflights', () => {
    assert.ok(apiRoutes().length >= 29, `${apiRoutes().length} API routes collected`);
    for (const route of routes.filter((r) => r.hidden))
      assert.match(route.url, HIDDEN, `${route.method} ${route.url} hides from the document`);
    for (const route of routes.filter((r) => !r.hidden && r.method !== 'HEAD' && r.method !== 'OPTIONS'))
      assert.doesNotMatch(route.url, /^\/(?:$|demo\/|sdk\/|docs)/, `${route.url} is a file or page`);
    const documented = new Set(operations().map(([key]) => key));
    const registered = new Set(apiRoutes().map((r) => `${r.method.toLowerCase()} ${templateOf(r.url)}`));
    for (const key of registered) assert.ok(documented.has(key), `${key} is not in the document`);
    for (const key of documented) assert.ok(registered.has(key), `${key} is documented but not a route`);
  });

  void it('gives every operation a summary, tags, security, a 2xx answer with an example, body examples', () => {
    for (const [key, op] of operations()) {
      assert.ok((op.summary ?? '').length > 0, `${key}: summary`);
      assert.ok((op.description ?? '').length > 0, `${key}: description`);
      assert.ok(op.tags?.length === 1 && TAGS.includes(op.tags[0] ?? ''), `${key}: tags ${String(op.tags)}`);
      assert.ok(Array.isArray(op.security), `${key}: security (explicit, [] when none)`);
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      assert.ok(success.length > 0, `${key}: a 2xx answer`);
      for (const [status, answer] of Object.entries(op.responses)) {
        assert.ok(answer.description.length > 0, `${key} ${status}: description`);
        if (status === '204' || status === '304') {
          assert.equal(answer.content, undefined, `${key} ${status} has no body`);
          continue;
        }
        // The live-update stream's 200 is an event stream (§17), the audit export's JSON lines: not JSON.
        const media =
          answer.content?.['application/json'] ??
          answer.content?.['text/event-stream'] ??
          answer.content?.['application/x-ndjson'];
        assert.ok(media?.schema !== undefined, `${key} ${status}: a JSON schema`);
        assert.ok(examplesOf(media).length > 0, `${key} ${status}: an example`);
      }
      const takesBody = /^(post|put|patch) /.test(key) && !BODYLESS.has(key);
      assert.equal(op.requestBody !== undefined, takesBody, `${key}: request body documented`);
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
        assert.ok(examplesOf(media).length > 0, `${key} ${type}: a request body example`);
    }
  });

  void it('answers errors in the shape of their route family', () => {
    for (const [key, op] of operations()) {
      // OFREP's bodies are its own, a server fault's included (OpenFeature providers read errorCode).
      if (key.includes(' /ofrep/')) {
        for (const [status, answer] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const required = answer.content?.['application/json']?.schema?.required;
          assert.ok(Array.isArray(required) && required.includes('errorCode'), `${key} ${status}`);
          assert.ok(required.includes('errorDetails'), `${key} ${status}`);
        }
        continue;
      }
      const shape = key.includes(' /oauth/') ? ['error', 'error_description'] : ['message', 'code'];
      for (const [status, answer] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        // A server fault has the §2.4 body on every route, token routes included.
        const fields = status === '500' ? ['message', 'code'] : shape;
        assert.deepEqual(answer.content?.['application/json']?.schema?.required, fields, `${key} ${status}`);
      }
    }
  });

  void it('holds examples that its own schemas accept (JSON Schema 2020-12)', () => {
    let count = 0;
    for (const [key, op] of operations()) {
      const checks: Array<[string, Schema | undefined, unknown]> = [];
      for (const p of op.parameters ?? []) {
        if ('example' in p) checks.push([`${key} ${p.name}`, p.schema, p.example]);
        checks.push(...schemaExamples(p.schema, `${key} ${p.name}`));
      }
      const media = [
        ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]): [string, Media] => [
          `body ${type}`,
          m,
        ]),
        ...Object.entries(op.responses).flatMap(([status, answer]) =>
          Object.entries(answer.content ?? {}).map(([type, m]): [string, Media] => [`${status} ${type}`, m]),
        ),
      ];
      for (const [where, m] of media) {
        for (const value of examplesOf(m)) checks.push([`${key} ${where}`, m.schema, value]);
        checks.push(...schemaExamples(m.schema, `${key} ${where}`));
      }
      for (const [where, schema, value] of checks) validate(schema, value, where);
      count += checks.length;
    }
    assert.ok(count > 150, `${count} examples checked`);
  });

  void it("names each route's own body limit in its 413 examples", () => {
    for (const route of apiRoutes()) {
      const op = doc.paths[templateOf(route.url)]?.[route.method.toLowerCase()];
      const media = op?.responses['413']?.content?.['application/json'];
      if (media === undefined) continue;
      const limit = route.bodyLimit ?? server.app.initialConfig.bodyLimit;
      for (const example of examplesOf(media)) {
        const text = JSON.stringify(example);
        assert.match(text, new RegExp(`\\b${limit} bytes`), `${route.method} ${route.url}: ${text}`);
      }
    }
  });
});

void describe('every operation, called with its documented examples', () => {
  const covered = new Set<string>();
  const ids: Record<string, string> = {};
  // The example values that stand for ids made during the run (not `c1`, which is a word of other ids too).
  const made = ['envId', 'accountId', 'accessId', 'clientId', 'clientSecret', 'accessToken'] as const;

  /** `value` with the example ids replaced by the live ones. */
  const live = <T>(value: T): T => {
    let text = JSON.stringify(value);
    for (const name of made) {
      const id = ids[name];
      if (id !== undefined) text = text.split(EXAMPLE[name]).join(id);
    }
    return JSON.parse(text) as T;
  };
  const requestExample = (method: string, template: string, type = 'application/json'): unknown => {
    const media = doc.paths[template]?.[method]?.requestBody?.content[type];
    assert.ok(media !== undefined, `${method} ${template}: no ${type} body`);
    return live(examplesOf(media)[0]);
  };

  /** Calls an operation; its status must be documented and its body accepted by the documented schema. */
  const call = async (
    method: string,
    template: string,
    init: {
      body?: unknown;
      form?: boolean;
      type?: string;
      query?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> => {
    const path = template.replace(
      /\{(\w+)\}/g,
      (_, name: string) => ids[name] ?? assert.fail(`no ${name} yet`),
    );
    const type = init.type ?? (init.form === true ? 'application/x-www-form-urlencoded' : 'application/json');
    const body =
      init.body === undefined
        ? undefined
        : init.form === true
          ? new URLSearchParams(init.body as Record<string, string>).toString()
          : JSON.stringify(init.body);
    const res = await fetch(`${server.url}${path}${init.query ?? ''}`, {
      method: method.toUpperCase(),
      headers: { ...(body === undefined ? {} : { 'content-type': type }), ...init.headers },
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.text();
    const where = `${method} ${template} → ${res.status}`;
    const answer = doc.paths[template]?.[method]?.responses[String(res.status)];
    assert.ok(answer !== undefined, `${where} is not documented: ${text}`);
    if (text === '') assert.equal(answer.content, undefined, where);
    else if ((res.headers.get('content-type') ?? '').startsWith('application/x-ndjson')) {
      // The audit export: each line is an entry as the audit log route answers it.
      const log = doc.paths['/admin/v1/accounts/{accountId}/audit']?.get?.responses['200']?.content?.[
        'application/json'
      ]?.schema as { properties: { items: { items: Schema } } } | undefined;
      for (const line of text.trimEnd().split('\n'))
        validate(log?.properties.items.items, JSON.parse(line), where);
      covered.add(`${method} ${template}`);
      return { status: res.status, headers: res.headers, body: {} };
    } else validate(answer.content?.['application/json']?.schema, JSON.parse(text), where);
    covered.add(`${method} ${template}`);
    return {
      status: res.status,
      headers: res.headers,
      body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
    };
  };
  const operator = { authorization: `Bearer ${OPERATOR_KEY}` };

  void it('operator routes: accounts, environments, campaigns, reports, accesses', async () => {
    const admin = (method: string, template: string, init: Parameters<typeof call>[2] = {}) =>
      call(method, `/admin/v1${template}`, { ...init, headers: operator });
    const account = await admin('post', '/accounts', { body: requestExample('post', '/admin/v1/accounts') });
    assert.equal(account.status, 201);
    ids.accountId = String(account.body.id);
    assert.equal((await admin('get', '/accounts')).status, 200);
    const env = await admin('post', '/accounts/{accountId}/environments', {
      body: requestExample('post', '/admin/v1/accounts/{accountId}/environments'),
    });
    assert.equal(env.status, 201);
    ids.envId = String(env.body.id);
    assert.equal((await admin('get', '/accounts/{accountId}/environments')).status, 200);
    const imported = await admin('put', '/environments/{envId}/campaigns', {
      body: requestExample('put', '/admin/v1/environments/{envId}/campaigns'),
    });
    assert.deepEqual(imported.body, { envId: ids.envId, campaigns: 1 });
    const patched = await admin('patch', '/environments/{envId}', {
      body: requestExample('patch', '/admin/v1/environments/{envId}'),
    });
    assert.equal(patched.status, 200);
    const rotated = await admin('post', '/environments/{envId}/rotate-key');
    ids.apiKey = String(rotated.body.api_key);
    const reports = await admin('get', '/environments/{envId}/reports', { query: '?campaign=checkout' });
    assert.equal((reports.body.reports as unknown[]).length, 1);
    const rebuild = await admin('post', '/reports/rebuild');
    assert.equal(rebuild.status, 202);
    // Followed until it is done, as the CLI does: each answer matches the documented schema. Bounded
    // (30 s, 1 501 checks 20 ms apart): a rebuild that never ends fails here, naming the last state read.
    let state = rebuild.body.state;
    if (state === 'running') {
      state = await until(
        async () => {
          const now = (await admin('get', '/reports/rebuild')).body.state;
          return now !== 'running' && now;
        },
        { what: 'the report rebuild to leave state running', timeoutMs: 30_000 },
      );
    }
    assert.notEqual(state, 'failed');
    const access = await admin('post', '/accounts/{accountId}/accesses', {
      body: requestExample('post', '/admin/v1/accounts/{accountId}/accesses'),
    });
    assert.equal(access.status, 201);
    ids.accessId = String(access.body.id);
    ids.clientId = String(access.body.client_id);
    ids.clientSecret = String(access.body.client_secret);
    assert.equal((await admin('get', '/accounts/{accountId}/accesses')).status, 200);
    assert.equal((await admin('get', '/accesses/{accessId}')).status, 200);
  });

  void it('webhook routes: create, list, deliveries, send again, delete', async () => {
    const admin = (method: string, template: string, init: Parameters<typeof call>[2] = {}) =>
      call(method, `/admin/v1/environments/{envId}/webhooks${template}`, { ...init, headers: operator });
    const created = await admin('post', '', {
      body: requestExample('post', '/admin/v1/environments/{envId}/webhooks'),
    });
    assert.equal(created.status, 201);
    ids.webhookId = String(created.body.id);
    assert.equal((await admin('get', '')).status, 200);
    // A change the webhook is sent: one delivery to list and send again.
    const panic = await call('patch', '/admin/v1/environments/{envId}', {
      body: { panic: true },
      headers: operator,
    });
    assert.equal(panic.status, 200);
    const deliveries = await admin('get', '/{webhookId}/deliveries');
    const [delivery] = deliveries.body.items as Array<{ id: string }>;
    ids.deliveryId = String(delivery?.id);
    assert.equal((await admin('post', '/{webhookId}/deliveries/{deliveryId}/redeliver')).status, 200);
    assert.equal((await admin('delete', '/{webhookId}')).status, 204);
    assert.equal((await admin('delete', '/{webhookId}')).status, 404);
    await call('patch', '/admin/v1/environments/{envId}', { body: { panic: false }, headers: operator });
  });

  void it('single sign-on settings: an undiscoverable issuer, save, read, remove', async () => {
    const path = '/admin/v1/accounts/{accountId}/sso';
    const example = requestExample('put', path) as Record<string, unknown>;
    const refused = await call('put', path, { body: example, headers: operator });
    assert.equal(refused.status, 400, 'the example issuer cannot be discovered');
    const provider = await startTestProvider(`${server.url}/admin/sso/callback`);
    try {
      const body = {
        ...example,
        issuer: provider.issuer,
        client_id: provider.client.id,
        client_secret: provider.client.secret,
      };
      assert.equal((await call('put', path, { body, headers: operator })).status, 200);
      const offers = await call('get', '/admin/sso');
      assert.deepEqual(offers.body.items, [
        { account_id: ids.accountId, name: 'Acme', start_path: `/admin/sso/${ids.accountId ?? ''}/start` },
      ]);
      assert.equal((await call('get', path, { headers: operator })).body.client_secret, '(set)');
      assert.equal((await call('delete', path, { headers: operator })).status, 204);
      assert.equal((await call('get', path, { headers: operator })).status, 404);
      assert.equal((await call('delete', path, { headers: operator })).status, 404);
    } finally {
      await provider.close();
    }
  });

  void it('user routes: invite, accept, list, change a role, reset, remove', async () => {
    const admin = (method: string, template: string, init: Parameters<typeof call>[2] = {}) =>
      call(method, `/admin/v1/accounts/{accountId}/users${template}`, { ...init, headers: operator });
    const invited = await admin('post', '', {
      body: requestExample('post', '/admin/v1/accounts/{accountId}/users'),
    });
    assert.equal(invited.status, 201);
    ids.userId = (invited.body.user as { id: string }).id;
    const token = (path: unknown): string => String(path).replace(/^\/admin\/#(invite|reset)=/, '');
    const accept = requestExample('post', '/admin/session/invitation') as Record<string, unknown>;
    const accepted = await call('post', '/admin/session/invitation', {
      body: { ...accept, token: token((invited.body.link as { path: string }).path) },
    });
    assert.equal(accepted.status, 200);
    assert.equal(
      (
        await call('post', '/admin/session/invitation', {
          body: { ...accept, token: `fci_${'A'.repeat(43)}` },
        })
      ).status,
      404,
    );
    assert.equal((await admin('get', '')).status, 200);
    assert.equal(
      (
        await admin('patch', '/{userId}', {
          body: requestExample('patch', '/admin/v1/accounts/{accountId}/users/{userId}'),
        })
      ).status,
      200,
    );
    const reset = await admin('post', '/{userId}/reset-link');
    assert.equal(reset.status, 201);
    const newPassword = requestExample('post', '/admin/session/password-reset') as Record<string, unknown>;
    const used = { ...newPassword, token: token(reset.body.path) };
    assert.equal((await call('post', '/admin/session/password-reset', { body: used })).status, 200);
    assert.equal((await call('post', '/admin/session/password-reset', { body: used })).status, 410);
    assert.equal((await admin('delete', '/{userId}')).status, 204);
  });

  void it('join routes: a person who already has a user reads, then answers, their invitation', async () => {
    // Ada chose a password above, and was removed: invited again, she answers a join link signed in.
    const invited = await call('post', '/admin/v1/accounts/{accountId}/users', {
      body: requestExample('post', '/admin/v1/accounts/{accountId}/users'),
      headers: operator,
    });
    assert.equal(invited.status, 201);
    const path = (invited.body.link as { path: string }).path;
    assert.match(path, /^\/admin\/#invite=fci_/);
    const token = path.replace(/^\/admin\/#invite=/, '');
    // The link says nothing of the person: the console asks which screen it opens.
    const screenExample = requestExample('post', '/admin/session/invitation/peek');
    const unknown = await call('post', '/admin/session/invitation/peek', { body: screenExample });
    assert.equal(unknown.status, 404);
    const screen = await call('post', '/admin/session/invitation/peek', { body: { token } });
    assert.deepEqual([screen.status, screen.body.screen], [200, 'join']);
    const { password } = requestExample('post', '/admin/session/password-reset') as { password: string };
    const email = (invited.body.user as { email: string }).email;
    const signedIn = await call('post', '/admin/session', { body: { email, password } });
    assert.equal(signedIn.status, 200);
    const cookie = /^(feature_console=[^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const headers = { cookie, 'x-csrf-token': String(signedIn.body.csrf_token) };
    const peek = requestExample('post', '/admin/v1/console/join/peek');
    assert.equal((await call('post', '/admin/v1/console/join/peek', { body: peek, headers })).status, 404);
    const found = await call('post', '/admin/v1/console/join/peek', { body: { token }, headers });
    assert.equal(found.status, 200);
    const answer = requestExample('post', '/admin/v1/console/join') as Record<string, unknown>;
    assert.equal(
      (await call('post', '/admin/v1/console/join', { body: { ...answer, token }, headers })).status,
      200,
    );
    assert.equal(
      (await call('post', '/admin/v1/console/join', { body: { ...answer, token }, headers })).status,
      410,
    );
  });

  void it('audit routes: the log, its export, a campaign history and a restore', async () => {
    const log = await call('get', '/admin/v1/accounts/{accountId}/audit', {
      headers: operator,
      query: '?limit=5',
    });
    assert.equal(log.status, 200);
    assert.equal(
      (await call('get', '/admin/v1/audit', { headers: operator, query: '?limit=5' })).status,
      200,
    );
    const exported = await call('get', '/admin/v1/accounts/{accountId}/audit/export', { headers: operator });
    assert.equal(exported.status, 200);
    const campaigns = await call('get', '/admin/v1/environments/{envId}/campaigns', { headers: operator });
    const [campaign] = campaigns.body.items as Array<{ id: string }>;
    ids.campaignId = String(campaign?.id);
    const history = await call('get', '/admin/v1/environments/{envId}/campaigns/{campaignId}/history', {
      headers: operator,
    });
    assert.equal(history.status, 200);
    const [entry] = history.body.items as Array<{ seq: number }>;
    ids.seq = String(entry?.seq);
    const restored = await call(
      'post',
      '/admin/v1/environments/{envId}/campaigns/{campaignId}/history/{seq}/restore',
      { headers: operator },
    );
    assert.equal(restored.status, 200);
  });

  void it('SDK routes: decision, activations, hits, usage, troubleshooting, bucketing file', async () => {
    const key = { 'x-api-key': ids.apiKey ?? '' };
    const decision = '/v2/{envId}/campaigns';
    const decided = await call('post', decision, {
      body: requestExample('post', decision),
      query: '?exposeAllKeys=true&extras[]=accountSettings',
      headers: key,
    });
    assert.equal((decided.body.campaigns as unknown[]).length, 1);
    assert.equal((await call('post', decision, { body: { visitorId: 'v' } })).status, 401);
    for (const example of examplesOf(
      doc.paths['/v2/activate']?.post?.requestBody?.content['text/plain'] ?? {},
    ))
      assert.equal(
        (await call('post', '/v2/activate', { body: live(example), type: 'text/plain', headers: key }))
          .status,
        204,
      );
    for (const example of examplesOf(
      doc.paths['/events']?.post?.requestBody?.content['application/json'] ?? {},
    ))
      assert.equal(
        (await call('post', '/events', { body: live(example) })).body.accepted,
        (live(example) as { h?: unknown[] }).h?.length ?? 1,
      );
    for (const path of ['/events/analytics', '/events/troubleshooting'])
      assert.equal((await call('post', path, { body: requestExample('post', path) })).status, 200);
    const emotionsAi = requestExample('post', '/events/emotionsai');
    assert.equal((await call('post', '/events/emotionsai', { body: emotionsAi })).status, 204);
    const file = await call('get', '/cdn/{envId}/bucketing.json');
    assert.equal(file.status, 200);
    const etag = file.headers.get('etag') ?? '';
    assert.equal(
      (await call('get', '/cdn/{envId}/bucketing.json', { headers: { 'if-none-match': etag } })).status,
      304,
    );
    assert.equal((await call('get', '/cdn/{envId}/accountSettings.json')).status, 200);
    // The live-update stream never ends by itself: its headers are checked, then the client leaves.
    const stream = '/v1/{envId}/stream';
    const leave = new AbortController();
    const open = await fetch(`${server.url}/v1/${ids.envId ?? ''}/stream`, { signal: leave.signal });
    leave.abort();
    assert.equal(open.status, 200);
    assert.ok(doc.paths[stream]?.get?.responses['200']?.content?.['text/event-stream'] !== undefined);
    assert.match(open.headers.get('content-type') ?? '', /^text\/event-stream/);
    covered.add(`get ${stream}`);

    // OFREP: one flag (the example campaign's), every flag and their 304, and each documented refusal.
    const bearer = { authorization: `Bearer ${ids.apiKey ?? ''}` };
    const one = '/ofrep/v1/evaluate/flags/{key}';
    const all = '/ofrep/v1/evaluate/flags';
    ids.key = 'btnColor';
    assert.equal(
      (await call('post', one, { body: requestExample('post', one), headers: bearer })).status,
      200,
    );
    assert.equal((await call('post', one, { body: requestExample('post', one), headers: key })).status, 200);
    const flags = await call('post', all, { body: requestExample('post', all), headers: bearer });
    assert.equal(flags.status, 200);
    const notModified = await call('post', all, {
      body: requestExample('post', all),
      headers: { ...bearer, 'if-none-match': flags.headers.get('etag') ?? '' },
    });
    assert.equal(notModified.status, 304);
    assert.equal((await call('post', all, { body: { context: {} }, headers: bearer })).status, 400);
    assert.equal((await call('post', all, { body: requestExample('post', all) })).status, 401);
    assert.equal((await call('post', one, { body: { context: [] }, headers: bearer })).status, 400);
    assert.equal((await call('post', one, { body: requestExample('post', one) })).status, 401);
    ids.key = 'btnColour';
    assert.equal(
      (await call('post', one, { body: requestExample('post', one), headers: bearer })).status,
      404,
    );

    // What these routes stored, through the operator's insight routes (their schemas checked on real rows).
    const traffic = await call('get', '/admin/v1/environments/{envId}/traffic', {
      query: '?limit=200',
      headers: operator,
    });
    assert.ok((traffic.body.items as unknown[]).length > 0);
    ids.campaignId = EXAMPLE.campaignId;
    const days = await call('get', '/admin/v1/environments/{envId}/reports/{campaignId}/days', {
      headers: operator,
    });
    assert.equal((days.body.days as unknown[]).length, 1);
    // No page holds a stream open here: the count of pages listening now is 0 (this instance's).
    const listening = await call('get', '/admin/v1/environments/{envId}/listening', { headers: operator });
    assert.equal(listening.body.listening, 0);
  });

  void it('token routes, the remote control routes with a token, and revocation', async () => {
    const token = '/oauth/{accountId}/token';
    const issued = await call('post', token, {
      body: requestExample('post', token, 'application/x-www-form-urlencoded'),
      form: true,
      query: '?expires_in=1800',
    });
    assert.equal(issued.status, 200);
    ids.accessToken = String(issued.body.access_token);
    const checked = await call('get', '/oauth/token', { query: `?access_token=${ids.accessToken}` });
    assert.equal(checked.body.active, true);
    assert.equal((await call('post', token, { body: {}, form: true })).status, 400);

    // Every action on every environment, and an empty environment for campaigns of its own.
    const all = await call('post', '/admin/v1/accounts/{accountId}/accesses', {
      body: { name: 'everything', actions: ACTIONS },
      headers: operator,
    });
    const second = await call('post', '/admin/v1/accounts/{accountId}/environments', {
      body: { name: 'staging' },
      headers: operator,
    });
    ids.envId = String(second.body.id);
    const bearer = await call('post', token, {
      body: {
        grant_type: 'client_credentials',
        client_id: all.body.client_id,
        client_secret: all.body.client_secret,
      },
    });
    const headers = { authorization: `Bearer ${String(bearer.body.access_token)}` };
    const base = '/v1/accounts/{accountId}/account_environments/{envId}';
    const remote = (method: string, template: string, body?: unknown) =>
      call(method, `${base}${template}`, { headers, ...(body === undefined ? {} : { body }) });
    const created = await remote('post', '/campaigns', requestExample('post', `${base}/campaigns`));
    assert.equal(created.status, 201);
    ids.campaignId = String(created.body.id);
    assert.equal((await remote('get', '/campaigns')).status, 200);
    assert.equal((await remote('get', '/campaigns/{campaignId}')).status, 200);
    for (const template of ['/campaigns/{campaignId}', '/campaigns/{campaignId}/toggle', '/panic'])
      assert.equal(
        (await remote('patch', template, requestExample('patch', `${base}${template}`))).status,
        200,
      );
    assert.deepEqual((await remote('patch', '/panic', { panic: 'off' })).body, { panic: 'off' });
    assert.equal((await remote('get', '/campaigns/{campaignId}/report')).status, 200);
    assert.equal((await remote('delete', '/campaigns/{campaignId}')).status, 204);
    assert.equal((await call('get', `${base}/campaigns`)).status, 401);

    const revoked = await call('post', '/admin/v1/accesses/{accessId}/revoke', { headers: operator });
    assert.notEqual(revoked.body.revoked_at, null);
  });

  void it('operator campaign routes: the remote control handlers with the operator key', async () => {
    const admin = (method: string, template: string, body?: unknown) =>
      call(method, `/admin/v1${template}`, { headers: operator, ...(body === undefined ? {} : { body }) });
    const third = await admin('post', '/accounts/{accountId}/environments', { name: 'qa' });
    ids.envId = String(third.body.id);
    const base = '/environments/{envId}';
    const example = (method: string, template: string) =>
      requestExample(method, `/admin/v1${base}${template}`);
    const created = await admin('post', `${base}/campaigns`, example('post', '/campaigns'));
    assert.equal(created.status, 201);
    ids.campaignId = String(created.body.id);
    assert.equal((await admin('post', `${base}/campaigns`, example('post', '/campaigns'))).status, 409);
    assert.equal((await admin('get', `${base}/campaigns`)).status, 200);
    assert.equal((await admin('get', `${base}/campaigns/{campaignId}`)).status, 200);
    for (const template of ['/campaigns/{campaignId}', '/campaigns/{campaignId}/toggle', '/panic'])
      assert.equal((await admin('patch', `${base}${template}`, example('patch', template))).status, 200);
    assert.equal((await admin('get', `${base}/campaigns/{campaignId}/report`)).status, 200);
    assert.equal((await admin('delete', `${base}/campaigns/{campaignId}`)).status, 204);
  });

  void it('console session routes: sign in with the key or a link, read, sign out', async () => {
    const signedIn = await call('post', '/admin/session', { body: requestExample('post', '/admin/session') });
    // The example key is not this server's: refused with the documented 401, then signed in with the real one.
    assert.equal(signedIn.status, 401);
    const session = await call('post', '/admin/session', { body: { operator_key: OPERATOR_KEY } });
    assert.equal(session.status, 200);
    const cookie = /^(feature_console=[^;]+)/.exec(session.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const csrf = String(session.body.csrf_token);
    assert.equal((await call('get', '/admin/session', { headers: { cookie } })).status, 200);
    const link = await call('post', '/admin/v1/console/sign-in-links', {
      headers: { cookie, 'x-csrf-token': csrf },
    });
    assert.equal(link.status, 201);
    assert.equal((await call('delete', '/admin/session', { headers: { cookie } })).status, 403);
    assert.equal(
      (await call('delete', '/admin/session', { headers: { cookie, 'x-csrf-token': csrf } })).status,
      204,
    );
    assert.equal((await call('get', '/admin/session', { headers: { cookie } })).status, 401);
    // Ending every session: the caller's too.
    const again = await call('post', '/admin/session', { body: { operator_key: OPERATOR_KEY } });
    const other = /^(feature_console=[^;]+)/.exec(again.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const ended = await call('delete', '/admin/v1/console/sessions', {
      headers: { cookie: other, 'x-csrf-token': String(again.body.csrf_token) },
    });
    assert.equal(ended.status, 200);
    assert.equal((await call('get', '/admin/session', { headers: { cookie: other } })).status, 401);
  });

  void it('covered every documented operation', () => {
    assert.deepEqual(
      operations()
        .map(([key]) => key)
        .filter((key) => !covered.has(key)),
      [],
    );
  });
});

void describe('the reference page', () => {
  void it('answers HTML whose assets this server serves', async () => {
    const res = await fetch(`${server.url}/docs`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    assert.ok(assets.length >= 5, assets.join(' '));
    for (const asset of assets) {
      assert.ok(asset.startsWith('/docs/static/'), `${asset} is served by this server`);
      const got = await fetch(`${server.url}${asset}`);
      assert.equal(got.status, 200, asset);
      assert.ok((await got.arrayBuffer()).byteLength > 0, asset);
    }
  });

  void it('renders every operation in Chromium with no request leaving this server', async (t) => {
    const browser = await launchChromium();
    t.after(() => browser.close());
    const page = await browser.newPage();
    const outside: string[] = [];
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (new URL(url).origin === server.url) return route.continue();
      outside.push(url);
      return route.abort();
    });
    await page.goto(`${server.url}/docs`);
    await page.waitForFunction(
      (n) => document.querySelectorAll('.opblock').length === n,
      operations().length,
      {
        timeout: 20_000,
      },
    );
    assert.deepEqual(outside, []);
    assert.deepEqual(problems, []);
  });
});
