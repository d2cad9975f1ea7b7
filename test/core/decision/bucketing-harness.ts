// The bucketing source's unit-test harness: a protocol double serving PROTOCOL.md §15's file, fake timers for
// the polling and retry intervals (given to the source: node:test's mock.timers replaces the global
// setTimeout, which also stops the timers of Node's own fetch), and what the source told the instance.
import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import { MemoryBucketingFileCache } from '../../../src/core/decision/bucketing-file-cache.js';
import { createBucketingSource } from '../../../src/core/decision/bucketing.js';
import type { PollTimers } from '../../../src/core/decision/poller.js';
import type { DecisionInput, DecisionSource } from '../../../src/core/decision/source.js';
import { Level, Logger } from '../../../src/core/logger.js';
import type { CacheMode, FSSdkStatus } from '../../../src/core/status.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { recordingLogs } from '../support.js';
import { vectorFile } from './bucketing-files.js';

/** Timers that fire only when the test moves the clock. */
export class FakeTimers implements PollTimers {
  private now = 0;
  private readonly due = new Map<number, { at: number; run: () => void }>();
  private next = 0;
  setTimeout(run: () => void, ms: number): unknown {
    this.due.set(++this.next, { at: this.now + ms, run });
    return this.next;
  }
  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }
  /** The time left, in ms, before each armed timer falls due, soonest first. */
  pending(): number[] {
    return [...this.due.values()].map((t) => t.at - this.now).sort((a, b) => a - b);
  }
  /** Moves the clock by `ms`, running the timers that fall due, in order. */
  tick(ms: number): void {
    this.now += ms;
    for (const [id, t] of [...this.due].sort((a, b) => a[1].at - b[1].at))
      if (t.at <= this.now) {
        this.due.delete(id);
        t.run();
      }
  }
}

/** A started source and what it told the instance. */
export interface Harness {
  source: DecisionSource;
  statuses: FSSdkStatus[];
  changed: { count: number };
  logs: ReturnType<typeof recordingLogs>;
  cache: MemoryBucketingFileCache;
}

/** Options of {@link BucketingTestContext.start}. */
export interface StartOptions {
  cache?: MemoryBucketingFileCache;
  pollingIntervals?: number;
  /** The bucketing base URL; default the double's `/cdn`. */
  url?: string;
  fileTimeoutMs?: number;
  cacheMode?: CacheMode;
}

/** Per-test state: a fresh double and fresh timers before each test, everything closed after it. */
export interface BucketingTestContext {
  readonly double: ProtocolDouble;
  readonly timers: FakeTimers;
  /** Starts a source on the double (no jitter: `random` is 0.5, so the delays are exact). */
  start(options?: StartOptions): Promise<Harness>;
  /** The bucketing file's URL on the double (the file cache's key). */
  fileUrl(): string;
  /** The headers of every bucketing request the double received. */
  bucketingRequests(): Array<Record<string, string>>;
}

/** Registers the hooks of a test file and returns its {@link BucketingTestContext}. */
export const bucketingTestContext = (): BucketingTestContext => {
  let double: ProtocolDouble | undefined;
  let timers = new FakeTimers();
  const sources: DecisionSource[] = [];
  beforeEach(async () => {
    timers = new FakeTimers();
    double = await startProtocolDouble({ bucketing: vectorFile() });
  });
  afterEach(async () => {
    for (const s of sources.splice(0)) s.close();
    await double?.close();
  });
  const the = (): ProtocolDouble => {
    assert.ok(double, 'the double runs during a test');
    return double;
  };
  return {
    get double() {
      return the();
    },
    get timers() {
      return timers;
    },
    fileUrl: () => `${the().url}/cdn/env1/bucketing.json`,
    bucketingRequests: () =>
      the()
        .requestsTo('bucketing')
        .map((r) => r.headers),
    async start(options = {}) {
      const statuses: FSSdkStatus[] = [];
      const changed = { count: 0 };
      const logs = recordingLogs();
      const cache = options.cache ?? new MemoryBucketingFileCache();
      const source = await createBucketingSource({
        envId: 'env1',
        apiKey: 'key1',
        urls: { decisionApi: '', bucketing: options.url ?? `${the().url}/cdn`, events: '' },
        timeout: 2000,
        pollingIntervals: options.pollingIntervals ?? 60,
        logger: new Logger(Level.ALL, logs.manager),
        events: { status: (s) => statuses.push(s), changed: () => (changed.count += 1) },
        fileCache: cache,
        random: () => 0.5,
        timers,
        ...(options.fileTimeoutMs === undefined ? {} : { fileTimeoutMs: options.fileTimeoutMs }),
        ...(options.cacheMode === undefined ? {} : { cacheMode: options.cacheMode }),
      });
      sources.push(source);
      return { source, statuses, changed, logs, cache };
    },
  };
};

/** A visitor without context beyond `fs_users`, with an optional assignment history. */
export const input = (visitorId: string, assignments: Record<string, string> = {}): DecisionInput => ({
  visitorId,
  anonymousId: null,
  context: { fs_users: visitorId },
  hasConsented: true,
  assignments,
});

/** The variation ids a decision assigns, by variation group. */
export const assigned = async (
  source: DecisionSource,
  visitor: DecisionInput,
): Promise<Record<string, string>> => {
  const outcome = await source.decide(visitor);
  assert.ok(outcome.ok, 'the decision succeeds');
  return Object.fromEntries(outcome.decision.campaigns.map((c) => [c.variationGroupId, c.variation.id]));
};

/** The delays the poller scheduled, from its debug lines. */
export const scheduled = (h: Harness): number[] =>
  h.logs.lines.flatMap((l) => /next download in (\d+) ms/.exec(l.message)?.[1] ?? []).map(Number);

/** The warnings about failed downloads. */
export const faultLines = (h: Harness): string[] =>
  h.logs.lines
    .filter((l) => l.level === 'WARNING' && l.message.includes('bucketing file download'))
    .map((l) => l.message);
