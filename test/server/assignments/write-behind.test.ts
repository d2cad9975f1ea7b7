// Sticky assignments written behind (PROTOCOL.md §3, §8.4): what the decision API answered survives the
// server closing and a new one opening the same database, even after the allocation changed; a visitor whose
// write has not committed yet gets the variation it was given (from the writer, not a store that does not
// hold it yet); and the misses of concurrent requests are gathered into few reads.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AssignmentService } from '../../../server/src/assignments/assignment-service.js';
import { AssignmentWriter } from '../../../server/src/assignments/assignment-writer.js';
import { createLogger } from '../../../server/src/logger.js';
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import type { VisitorAssignments } from '../../../server/src/store/assignment-store.js';
import type { Store } from '../../../server/src/store/store.js';
import type { Decision } from '../../../src/protocol/index.js';
import { auditedByTests, checkoutCampaign, post, seedEnvironment, startApp, storeKinds } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';

/** A database that can be opened again after its store was closed, as a restarted server does. */
interface Reopenable {
  name: string;
  open: () => Promise<Store>;
  cleanup: () => Promise<void>;
}

const reopenables = (): Reopenable[] => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-write-behind-'));
  // A copy of a migrated folder, made before the first open: the first open would otherwise run initdb.
  let copied: Promise<void> | undefined;
  return [
    {
      name: 'pglite',
      open: async () => {
        copied ??= copyTemplateDataDir(dir);
        await copied;
        return auditedByTests(await openPgliteStore(dir));
      },
      cleanup: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    },
    // The shared PostgreSQL kind opens the same schema each time: reopenable as it is.
    ...storeKinds().filter((kind) => kind.name === 'postgres'),
  ];
};

const VISITORS = Array.from({ length: 40 }, (_, i) => `durable-${i}`);

for (const kind of reopenables()) {
  void describe(`assignments written behind (${kind.name})`, () => {
    after(() => kind.cleanup());

    void it('survive the server closing and keep their variation after the allocation changed', async () => {
      const store = await kind.open();
      const env = await seedEnvironment(store, [checkoutCampaign()]);
      const server = await startApp(store);
      const given = new Map<string, string | undefined>();
      try {
        // Concurrent requests: their reads are gathered and their writes share batches.
        const decisions = await Promise.all(
          VISITORS.map(
            async (visitorId) =>
              (
                await post(
                  `${server.url}/v2/${env.envId}/campaigns`,
                  { visitorId, context: {} },
                  { 'x-api-key': env.apiKey },
                )
              ).body as Decision,
          ),
        );
        for (const decision of decisions) given.set(decision.visitorId, decision.campaigns[0]?.variation.id);
      } finally {
        // Closing flushes what is still queued.
        await server.close();
        await store.close();
      }
      // 50/50 over 40 ids: both variations were given (else the allocation change below proves nothing).
      assert.equal(new Set(given.values()).size, 2);

      const reopened = await kind.open();
      try {
        const stored = await reopened.getAssignments(env.envId, VISITORS);
        assert.equal(stored.length, VISITORS.length);
        for (const visitor of stored) assert.equal(visitor.history.vg1, given.get(visitor.visitorId));
        // Everyone to the reference now: the stored variations still win in a new server.
        const changed = checkoutCampaign();
        for (const variation of changed.variationGroups[0]?.variations ?? [])
          variation.allocation = variation.reference === true ? 100 : 0;
        await reopened.replaceCampaigns(env.envId, [changed]);
        const again = await startApp(reopened);
        try {
          for (const visitorId of VISITORS) {
            const decision = (
              await post(
                `${again.url}/v2/${env.envId}/campaigns`,
                { visitorId, context: {} },
                { 'x-api-key': env.apiKey },
              )
            ).body as Decision;
            assert.equal(decision.campaigns[0]?.variation.id, given.get(visitorId), visitorId);
          }
        } finally {
          await again.close();
        }
      } finally {
        await reopened.close();
      }
    });
  });
}

/**
 * A store double for the service: reads answer only what `committed` holds (as a database would before a
 * write commits), each write waits for `release()`, and reads too while `holdReads` is set; it keeps the ids
 * of each read.
 */
