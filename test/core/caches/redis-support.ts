// The local Redis of the Redis cache tests (127.0.0.1:6379, or REDIS_URL): a connected node-redis client, a
// random key prefix per test, and the deletion of that prefix's keys afterwards.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

/** Where the tests find Redis. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A connected client; its connection is closed by `close()`. */
export type TestRedis = Awaited<ReturnType<typeof connectRedis>>;

/** Connects a node-redis client, failing fast (no reconnection loop) when no Redis answers. */
export const connectRedis = async () =>
  createClient({ url: REDIS_URL, socket: { reconnectStrategy: false, connectTimeout: 5000 } }).connect();

/** A prefix no other test uses. */
export const randomPrefix = (): string => `feature-ts-test-${randomUUID().slice(0, 8)}`;

/** Deletes every key under `prefix` (KEYS is fine here: a test database, a handful of keys). */
export const deleteKeys = async (redis: TestRedis, prefix: string): Promise<number> => {
  const keys = await redis.keys(`${prefix}:*`);
  return keys.length > 0 ? redis.del(keys) : 0;
};

/** Redis's clock in epoch ms: the clock the hit cache's leases are measured on. */
export const redisNow = async (redis: TestRedis): Promise<number> => {
  const [seconds, micros] = await redis.sendCommand<[string, string]>(['TIME']);
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
};

/** Whether the lease of `token` in the owners hash `key` has ended on Redis's clock (or is gone). */
export const leaseEnded = async (redis: TestRedis, key: string, token: string): Promise<boolean> =>
  Number(await redis.hGet(key, token)) <= (await redisNow(redis));
