// A webhook's URL is stored as given (issue 36): text the store cannot hold (a NUL byte, a lone surrogate) is
// refused with a 400 naming url, as every other stored string is, never a 500; so are malformed or non-http
// URLs and one over 2048 characters. Nothing refused is stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import { post, seedEnvironment, startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-bad-webhooks-0123456789';

void describe('webhook creation, bad input', () => {
  let store: Store;
  let app: Running;
  let envId: string;
  before(async () => {
    store = await openFreshPgliteStore();
    envId = (await seedEnvironment(store, [])).envId;
    app = await startApp(store, { operatorKeys: [KEY] });
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  void it('refuses unstorable, malformed and oversized URLs with a 400 naming url, storing nothing', async () => {
    for (const url of [
      'https://hooks.example.com/\u0000x',
      'https://hooks.example.com/\ud800',
      'not a url',
      'ftp://hooks.example.com/x',
      'https://user:pass@hooks.example.com/x',
      `https://hooks.example.com/${'x'.repeat(2048)}`,
    ]) {
      const answer = await post(
        `${app.url}/admin/v1/environments/${envId}/webhooks`,
        { url },
        { authorization: `Bearer ${KEY}` },
      );
      assert.equal(answer.status, 400, `${JSON.stringify(url.slice(0, 40))}: ${JSON.stringify(answer.body)}`);
      assert.match(
        JSON.stringify(answer.body),
        /"path":"url"/,
        'the field is named, as schema errors name it',
      );
    }
    assert.deepEqual(await store.listWebhooks(envId), []);
  });
});
