// Text the store cannot hold (a NUL byte, a lone surrogate) in any field of the people, sign-in and single sign-on
// bodies (issue 36) is refused with a 400 naming the field, as every other stored string is: never a 500, and
// nothing is stored or logged as done. Each field is sent in an otherwise valid body, so the refusal is its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import { startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-bad-people-text-0123456789';
const BAD = { NUL: 'a\u0000b', 'lone surrogate': 'a\ud800b' } as const;

/** A valid body of each route, and where each of its stored strings sits in it. */
interface BodyCase {
  readonly route: string;
  readonly method: 'POST' | 'PUT';
  readonly path: (accountId: string) => string;
  readonly body: Record<string, unknown>;
  /** Fields as the 400 names them (`group_roles[0].group`), each with how to put a value there. */
  readonly fields: ReadonlyArray<readonly [string, (body: Record<string, unknown>, value: string) => void]>;
  readonly byOperator: boolean;
}

const top =
  (name: string) =>
  (body: Record<string, unknown>, value: string): void => {
    body[name] = value;
  };

const CASES: readonly BodyCase[] = [
  {
    route: 'invite a person',
    method: 'POST',
    path: (accountId) => `/admin/v1/accounts/${accountId}/users`,
    body: { email: 'ada@example.com', role: 'editor' },
    fields: [['email', top('email')]],
    byOperator: true,
  },
  {
    route: 'single sign-on settings',
    method: 'PUT',
    path: (accountId) => `/admin/v1/accounts/${accountId}/sso`,
    body: {
      name: 'Acme',
      issuer: 'https://id.example.com/realms/acme',
      client_id: 'feature',
      client_secret: 'secret',
      group_roles: [{ group: 'admins', role: 'admin' }],
      domain_roles: [{ domain: 'example.com', role: 'viewer' }],
    },
    fields: [
      ['name', top('name')],
      ['issuer', top('issuer')],
      ['client_id', top('client_id')],
      ['client_secret', top('client_secret')],
      [
        'group_roles[0].group',
        (body, value) => {
          body.group_roles = [{ group: value, role: 'admin' }];
        },
      ],
      [
        'domain_roles[0].domain',
        (body, value) => {
          body.domain_roles = [{ domain: value, role: 'viewer' }];
        },
      ],
    ],
    byOperator: true,
  },
  {
    route: 'password sign-in',
    method: 'POST',
    path: () => '/admin/session',
    body: { email: 'ada@example.com', password: 'a long enough password' },
    fields: [['email', top('email')]],
    byOperator: false,
  },
  {
    route: 'accept an invitation',
    method: 'POST',
    path: () => '/admin/session/invitation',
    body: { token: `fci_${'a'.repeat(43)}`, password: 'a long enough password', name: 'Ada' },
    fields: [
      ['token', top('token')],
      ['name', top('name')],
    ],
    byOperator: false,
  },
  {
    route: 'reset a password',
    method: 'POST',
    path: () => '/admin/session/password-reset',
    body: { token: `fcr_${'a'.repeat(43)}`, password: 'a long enough password' },
    fields: [['token', top('token')]],
    byOperator: false,
  },
  {
    route: 'which screen an invitation opens',
    method: 'POST',
    path: () => '/admin/session/invitation/peek',
    body: { token: `fci_${'a'.repeat(43)}` },
    fields: [['token', top('token')]],
    byOperator: false,
  },
];

void describe('people, sign-in and single sign-on bodies: text the store cannot hold', () => {
  let store: Store;
  let app: Running;
  let accountId: string;
  before(async () => {
    store = await openFreshPgliteStore();
    accountId = (await store.createAccount('Bad text')).id;
    app = await startApp(store, { operatorKeys: [KEY] });
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  for (const one of CASES)
    void it(`${one.route}: each stored field is refused with a 400 naming it`, async () => {
      for (const [field, put] of one.fields)
        for (const [what, value] of Object.entries(BAD)) {
          const body = structuredClone(one.body);
          put(body, value);
          const response = await fetch(`${app.url}${one.path(accountId)}`, {
            method: one.method,
            headers: {
              'content-type': 'application/json',
              ...(one.byOperator ? { authorization: `Bearer ${KEY}` } : {}),
            },
            body: JSON.stringify(body),
          });
          const answer = await response.text();
          assert.equal(response.status, 400, `${field} with a ${what}: ${answer}`);
          assert.ok(answer.includes(`"path":"${field}"`), `${field} with a ${what} is named: ${answer}`);
        }
    });

  void it('stored nothing: no person, no settings', async () => {
    assert.deepEqual(await store.listMembers(accountId), []);
    assert.equal(await store.getSsoSettings(accountId), null);
  });
});
