// The hub between the environment cache and the live-update streams (configuration/live-changes.ts), over a
// real EnvironmentCache and a store double whose loads can fail: a change reaches the listeners of its own
// environment with the new state, a failed load is retried until it succeeds (no later notification would
// bring that change back), and listeners are counted and removed exactly once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EnvironmentCache } from '../../../server/src/configuration/environment-cache.js';
import type { EnvironmentState } from '../../../server/src/configuration/environment-state.js';
import { LiveChanges } from '../../../server/src/configuration/live-changes.js';
import { createLogger } from '../../../server/src/logger.js';
import type {
  ConfigurationStore,
  EnvironmentConfiguration,
} from '../../../server/src/store/configuration-store.js';
import { until } from '../../support/until.js';

/** A configuration store in memory: `publish` changes an environment and notifies, `failing` makes loads throw. */
class StoreDouble implements ConfigurationStore {
  readonly revisions = new Map<string, number>([
    ['env-a', 100],
    ['env-b', 200],
  ]);
  failing = 0;
  #listener: ((envId: string) => void) | null = null;

  loadConfiguration(envId: string): Promise<EnvironmentConfiguration | null> {
    if (this.failing > 0) {
      this.failing--;
      return Promise.reject(new Error('the database is away'));
    }
    const configTime = this.revisions.get(envId);
    if (configTime === undefined) return Promise.resolve(null);
    return Promise.resolve({
      environment: {
        id: envId,
        accountId: 'account',
        name: envId,
        apiKeyDigest: new Uint8Array(32),
        panic: false,
        accountSettings: { enabledXPC: false, enabled1V1T: false },
        configTime,
      },
      campaigns: [],
      variations: [],
    });
  }

  onConfigurationChange(listener: (envId: string) => void): Promise<() => Promise<void>> {
    this.#listener = listener;
    return Promise.resolve(() => {
      this.#listener = null;
      return Promise.resolve();
    });
  }

  configurationStamps(): Promise<[]> {
    return Promise.resolve([]);
  }

  /** No environment is looked up by its API key here (OFREP's lookup). */
  environmentIdByKeyDigest(): Promise<null> {
    return Promise.resolve(null);
  }

  /** A change of `envId`: its revision rises and listeners hear of it. */
  publish(envId: string): void {
    this.revisions.set(envId, (this.revisions.get(envId) ?? 0) + 1);
    this.#listener?.(envId);
  }
}

const setUp = async (t: { after: (fn: () => Promise<void> | void) => void }) => {
  const store = new StoreDouble();
  const log = createLogger('silent');
  const cache = new EnvironmentCache(store, log, { checkIntervalMs: 3_600_000 });
  await cache.start();
  const changes = new LiveChanges(cache, log, { retryMs: 10 });
  changes.start();
  t.after(async () => {
    changes.stop();
    await cache.stop();
  });
  return { store, changes };
};

void describe('live changes hub', () => {
  void it("hands each change's new state to the listeners of its environment only", async (t) => {
    const { store, changes } = await setUp(t);
    const heardA: number[] = [];
    const heardB: number[] = [];
    changes.subscribe('env-a', (state: EnvironmentState) => heardA.push(state.environment.configTime));
    changes.subscribe('env-b', (state) => heardB.push(state.environment.configTime));
    store.publish('env-a');
    await until(() => heardA.includes(101), { what: 'env-a revision 101' });
    store.publish('env-b');
    await until(() => heardB.includes(201), { what: 'env-b revision 201' });
    assert.ok(
      heardA.every((revision) => revision === 101),
      `env-a heard only its own change: ${heardA.join(', ')}`,
    );
  });

  void it('retries a failed load of a listened-to environment until it succeeds', async (t) => {
    const { store, changes } = await setUp(t);
    const heard: number[] = [];
    changes.subscribe('env-a', (state) => heard.push(state.environment.configTime));
    store.failing = 3;
    store.publish('env-a');
    await until(() => heard.includes(101), { what: 'the change after three failed loads' });
    assert.equal(store.failing, 0);
  });

  void it('counts listeners, and removes each exactly once', async (t) => {
    const { store, changes } = await setUp(t);
    const heard: string[] = [];
    const stopFirst = changes.subscribe('env-a', () => heard.push('first'));
    const stopSecond = changes.subscribe('env-a', () => heard.push('second'));
    changes.subscribe('env-b', () => undefined);
    assert.deepEqual([changes.size, changes.listenersOf('env-a'), changes.listenersOf('env-b')], [3, 2, 1]);
    stopFirst();
    stopFirst();
    assert.deepEqual([changes.size, changes.listenersOf('env-a')], [2, 1]);
    store.publish('env-a');
    await until(() => heard.length > 0, { what: 'the remaining listener to hear the change' });
    assert.deepEqual(heard, ['second']);
    stopSecond();
    assert.deepEqual([changes.size, changes.listenersOf('env-a')], [1, 0]);
  });
});
