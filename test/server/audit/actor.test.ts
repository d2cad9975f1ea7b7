// The actor named by a route's credential check must still be current deep inside its handler: after the body
// was parsed from socket events, after an async hook, across timers and awaited I/O. A lost context would
// record a change under no name, or under another request's.
import assert from 'node:assert/strict';
import { setTimeout as wait } from 'node:timers/promises';
import { test } from 'node:test';
import Fastify from 'fastify';
import {
  actingAs,
  carryRequestActors,
  currentActor,
  setRequestActor,
} from '../../../server/src/audit/actor.js';

const build = async () => {
  const app = Fastify();
  carryRequestActors(app);
  await app.register((scope, _options, done) => {
    scope.addHook('onRequest', async (request) => {
      await wait(1);
      const name = request.headers['x-who'];
      if (typeof name === 'string')
        setRequestActor(request, { kind: 'user', id: name, label: name, address: request.ip });
    });
    scope.addHook('preHandler', async () => {
      await wait(1);
    });
    scope.post('/change', async (request) => {
      const { delay } = request.body as { delay: number };
      await wait(delay);
      await new Promise((resolve) => setImmediate(resolve));
      return { actor: currentActor()?.id ?? null };
    });
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
};

void test('each request sees its own actor inside its handler, with concurrent requests over real sockets', async (t) => {
  const app = await build();
  t.after(() => app.close());
  const address = app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  const call = async (who: string | null, delay: number): Promise<unknown> => {
    const response = await fetch(`http://127.0.0.1:${address.port}/change`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(who === null ? {} : { 'x-who': who }) },
      body: JSON.stringify({ delay }),
    });
    return ((await response.json()) as { actor: unknown }).actor;
  };
  const answers = await Promise.all([call('ana', 30), call('bo', 5), call(null, 10), call('cy', 1)]);
  assert.deepEqual(answers, ['ana', 'bo', null, 'cy']);
});

void test('actingAs names the actor of work outside any request, and only inside it', async () => {
  const cli = { kind: 'cli', id: null, label: 'CLI (test)', address: null } as const;
  assert.equal(currentActor(), null);
  const seen = await actingAs(cli, async () => {
    await wait(1);
    return currentActor();
  });
  assert.deepEqual(seen, cli);
  assert.equal(currentActor(), null);
});
