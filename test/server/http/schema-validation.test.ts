// The route schemas are what the routes check (http/schema-validation.ts): for every route the app registers
// with a JSON body or a query, each documented example passes the validator the route runs, a copy without
// one of its required fields is refused naming that field, and a copy with a field of the wrong type is
// refused naming that field. Then each route with a body is called on a live server with a wrong-typed field:
// 400 invalid_body naming it, never a 500.
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { MAX_DETAILS, detailsOf, formatSchemaErrors } from '../../../server/src/http/schema-errors.js';
import { compileRequestSchema } from '../../../server/src/http/schema-validation.js';
import type { Store } from '../../../server/src/store/store.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import { startApp, type Running } from '../support.js';

type Schema = Record<string, unknown>;
interface RouteSchemas {
  method: string;
  url: string;
  body?: Schema;
  querystring?: Schema;
  response?: Schema;
}

const OPERATOR_KEY = 'operator-key-for-the-schema-validation-test';
const routes: RouteSchemas[] = [];
let store: Store;
let server: Running;

const collectRoutes = (message: unknown): void => {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onRoute', (route) => {
    const schema = route.schema as { body?: Schema; querystring?: Schema; response?: Schema } | undefined;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        ...(schema?.body === undefined ? {} : { body: schema.body }),
        ...(schema?.querystring === undefined ? {} : { querystring: schema.querystring }),
        ...(schema?.response === undefined ? {} : { response: schema.response }),
      });
    }
  });
};

before(async () => {
  store = await openFreshPgliteStore();
  subscribe('fastify.initialization', collectRoutes);
  try {
    server = await startApp(store, { operatorKeys: [OPERATOR_KEY] });
  } finally {
    unsubscribe('fastify.initialization', collectRoutes);
  }
});
after(async () => {
  await server.close();
  await store.close();
});

