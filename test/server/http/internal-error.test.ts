// An internal failure (PROTOCOL.md §2.4): a store that throws answers 500 `internal` with a request id, the
// error is logged under that id (and its detail stays out of the answer), and the server keeps serving.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ErrorBody } from '../../../src/protocol/index.js';
import type { Store } from '../../../server/src/store/store.js';
import {
  checkoutCampaign,
  keptLogs,
  post,
  seedEnvironment,
  startApp,
  storeKinds,
  type Running,
} from '../support.js';

const FAILURE = 'the disk is on fire';

for (const kind of storeKinds()) {
  void describe(`internal failures (${kind.name})`, () => {
    let store: Store;
    let server: Running;
    let env: { envId: string; apiKey: string };
    const logs = keptLogs();
    const failing = { hits: false, configuration: false };
    before(async () => {
      store = await kind.open();
      // The app's store: the real one, except where a test makes it throw.
      const broken: Store = {
        ...store,
        insertHits: (envId, rows) =>
          failing.hits ? Promise.reject(new Error(FAILURE)) : store.insertHits(envId, rows),
        loadConfiguration: (envId) =>
          failing.configuration ? Promise.reject(new Error(FAILURE)) : store.loadConfiguration(envId),
      };
      server = await startApp(broken, { logger: logs.logger });
      env = await seedEnvironment(store, [checkoutCampaign()]);
    });
    after(async () => {
      await server.close();
      await store.close();
      await kind.cleanup();
    });

    /** Checks a 500 answer and returns its request id, after finding the error logged under it. */
    const assertInternal = (res: { status: number; headers: Headers; body: unknown }): string => {
      assert.equal(res.status, 500);
      assert.equal(res.headers.get('access-control-allow-origin'), '*', 'CORS on errors too (§2.3)');
      const body = res.body as ErrorBody;
      assert.equal(body.code, 'internal');
      const requestId = body.requestId ?? '';
      assert.match(requestId, /^[0-9a-f-]{36}$/);
      assert.ok(body.message.includes(requestId), body.message);
      assert.ok(!body.message.includes(FAILURE), 'the cause stays in the log');
      const logged = logs.records.filter((r) => r.reqId === requestId && r.level === 50);
      assert.equal(logged.length, 1, `one error logged under ${requestId}`);
      const err = logged[0]?.err as { message?: string } | undefined;
      assert.equal(err?.message, FAILURE);
      return requestId;
    };

    const hits = (hid: string) => ({
      cid: env.envId,
      t: 'BATCH',
      h: [{ t: 'EVENT', vid: 'v', cuid: null, qt: 0, hid, ec: 'Action Tracking', ea: 'buy' }],
    });

    void it('answers 500 internal when storing hits fails, then stores them once the store is back', async () => {
      failing.hits = true;
      const first = assertInternal(await post(`${server.url}/events`, hits('h-1')));
      const second = assertInternal(await post(`${server.url}/events`, hits('h-1')));
      assert.notEqual(first, second, 'one id per request');
      // Meanwhile the other routes serve.
      const decision = await post(
        `${server.url}/v2/${env.envId}/campaigns?sendContextEvent=false`,
        { visitorId: 'v' },
        { 'x-api-key': env.apiKey },
      );
      assert.equal(decision.status, 200);

      failing.hits = false;
      const retried = await post(`${server.url}/events`, hits('h-1'));
      assert.deepEqual(
        retried.body,
        { accepted: 1, duplicates: 0, rejected: [], rejectedCount: 0 },
        'nothing half-stored',
      );
    });

    void it('answers 500 internal when loading a configuration fails, and loads it on the next request', async () => {
      const fresh = await seedEnvironment(store, [checkoutCampaign()]);
      const url = `${server.url}/cdn/${fresh.envId}/bucketing.json`;
      failing.configuration = true;
      const res = await fetch(url);
      assertInternal({ status: res.status, headers: res.headers, body: await res.json() });
      failing.configuration = false;
      const ok = await fetch(url);
      assert.equal(ok.status, 200);
      assert.equal(((await ok.json()) as { panic: boolean }).panic, false);
    });
  });
}
