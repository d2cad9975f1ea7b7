// Roles on the server (issue 36), route by route: every operator and console route of the OpenAPI document
// (GET ones also as HEAD) is called as the operator key, an admin, an editor and a viewer of the account, an
// admin of another account, and no one, and each answer is checked against the table below, written from the
// issue's rules rather than read from the code under test. A route in the document but not in the table fails
// the test, so a new route must say who may call it. The viewer's calls, refused changes included, must leave
// every table of the store exactly as it was.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { migrate } from '../../../server/src/store/migrations/migrate.js';
import { openPgliteThread } from '../../../server/src/store/pglite/pglite-thread.js';
import { createSqlStore } from '../../../server/src/store/sql/sql-store.js';
import type { Sql } from '../../../server/src/store/sql/sql.js';
import type { Store } from '../../../server/src/store/store.js';
import { addPerson, call, type Answer, type Caller } from '../people-support.js';
import { auditedByTests, checkoutCampaign, seedEnvironment, startApp, type Running } from '../support.js';
import { freshDataDir } from '../template-data-dir.js';

const KEY = 'operator-key-for-the-role-matrix-0123456789';

/**
 * Who may call each route: a role in the route's account (admin ⊃ editor ⊃ viewer), `signed_in` (anyone
 * signed in; the answer depends on who), `operator_key` (instance-wide: the key alone), `session` (any console
 * session: reading or ending one's own), `person` (a person's session: answering one's own invitation; the
 * operator key is no person), `public` (signing in: no credential at all).
 */
type Need = 'admin' | 'editor' | 'viewer' | 'signed_in' | 'operator_key' | 'session' | 'person' | 'public';

const MATRIX: Readonly<Record<string, Need>> = {
  'GET /admin/v1/accounts': 'signed_in',
  'POST /admin/v1/accounts': 'operator_key',
  'GET /admin/v1/accounts/{accountId}/environments': 'viewer',
  'POST /admin/v1/accounts/{accountId}/environments': 'admin',
  'POST /admin/v1/environments/{envId}/rotate-key': 'admin',
  'PATCH /admin/v1/environments/{envId}': 'admin',
  'PUT /admin/v1/environments/{envId}/campaigns': 'editor',
  'GET /admin/v1/environments/{envId}/campaigns': 'viewer',
  'POST /admin/v1/environments/{envId}/campaigns': 'editor',
  'GET /admin/v1/environments/{envId}/reports': 'viewer',
  'GET /admin/v1/accounts/{accountId}/accesses': 'admin',
  'POST /admin/v1/accounts/{accountId}/accesses': 'admin',
  'GET /admin/v1/accesses/{accessId}': 'admin',
  'POST /admin/v1/accesses/{accessId}/revoke': 'admin',
  'GET /admin/v1/environments/{envId}/traffic': 'viewer',
  'GET /admin/v1/environments/{envId}/reports/{campaignId}/days': 'viewer',
  'GET /admin/v1/environments/{envId}/listening': 'viewer',
  'POST /admin/v1/reports/rebuild': 'operator_key',
  'GET /admin/v1/reports/rebuild': 'operator_key',
  'GET /admin/v1/environments/{envId}/webhooks': 'admin',
  'POST /admin/v1/environments/{envId}/webhooks': 'admin',
  'DELETE /admin/v1/environments/{envId}/webhooks/{webhookId}': 'admin',
  'GET /admin/v1/environments/{envId}/webhooks/{webhookId}/deliveries': 'admin',
  'POST /admin/v1/environments/{envId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': 'admin',
  'GET /admin/v1/accounts/{accountId}/users': 'admin',
  'POST /admin/v1/accounts/{accountId}/users': 'admin',
  'PATCH /admin/v1/accounts/{accountId}/users/{userId}': 'admin',
  'DELETE /admin/v1/accounts/{accountId}/users/{userId}': 'admin',
  'POST /admin/v1/accounts/{accountId}/users/{userId}/reset-link': 'admin',
  'GET /admin/v1/environments/{envId}/campaigns/{campaignId}': 'viewer',
  'PATCH /admin/v1/environments/{envId}/campaigns/{campaignId}': 'editor',
  'DELETE /admin/v1/environments/{envId}/campaigns/{campaignId}': 'editor',
  'PATCH /admin/v1/environments/{envId}/campaigns/{campaignId}/toggle': 'editor',
  'PATCH /admin/v1/environments/{envId}/panic': 'editor',
  'GET /admin/v1/environments/{envId}/campaigns/{campaignId}/report': 'viewer',
  'GET /admin/v1/accounts/{accountId}/audit': 'admin',
  'GET /admin/v1/accounts/{accountId}/audit/export': 'admin',
  'GET /admin/v1/audit': 'operator_key',
  'GET /admin/v1/environments/{envId}/campaigns/{campaignId}/history': 'viewer',
  'POST /admin/v1/environments/{envId}/campaigns/{campaignId}/history/{seq}/restore': 'editor',
  'GET /admin/v1/accounts/{accountId}/sso': 'admin',
  'PUT /admin/v1/accounts/{accountId}/sso': 'admin',
  'DELETE /admin/v1/accounts/{accountId}/sso': 'admin',
  'GET /admin/sso': 'public',
  'POST /admin/session': 'public',
  'GET /admin/session': 'session',
  'DELETE /admin/session': 'session',
  'POST /admin/session/invitation': 'public',
  'POST /admin/session/invitation/peek': 'public',
  'POST /admin/session/password-reset': 'public',
  'POST /admin/v1/console/sign-in-links': 'operator_key',
  'DELETE /admin/v1/console/sessions': 'operator_key',
  'POST /admin/v1/console/join/peek': 'person',
  'POST /admin/v1/console/join': 'person',
};

