// A webhook cannot be aimed at the server's own network (issue 36 follow-up): a URL whose host is a literal
// loopback, link-local or private address, in any spelling, or a `localhost` name, is refused at creation with
// a 400 naming url and the setting that allows it, and nothing is stored. Any other name is accepted here (what it resolves to is checked
// at each delivery: test/server/webhooks/webhook-private-networks.test.ts); with
// FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow the same addresses are accepted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import { post, seedEnvironment, startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-private-webhooks-0123456789';
const auth = { authorization: `Bearer ${KEY}` };
const OWN_NETWORK = [
  'http://127.0.0.1:9/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:9/hook',
  'http://[::ffff:127.0.0.1]:9/hook',
  'http://2130706433:9/hook',
  'https://10.0.0.5/hook',
  // Loopback by name (RFC 6761), whatever DNS says: refused before any lookup, as a literal loopback is.
  'http://localhost:9/hook',
  'http://api.LOCALHOST.:9/hook',
];

void describe('webhook creation, addresses of the server network', () => {
  let store: Store;
  let envId: string;
  const apps: Running[] = [];
  before(async () => {
    store = await openFreshPgliteStore();
    envId = (await seedEnvironment(store, [])).envId;
  });
  after(async () => {
    for (const app of apps) await app.close();
    await store.close();
  });
  const started = async (webhookPrivateNetworks?: boolean): Promise<Running> => {
    const app = await startApp(store, {
      operatorKeys: [KEY],
      ...(webhookPrivateNetworks === undefined ? {} : { webhookPrivateNetworks }),
    });
    apps.push(app);
    return app;
  };

  void it('refuses a literal loopback, link-local or private address by default, naming url and the setting', async () => {
    const app = await started();
    for (const url of OWN_NETWORK) {
      const answer = await post(`${app.url}/admin/v1/environments/${envId}/webhooks`, { url }, auth);
      assert.equal(answer.status, 400, `${url}: ${JSON.stringify(answer.body)}`);
      const body = answer.body as { code: string; details: Array<{ path: string; message: string }> };
      assert.equal(body.code, 'invalid_body');
      const [detail] = body.details;
      assert.ok(detail, url);
      assert.equal(detail.path, 'url');
      assert.match(
        detail.message,
        /^must not point to a (loopback|link-local|private) address \(.+\): webhooks reach only public addresses unless the server is started with FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow$/,
        url,
      );
    }
    assert.deepEqual(await store.listWebhooks(envId), []);
  });

  void it('accepts a name and a public address by default', async () => {
    const app = await started();
    for (const url of [
      'https://hooks.example.com/hook',
      'http://localhost.example.com/hook',
      'https://93.184.215.14/hook',
    ]) {
      const answer = await post(`${app.url}/admin/v1/environments/${envId}/webhooks`, { url }, auth);
      assert.equal(answer.status, 201, `${url}: ${JSON.stringify(answer.body)}`);
    }
  });

  void it('accepts the same addresses when the server allows private networks', async () => {
    const app = await started(true);
    for (const url of OWN_NETWORK) {
      const answer = await post(`${app.url}/admin/v1/environments/${envId}/webhooks`, { url }, auth);
      assert.equal(answer.status, 201, `${url}: ${JSON.stringify(answer.body)}`);
    }
  });
});