/** The validator a route runs on `part` of its requests. */
const validatorOf = (route: RouteSchemas, part: 'body' | 'querystring') => {
  const schema = route[part];
  assert.ok(schema !== undefined);
  return compileRequestSchema({ schema, method: route.method, url: route.url, httpPart: part }) as ((
    value: unknown,
  ) => boolean) & { errors?: unknown[] | null };
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value of another JSON type than any `schema` allows, or undefined when it allows every type. */
const wrongTypeFor = (schema: Schema): unknown => {
  const types = [schema.type].flat().filter((t): t is string => typeof t === 'string');
  if (types.length === 0) return undefined;
  if (!types.includes('object')) return { not: 'this' };
  if (!types.includes('array')) return ['not this'];
  return undefined;
};

/** The routes with a JSON body schema (the token route's is per content type: see oauth.ts). */
const jsonBodyRoutes = (): RouteSchemas[] =>
  routes.filter((r) => r.body !== undefined && !('content' in r.body) && !r.url.startsWith('/oauth'));

/** The paths of object schemas under `schema` that list no property and do not say what else they hold. */
const freeFormObjects = (schema: unknown, where: string): string[] => {
  if (Array.isArray(schema)) return schema.flatMap((item, i) => freeFormObjects(item, `${where}[${i}]`));
  if (!isObject(schema)) return [];
  const open =
    [schema.type].flat().includes('object') &&
    ['properties', 'additionalProperties', 'patternProperties', 'oneOf', 'anyOf', 'allOf'].every(
      (key) => schema[key] === undefined,
    );
  return [
    ...(open ? [where] : []),
    ...Object.entries(schema)
      .filter(([key]) => key !== 'examples')
      .flatMap(([key, value]) => freeFormObjects(value, `${where}.${key}`)),
  ];
};

void describe('route schemas and the answers the routes serialize', () => {
  void it('says what every free-form object of an answer holds, so the serializer keeps it whole', () => {
    // fast-json-stringify writes only the properties a schema lists: an object schema with none (a stored
    // hit's body) would be answered as {} unless it says additionalProperties.
    const open = routes.flatMap((route) => freeFormObjects(route.response, `${route.method} ${route.url}`));
    assert.deepEqual(open, []);
    assert.ok(routes.filter((route) => route.response !== undefined).length >= 30);
  });
});

void describe('route schemas and the bodies the routes accept', () => {
  void it('covers every route that takes a JSON body', () => {
    const names = jsonBodyRoutes().map((r) => `${r.method} ${r.url}`);
    // The SDK routes, the operator routes and the remote control API: at least these take JSON bodies.
    for (const expected of [
      'POST /v2/:envId/campaigns',
      'POST /v2/activate',
      'POST /events',
      'POST /admin/v1/accounts',
      'POST /v1/accounts/:accountId/account_environments/:envId/campaigns',
    ])
      assert.ok(names.includes(expected), `${expected} in ${names.join(', ')}`);
  });

  void it('accepts every documented example', () => {
    let examples = 0;
    for (const route of jsonBodyRoutes()) {
      const validate = validatorOf(route, 'body');
      for (const example of (route.body?.examples as unknown[] | undefined) ?? []) {
        examples++;
        assert.ok(
          validate(example),
          `${route.method} ${route.url}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(example)}`,
        );
      }
    }
    assert.ok(examples >= 20, `${examples} examples`);
  });

  void it('refuses an example without a required field, naming the field', () => {
    let mutations = 0;
    for (const route of jsonBodyRoutes()) {
      const required = (route.body?.required as string[] | undefined) ?? [];
      const validate = validatorOf(route, 'body');
      for (const example of (route.body?.examples as unknown[] | undefined) ?? []) {
        if (!isObject(example)) continue;
        for (const field of required) {
          const { [field]: _dropped, ...without } = example;
          mutations++;
          assert.equal(validate(without), false, `${route.method} ${route.url} without ${field}`);
          const details = detailsOf(validate.errors as never);
          assert.ok(
            details.some((d) => d.path === field && d.message.startsWith('is required')),
            `${route.method} ${route.url} without ${field}: ${JSON.stringify(details)}`,
          );
        }
      }
    }
    assert.ok(mutations >= 12, `${mutations} bodies without a required field`);
  });

  void it('refuses a field of the wrong type, naming the field', () => {
    let mutations = 0;
    for (const route of jsonBodyRoutes()) {
      const properties = (route.body?.properties ?? {}) as Record<string, Schema>;
      const validate = validatorOf(route, 'body');
      const example = ((route.body?.examples as unknown[] | undefined) ?? []).find(isObject);
      if (example === undefined) continue;
      for (const [field, schema] of Object.entries(properties)) {
        const wrong = wrongTypeFor(schema);
        if (wrong === undefined) continue;
        mutations++;
        assert.equal(
          validate({ ...example, [field]: wrong }),
          false,
          `${route.method} ${route.url} ${field}`,
        );
        const details = detailsOf(validate.errors as never);
        assert.ok(
          details.some(
            (d) => d.path === field || d.path.startsWith(`${field}.`) || d.path.startsWith(`${field}[`),
          ),
          `${route.method} ${route.url} ${field}: ${JSON.stringify(details)}`,
        );
      }
    }
    assert.ok(mutations >= 30, `${mutations} wrong-typed fields`);
  });

  void it('answers a body of thousands of wrong values with a bounded list of them', () => {
    const decision = routes.find((r) => r.method === 'POST' && r.url === '/v2/:envId/campaigns');
    assert.ok(decision !== undefined);
    const validate = validatorOf(decision, 'body');
    // 6 000 context values of a wrong type fit in the route's 64 KiB: Ajv reports each one.
    const context = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`k${i}`, [i]]));
    assert.equal(validate({ visitorId: 'v', context }), false);
    assert.ok((validate.errors?.length ?? 0) > 6000);
    const refusal = formatSchemaErrors(validate.errors as never, 'body');
    const details = refusal.details ?? [];
    assert.equal(details.length, MAX_DETAILS);
    assert.equal(details[0]?.path, 'context');
    assert.match(refusal.message, /which lists the first 20\)$/);
    assert.ok(JSON.stringify(refusal.details).length < 4000);
  });

  void it('reads typed query parameters from their text and refuses a malformed one, naming it', () => {
    let checked = 0;
    for (const route of routes.filter((r) => r.querystring !== undefined && !r.url.startsWith('/oauth'))) {
      const validate = validatorOf(route, 'querystring');
      const properties = (route.querystring?.properties ?? {}) as Record<string, Schema>;
      for (const [name, schema] of Object.entries(properties)) {
        if (schema.type !== 'integer' && schema.type !== 'boolean') continue;
        checked++;
        const good = {
          [name]:
            schema.type === 'boolean'
              ? 'true'
              : String(typeof schema.minimum === 'number' ? schema.minimum : 0),
        };
        assert.ok(validate(good), `${route.url} ?${name}=${good[name]}: ${JSON.stringify(validate.errors)}`);
        assert.equal(typeof good[name], schema.type === 'boolean' ? 'boolean' : 'number', 'read as typed');
        assert.equal(validate({ [name]: 'x1' }), false, `${route.url} ?${name}=x1`);
        const details = detailsOf(validate.errors as never, 'querystring');
        assert.deepEqual(
          details.map((d) => d.path),
          [name],
        );
      }
    }
    assert.ok(checked >= 6, `${checked} typed query parameters`);
  });

  void it('answers a wrong-typed field on every JSON route with 400 naming it, never a 500', async () => {
    const account = await fetch(`${server.url}/admin/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Schema checks' }),
    });
    const { id: accountId } = (await account.json()) as { id: string };
    const env = await fetch(`${server.url}/admin/v1/accounts/${accountId}/environments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Schema checks' }),
    });
    const { id: envId, api_key: apiKey } = (await env.json()) as { id: string; api_key: string };
    const ids: Record<string, string> = { accountId, envId, campaignId: 'c1', accessId: 'a1' };
    let called = 0;
    for (const route of jsonBodyRoutes()) {
      const properties = (route.body?.properties ?? {}) as Record<string, Schema>;
      const example = ((route.body?.examples as unknown[] | undefined) ?? []).find(isObject);
      const field = Object.keys(properties).find(
        (name) => wrongTypeFor(properties[name] ?? {}) !== undefined,
      );
      if (example === undefined || field === undefined) continue;
      const path = route.url.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? 'x');
      const res = await fetch(`${server.url}${path}`, {
        method: route.method,
        headers: {
          authorization: `Bearer ${OPERATOR_KEY}`,
          'x-api-key': apiKey,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ ...example, [field]: wrongTypeFor(properties[field] ?? {}) }),
      });
      called++;
      const body = (await res.json()) as {
        code?: string;
        details?: Array<{ path: string }>;
        errorCode?: string;
        errorDetails?: string;
      };
      // OFREP answers in its own shape (§18): the schema's refusal of the context is INVALID_CONTEXT, naming it.
      if (route.url.startsWith('/ofrep/')) {
        assert.equal(res.status, 400, `${route.method} ${route.url}: ${JSON.stringify(body)}`);
        assert.equal(body.errorCode, 'INVALID_CONTEXT');
        assert.match(body.errorDetails ?? '', new RegExp(`^${field}\\b`), JSON.stringify(body));
        continue;
      }
      // Bearer routes check the token first (a wrong body from no one is not worth reading); every other
      // route refuses the body before anything else.
      if (res.status === 401) {
        assert.ok(route.url.startsWith('/v1/'), `${route.method} ${route.url}: 401`);
        continue;
      }
      assert.equal(res.status, 400, `${route.method} ${route.url}: ${JSON.stringify(body)}`);
      assert.equal(body.code, 'invalid_body');
      assert.ok(
        body.details?.some(
          (d) => d.path === field || d.path.startsWith(`${field}.`) || d.path.startsWith(`${field}[`),
        ),
        `${route.method} ${route.url} ${field}: ${JSON.stringify(body)}`,
      );
    }
    assert.ok(called >= 10, `${called} routes called`);
  });
});