const heldStore = (holdReads = false) => {
  const committed = new Map<string, VisitorAssignments>();
  const reads: string[][] = [];
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (release = resolve));
  let releaseReads: () => void = () => undefined;
  const readGate = new Promise<void>((resolve) => (releaseReads = resolve));
  const store = {
    getAssignments: async (_envId: string, ids: readonly string[]): Promise<VisitorAssignments[]> => {
      reads.push([...ids]);
      await new Promise((resolve) => setImmediate(resolve));
      if (holdReads) await readGate;
      return ids.flatMap((id) => {
        const found = committed.get(id);
        return found === undefined ? [] : [found];
      });
    },
    saveAssignments: async (_envId: string, visitors: readonly VisitorAssignments[]): Promise<void> => {
      await gate;
      for (const visitor of visitors)
        committed.set(visitor.visitorId, {
          ...visitor,
          history: { ...visitor.history, ...committed.get(visitor.visitorId)?.history },
        });
    },
  } as unknown as Store;
  return {
    store,
    committed,
    reads,
    releaseReads,
    release: () => {
      release();
      gate = new Promise<void>((resolve) => (release = resolve));
    },
  };
};

void describe('assignment service', () => {
  void it('gives a visitor whose write is queued or being written the variation it was given', async () => {
    const held = heldStore();
    const writer = new AssignmentWriter(held.store, createLogger('fatal'));
    // One cached visitor: deciding another one evicts the first, whose next read then misses the cache.
    const service = new AssignmentService(held.store, writer, { maxCached: 1 });
    assert.deepEqual(await service.historyOf('env', ['a'], 1), {});
    service.record('env', ['a'], { g1: 'v2', g2: 'v1' }, 1);
    const evict = async (id: string): Promise<void> => {
      await service.historyOf('env', [id], 1);
      service.record('env', [id], { g1: 'v1' }, 1);
    };
    await evict('b');
    // Queued, not written: the store does not hold it, the writer does.
    assert.deepEqual({ ...(await service.historyOf('env', ['a'], 2)) }, { g1: 'v2', g2: 'v1' });
    await evict('c');
    const flushed = writer.flush();
    await new Promise((resolve) => setImmediate(resolve));
    // Handed to the store, not committed yet.
    assert.equal(held.committed.size, 0);
    assert.deepEqual({ ...(await service.historyOf('env', ['a'], 3)) }, { g1: 'v2', g2: 'v1' });
    assert.equal(
      held.reads.filter((ids) => ids.includes('a')).length,
      1,
      'a pending visitor is not read from the store (only its first visit was)',
    );
    held.release();
    await flushed;
    assert.deepEqual({ ...held.committed.get('a')?.history }, { g1: 'v2', g2: 'v1' });
    await evict('d');
    // Committed and out of both cache and writer: read from the store, same variations.
    assert.deepEqual({ ...(await service.historyOf('env', ['a'], 4)) }, { g1: 'v2', g2: 'v1' });
  });

  void it('gathers the misses of concurrent requests into few reads', async () => {
    const held = heldStore(true);
    const writer = new AssignmentWriter(held.store, createLogger('fatal'));
    const service = new AssignmentService(held.store, writer);
    held.committed.set('known-7', { visitorId: 'known-7', history: { g1: 'v2' }, lastUsedMs: 1 });
    const asked: Array<Promise<unknown>> = [];
    // Five waves of 50 requests, each in its own event-loop turn, while the reads started are held.
    for (let wave = 0; wave < 5; wave++) {
      for (let i = 0; i < 50; i++) asked.push(service.historyOf('env', [`known-${wave * 50 + i}`], 1));
      await new Promise((resolve) => setImmediate(resolve));
    }
    held.releaseReads();
    const histories = (await Promise.all(asked)) as Array<Record<string, string>>;
    assert.deepEqual({ ...histories[7] }, { g1: 'v2' });
    assert.equal(histories.filter((h) => Object.keys(h).length > 0).length, 1);
    assert.equal(held.reads.flat().length, 250, 'each id read once');
    // The first two waves each start a read; the last three gather while those run.
    assert.equal(held.reads.length, 3);
  });
});