const RANK = { viewer: 0, editor: 1, admin: 2 } as const;

type Who = 'operator' | 'admin' | 'editor' | 'viewer' | 'outsider' | 'none';

interface Operation {
  requestBody?: {
    content: Record<string, { examples?: Record<string, { value: unknown }>; example?: unknown }>;
  };
}

/** What `who` must be answered on a route that needs `need` (`allowed`: neither 401, 403 nor a guard's 404). */
const expected = (need: Need, who: Who): 'allowed' | 401 | 403 | 404 => {
  if (who === 'none') return 401;
  // The operator key here is a Bearer header: not a console session, so it has none to read or end.
  if (who === 'operator') return need === 'session' ? 401 : need === 'person' ? 403 : 'allowed';
  if (need === 'signed_in' || need === 'session' || need === 'person') return 'allowed';
  if (need === 'operator_key') return 403;
  if (who === 'outsider') return 404;
  return RANK[who] >= RANK[need as keyof typeof RANK] ? 'allowed' : 403;
};

let dir: string;
let sql: Sql;
let store: Store;
let server: Running;
const ids: Record<string, string> = {};
const callers = {} as Record<Who, Caller>;

before(async () => {
  dir = await freshDataDir('role-matrix-');
  // The store over a connection this test keeps, so that it can read every table behind the store's back.
  sql = await openPgliteThread(dir);
  await migrate(sql);
  store = auditedByTests(createSqlStore(sql, 'pglite'));
  server = await startApp(store, { operatorKeys: [KEY] });
  const env = await seedEnvironment(store, [checkoutCampaign()]);
  const other = await seedEnvironment(store, [checkoutCampaign('other-')]);
  ids.accountId = env.accountId;
  ids.envId = env.envId;
  ids.campaignId = checkoutCampaign().id;
  const operator = { bearer: KEY };
  const access = await call(server, 'POST', `/admin/v1/accounts/${env.accountId}/accesses`, operator, {
    name: 'ci',
    actions: ['campaign.list'],
  });
  ids.accessId = String(access.body.id);
  const hook = await call(server, 'POST', `/admin/v1/environments/${env.envId}/webhooks`, operator, {
    url: 'https://hooks.example.com/hook',
  });
  ids.webhookId = String(hook.body.id);
  ids.deliveryId = 'no-such-delivery';
  // A version of the campaign to restore: the entry that created it.
  const history = await call(
    server,
    'GET',
    `/admin/v1/environments/${env.envId}/campaigns/${ids.campaignId}/history`,
    operator,
  );
  ids.seq = String((history.body.items as Array<{ seq: number }>).at(-1)?.seq);
  // The member the user routes act on: not one of the callers, so that removing them signs no caller out.
  const target = await call(server, 'POST', `/admin/v1/accounts/${env.accountId}/users`, operator, {
    email: 'target@example.com',
    role: 'viewer',
  });
  ids.userId = (target.body.user as { id: string }).id;
  callers.operator = operator;
  callers.none = null;
  for (const role of ['admin', 'editor', 'viewer'] as const)
    callers[role] = {
      session: (await addPerson(server, KEY, env.accountId, `${role}@example.com`, role)).session,
    };
  callers.outsider = {
    session: (await addPerson(server, KEY, other.accountId, 'outsider@example.com', 'admin')).session,
  };
});
after(async () => {
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every row of every table, as sorted JSON lines per table. */
const snapshot = async (): Promise<Record<string, string[]>> => {
  const tables = await sql.query(
    'SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename',
  );
  const all: Record<string, string[]> = {};
  for (const row of tables) {
    const table = String(row.tablename);
    const rows = await sql.query(`SELECT row_to_json(t)::text AS r FROM "${table}" t`);
    all[table] = rows.map((r) => String(r.r)).sort();
  }
  return all;
};

/** The routes of the document, each with its documented request example; ends of sessions last. */
const routes = async (): Promise<Array<{ key: string; method: string; path: string; body: unknown }>> => {
  const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  const found = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    if (!template.startsWith('/admin')) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const media = operation.requestBody?.content['application/json'];
      const example = media?.example ?? Object.values(media?.examples ?? {})[0]?.value;
      found.push({
        key: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        path: template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? `made-up-${name}`),
        body: operation.requestBody === undefined ? undefined : (example ?? {}),
      });
    }
  }
  // Ending every session, then one's own, come last: they sign the caller out.
  const last = (key: string) =>
    key === 'DELETE /admin/v1/console/sessions' ? 1 : key === 'DELETE /admin/session' ? 2 : 0;
  return found.sort((a, b) => last(a.key) - last(b.key));
};

