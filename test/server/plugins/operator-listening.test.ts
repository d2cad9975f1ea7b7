// GET /admin/v1/environments/{envId}/listening: the open live-update streams of an environment on this instance
// (what the console shows as "N pages listening now"), following streams as they open and close, per
// environment; operator only, never cached, 404 for an unknown environment.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import { until } from '../../support/until.js';
import { openStream, type OpenedStream } from '../event-stream-client.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import { checkoutCampaign, premiumToggle, seedEnvironment, startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-the-listening-tests-01';

interface Listening {
  env_id: string;
  listening: number;
  counted_on: string;
}

void describe('pages listening now (GET /admin/v1/environments/{envId}/listening)', () => {
  let store: Store;
  let server: Running;
  const opened: OpenedStream[] = [];

  const read = async (envId: string): Promise<{ status: number; cache: string | null; body: unknown }> => {
    const res = await fetch(`${server.url}/admin/v1/environments/${envId}/listening`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    return { status: res.status, cache: res.headers.get('cache-control'), body: await res.json() };
  };
  const listening = async (envId: string): Promise<number> => {
    const answer = await read(envId);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return (answer.body as Listening).listening;
  };
  const open = async (envId: string): Promise<OpenedStream> => {
    const stream = await openStream(`${server.url}/v1/${envId}/stream`);
    assert.equal(stream.status, 200);
    opened.push(stream);
    return stream;
  };

  before(async () => {
    store = await openFreshPgliteStore();
    server = await startApp(store, { operatorKeys: [KEY] });
  });
  after(async () => {
    for (const stream of opened) stream.close();
    await server.close();
    await store.close();
  });

  void it('counts the open streams of the environment, and follows them as they close', async () => {
    const { envId } = await seedEnvironment(store, [checkoutCampaign(), premiumToggle()]);
    const other = await seedEnvironment(store, [checkoutCampaign()]);
    const answer = await read(envId);
    assert.equal(answer.status, 200);
    assert.equal(answer.cache, 'no-store');
    assert.deepEqual(answer.body, { env_id: envId, listening: 0, counted_on: 'this-instance' });

    const first = await open(envId);
    await open(envId);
    await open(other.envId);
    await until(async () => (await listening(envId)) === 2, { what: 'two streams counted', timeoutMs: 5000 });
    // Per environment: the other environment's stream is its own.
    assert.equal(await listening(other.envId), 1);

    first.close();
    await until(async () => (await listening(envId)) === 1, {
      what: 'the closed stream gone',
      timeoutMs: 5000,
    });
  });

  void it('is for operators only, and 404 for an unknown environment', async () => {
    const { envId } = await seedEnvironment(store, [premiumToggle()]);
    const anonymous = await fetch(`${server.url}/admin/v1/environments/${envId}/listening`);
    assert.equal(anonymous.status, 401);
    const unknown = await read('nope');
    assert.equal(unknown.status, 404);
    assert.equal((unknown.body as { code: string }).code, 'unknown_environment');
  });
});
