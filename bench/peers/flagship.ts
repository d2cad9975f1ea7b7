// The platform's own JS SDK (@flagship.io/js-sdk 5.2.0) as a bench peer, in its edge mode: the bucketing
// file is given at start (`initialBucketing`) and every decision is made in-process, like ours in bucketing
// mode. Edge mode, not BUCKETING: BUCKETING polls the CDN from `start` on; edge mode never fetches the file
// and never starts the batching loop, so with usage tracking off nothing is sent (no-network.ts checks it).
import { DecisionMode, Flagship, LogLevel, type BucketingDTO, type Visitor } from '@flagship.io/js-sdk';
import type { BucketingFile } from '../../src/protocol/index.js';
import { visitors } from './fixture.js';
import type { PeerSdk, PeerVisitor } from './peer.js';

/** The name the bench prints. */
export const FLAGSHIP_PEER = 'platform JS SDK 5.2.0 (edge)';

/**
 * Our file in the platform's type (PROTOCOL.md §6 says the formats are compatible). Its type has no
 * `bucketRanges`, and its engine reads none: a campaign's traffic range is not applied (see fixture.ts).
 */
export const toPlatformBucketing = (file: BucketingFile): BucketingDTO =>
  JSON.parse(JSON.stringify(file)) as BucketingDTO;

/**
 * The hits edge mode leaves in memory: a consent event per visitor and a segment hit per fetch (the context
 * has more than 3 keys). They are sent only by `Flagship.close()`, which in 5.2.0 reaches no instance (it
 * reads a static `_instance` that `getInstance()` never sets), so a long run would grow the pool without end.
 * The adapter empties it every `POOL_LIMIT` hits, as a batch send would, so the figures do not include an
 * ever larger heap. Reaches into the SDK's internals; checked at start so a new version fails loudly.
 */
interface PlatformInternals {
  configManager?: { trackingManager?: { _hitsPoolQueue?: Map<string, unknown> } };
}
const POOL_LIMIT = 10_000;

const hitsPool = (): Map<string, unknown> => {
  const instance = (globalThis as { __flagship_instance__?: PlatformInternals }).__flagship_instance__;
  const pool = instance?.configManager?.trackingManager?._hitsPoolQueue;
  if (!(pool instanceof Map))
    throw new Error(`${FLAGSHIP_PEER}: its hit pool was not found (internals changed?)`);
  return pool;
};

/** The SDK is a process-wide singleton: a second start replaces the first one's file and pool. */
let current: symbol | undefined;

/**
 * Starts the platform SDK on `file` in edge mode, with logs, usage tracking and caches off. Only one such
 * peer can run at a time (the SDK is a singleton); the previous one's calls then throw.
 */
export const startFlagshipPeer = async (file: BucketingFile): Promise<PeerSdk> => {
  const me = Symbol(FLAGSHIP_PEER);
  current = me;
  const people = visitors();
  await Flagship.start('bench-env', 'bench-api-key', {
    decisionMode: DecisionMode.BUCKETING_EDGE,
    initialBucketing: toPlatformBucketing(file),
    fetchNow: false,
    logLevel: LogLevel.NONE,
    disableDeveloperUsageTracking: true,
    // No visitor or hit cache implementation in Node anyway; say so rather than rely on the default.
    disableCache: true,
    // No `trackingManagerConfig`: edge mode starts no batching loop and skips the pool-size send, so it
    // would change nothing.
  });
  const pool = hitsPool();
  const live = (): void => {
    if (current !== me) throw new Error(`${FLAGSHIP_PEER}: another platform peer was started since`);
  };
  const fetched = async (i: number): Promise<Visitor> => {
    live();
    const v = people[i % people.length];
    if (v === undefined) throw new Error(`no visitor ${i}`);
    // `hasConsented: true` as our bench's visitors.
    const visitor = Flagship.newVisitor({ visitorId: v.id, context: v.context, hasConsented: true });
    await visitor.fetchFlags();
    if (pool.size >= POOL_LIMIT) pool.clear();
    return visitor;
  };
  return {
    name: FLAGSHIP_PEER,
    assign: async (i) => {
      await fetched(i);
    },
    readyVisitor: async (i): Promise<PeerVisitor> => {
      const visitor = await fetched(i);
      // A key the visitor does not have costs ~100× one it has: 5.2.0 builds a troubleshooting hit for it
      // (even with troubleshooting off), whose constructor calls `Intl.DateTimeFormat()`.
      return { read: (key, defaultValue) => visitor.getFlag(key).getValue(defaultValue, false) };
    },
    close: () => {
      pool.clear();
      if (current === me) current = undefined;
      // Not `Flagship.close()`: it would send the pool (if it reached the instance) and there is nothing to stop.
      return Promise.resolve();
    },
  };
};
