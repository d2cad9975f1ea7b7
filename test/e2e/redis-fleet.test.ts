// Issue 17, "Done when": two Node processes sharing the Redis caches (`feature-ts/redis`) keep one visitor's
// variation sticky across an allocation change and deliver each other's pending hits once. Real processes
// (redis-fleet-process.ts), the local Redis, the project's server; expected variations from PROTOCOL.md §15's
// table; "once" read from what reached the server (every hit that arrived, duplicates included) and from
// what its store counted.
import assert from 'node:assert/strict';
import { after, afterEach, before, it } from 'node:test';
import type { HitCacheRecord } from '../../src/protocol/index.js';
import {
  REDIS_URL,
  connectRedis,
  deleteKeys,
  leaseEnded,
  randomPrefix,
  type TestRedis,
} from '../core/caches/redis-support.js';
import { until } from '../support/until.js';
import { deadUrl, startFleetProcess, type FleetProcess, type FleetTask } from './redis-fleet-support.js';
import { VECTORS, campaignsFile } from './sdk-server-campaigns.js';
import { describeE2eOnEveryStore, report, visitsOf, type E2eFixture } from './sdk-server-support.js';

const [A, , C] = VECTORS;
const LEASE_SECONDS = 1;

describeE2eOnEveryStore('Node processes sharing the Redis caches', (fixture) => {
  let redis: TestRedis;
  let prefix = '';
  const prefixes: string[] = [];
  /** A fresh key prefix (the keys of every prefix a test used are deleted after it). */
  const fresh = (): void => {
    prefix = randomPrefix();
    prefixes.push(prefix);
  };
  const running: FleetProcess[] = [];

  before(async () => {
    redis = await connectRedis();
  });
  after(() => {
    redis.destroy();
  });
  afterEach(async () => {
    for (const fleet of running.splice(0)) await fleet.kill();
    for (const used of prefixes.splice(0)) await deleteKeys(redis, used);
  });

  /** A task on this test's environment and prefix. */
  const task = (env: { envId: string; apiKey: string }, more: Partial<FleetTask>): FleetTask => ({
    serverUrl: fixture.server.running.url,
    envId: env.envId,
    apiKey: env.apiKey,
    redisUrl: REDIS_URL,
    prefix,
    leaseSeconds: LEASE_SECONDS,
    ...more,
  });

  /** Runs a process to its end and returns its flags lines by visitor id. */
  const flagsOf = async (t: FleetTask): Promise<Record<string, [unknown, unknown]>> => {
    const fleet = startFleetProcess(t, running);
    assert.equal(await fleet.exited(), 0);
    const flags: Record<string, [unknown, unknown]> = {};
    for (const e of fleet.events) if (e.event === 'flags') flags[String(e.visitorId)] = [e.q, e.h];
    return flags;
  };

  /** The records in the shared hit cache. */
  const cached = async (envId: string): Promise<HitCacheRecord[]> =>
    Object.values(await redis.hGetAll(`${prefix}:${envId}:hits`)).map((v) => JSON.parse(v) as HitCacheRecord);

  /** Starts a process that queues `count` hits it cannot send, waits until they are cached, kills it. */
  const crashWithPending = async (
    env: { envId: string; apiKey: string },
    action: string,
    count: number,
    fetch?: FleetTask['fetch'],
  ): Promise<{ hids: string[]; types: Record<string, number>; owner: string }> => {
    const fleet = startFleetProcess(
      task(env, {
        deadUrl: await deadUrl(),
        hits: { visitorId: `${action}-visitor`, count, action },
        wait: true,
        ...(fetch ? { fetch } : {}),
      }),
      running,
    );
    const started = await fleet.next('started');
    await fleet.next('waiting');
    // Periodic caching copies the pool every second; the sends to the dead URL fail and keep the items.
    await until(
      async () => (await cached(env.envId)).filter((r) => r.data.content.action === action).length === count,
      { what: `${count} ${action} hits cached`, timeoutMs: 20_000 },
    );
    await fleet.kill();
    const hids = (await cached(env.envId)).map((r) => r.data.content.hid);
    const types: Record<string, number> = {};
    for (const r of await cached(env.envId)) types[r.data.type] = (types[r.data.type] ?? 0) + 1;
    return { hids, types, owner: String(started.owner) };
  };

  /** How many times each hid of `envId` reached the server (duplicates included). */
  const arrivals = (f: E2eFixture, envId: string): Map<string, number> => {
    const seen = new Map<string, number>();
    for (const { envId: id, row } of [...f.server.received.hits, ...f.server.received.activations])
      if (id === envId && row.hid !== null) seen.set(row.hid, (seen.get(row.hid) ?? 0) + 1);
    return seen;
  };

  const hitsWith = (envId: string, action: string): number =>
    fixture.server.received.hits.filter((h) => h.envId === envId && h.row.body.ea === action).length;

  void it("keeps a visitor's variation across processes and an allocation change", async () => {
    fresh();
    const env = await fixture.server.seed();
    // Process 1 assigns the visitor as §15's table says (quarters 25/25/25/25).
    const first = await flagsOf(task(env, { fetch: { visitorIds: [A.id] } }));
    assert.deepEqual(first[A.id], [A.variation, A.variation50]);
    const record = JSON.parse((await redis.get(`${prefix}:${env.envId}:visitor:${A.id}`)) ?? '{}') as {
      data?: { assignmentsHistory?: Record<string, string> };
    };
    assert.equal(Object.values(record.data?.assignmentsHistory ?? {}).includes(`q-${A.variation}`), true);

    // Everything of the quarters group to variation 1 now.
    await fixture.server.importFile(env.envId, campaignsFile({ quarters: [100, 0, 0, 0] }));
    const second = await flagsOf(task(env, { fetch: { visitorIds: [A.id, C.id] } }));
    assert.deepEqual(second[A.id], [A.variation, A.variation50], 'process 2 keeps what process 1 assigned');
    assert.deepEqual(
      second[C.id],
      [1, C.variation50],
      `a newcomer gets the new allocation (§15: ${C.variation} before)`,
    );
    // The control: a process that does not share the cache re-allocates the visitor.
    fresh();
    const alone = await flagsOf(task(env, { fetch: { visitorIds: [A.id] } }));
    assert.deepEqual(alone[A.id], [1, A.variation50]);
  });

  void it('delivers the pending hits of a killed process from the next one, each once', async () => {
    fresh();
    const env = await fixture.server.seed();
    const N = 120;
    // Process 1 exposes the visitor (an activation) and queues N hits, all to a URL where nothing listens.
    const crashed = await crashWithPending(env, 'fleet-crash', N, { visitorIds: [A.id], expose: true });
    // N hits; the fetch's SEGMENT hit (bucketing mode) and activation; one fs_consent event per visitor.
    assert.deepEqual(crashed.types, { EVENT: N + 2, SEGMENT: 1, ACTIVATE: 1 });
    assert.equal(arrivals(fixture, env.envId).size, 0, 'nothing reached the server');

    // Process 2 starts once the lease of process 1 ended, takes the records and sends them as it closes.
    await until(() => leaseEnded(redis, `${prefix}:${env.envId}:hit-owners`, crashed.owner), {
      what: "the crashed process's lease to end",
      timeoutMs: 10_000,
    });
    const next = startFleetProcess(task(env, {}), running);
    assert.equal(await next.exited(), 0);

    const seen = arrivals(fixture, env.envId);
    assert.deepEqual([...seen.keys()].sort(), [...crashed.hids].sort(), 'every pending hit arrived');
    assert.deepEqual([...new Set(seen.values())], [1], 'each once');
    assert.deepEqual(await fixture.server.store.countHits(env.envId), { EVENT: N + 2, SEGMENT: 1 });
    assert.deepEqual(visitsOf(await report(fixture.server, env.envId, 'quarters')), {
      [`q-${A.variation}`]: 1,
    });
    assert.deepEqual(await cached(env.envId), [], 'the cache is empty');
    console.log(`redis fleet: ${crashed.hids.length} pending, ${seen.size} received, each once`);
  });

  void it('hands orphaned hits to one of two processes starting and sending at once, each hit once', async () => {
    fresh();
    const env = await fixture.server.seed();
    const orphans = await crashWithPending(env, 'fleet-orphan', 60);
    await until(() => leaseEnded(redis, `${prefix}:${env.envId}:hit-owners`, orphans.owner), {
      what: "the orphans' lease to end",
      timeoutMs: 10_000,
    });

    const N = 150;
    // Both start (each tracker looks the cache up at once) and only then send: were a record handed to both,
    // both would send it. Batches every 30 s: nothing leaves before the gate opens, then pools of 50 and close.
    const both = ['fleet-one', 'fleet-two'].map((action) =>
      startFleetProcess(
        task(env, {
          gate: true,
          batchIntervals: 30,
          hits: { visitorId: `${action}-visitor`, count: N, action },
        }),
        running,
      ),
    );
    const lookups = await Promise.all(both.map((fleet) => fleet.next('lookup')));
    const taken = lookups.map((l) => Number(l.records));
    assert.equal(
      taken.reduce((sum, n) => sum + n, 0),
      orphans.hids.length,
      'the orphans, shared out',
    );
    for (const fleet of both) fleet.go();
    assert.deepEqual(await Promise.all(both.map((fleet) => fleet.exited())), [0, 0]);

    const seen = arrivals(fixture, env.envId);
    for (const hid of orphans.hids) assert.equal(seen.get(hid), 1, `orphan ${hid} arrived once`);
    assert.deepEqual([...new Set(seen.values())], [1], 'no hid reached the server twice');
    assert.deepEqual(
      ['fleet-orphan', 'fleet-one', 'fleet-two'].map((action) => hitsWith(env.envId, action)),
      [60, N, N],
    );
    // 60 + 2N hits and one fs_consent event per visitor.
    assert.deepEqual(await fixture.server.store.countHits(env.envId), { EVENT: 60 + 2 * N + 3 });
    assert.deepEqual(await cached(env.envId), []);
    console.log(
      `redis fleet: ${seen.size} hits from 3 processes (1 killed), each received once; orphans taken ` +
        taken.join(' / '),
    );
  });
});