const verdict = (answer: Answer): string =>
  answer.status === 401
    ? '401'
    : answer.status === 403 && answer.body.code === 'insufficient_role'
      ? '403'
      : answer.status === 403
        ? `403 ${String(answer.body.code)}`
        : answer.status === 404 &&
            /^(No environment|No route \w+ (account|access) )/.test(String(answer.body.message))
          ? '404'
          : 'allowed';

void describe('role matrix', () => {
  void it('has every operator and console route of the document in the table, and nothing more', async () => {
    const documented = (await routes()).map((r) => r.key).sort();
    assert.deepEqual(documented, Object.keys(MATRIX).sort());
  });

  // Least to most: the viewer's calls before anyone changes anything, the operator key's (which end every
  // session) last.
  for (const who of ['viewer', 'none', 'outsider', 'editor', 'admin', 'operator'] as const) {
    void it(`answers ${who} as the table says`, async () => {
      const before = who === 'viewer' ? await snapshot() : null;
      let compared = false;
      const wrong: string[] = [];
      for (const route of await routes()) {
        const need = MATRIX[route.key];
        if (need === undefined || need === 'public') continue;
        const want = String(expected(need, who));
        // Signing out deletes the viewer's own session row: the store is compared before that last call.
        if (before !== null && route.key === 'DELETE /admin/session') {
          assert.deepEqual(await snapshot(), before, 'a viewer changed the store');
          compared = true;
        }
        const answer = await call(server, route.method, route.path, callers[who], route.body);
        const got = verdict(answer);
        if (got !== want)
          wrong.push(
            `${route.key}: want ${want}, got ${got} (${answer.status} ${answer.text.slice(0, 160)})`,
          );
        assert.ok(answer.status < 500, `${route.key} as ${who}: ${answer.status} ${answer.text}`);
        // HEAD has no body to tell a guard's answer from the handler's: it must answer what GET did.
        if (route.method === 'GET') {
          const head = await call(server, 'HEAD', route.path, callers[who]);
          if (head.status !== answer.status)
            wrong.push(`HEAD ${route.key}: ${head.status}, where GET answered ${answer.status}`);
        }
      }
      assert.deepEqual(wrong, []);
      assert.equal(compared, before !== null, "the store was compared after the viewer's calls");
    });
  }
});
