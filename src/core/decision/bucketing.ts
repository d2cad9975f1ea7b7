// Bucketing mode's decision source (PROTOCOL.md §6, §8, §16.1): the bucketing file, downloaded and polled
// with conditional requests, cached between starts, compiled once per new file and evaluated locally by the
// engine. This module and the engine are loaded with `import()` only in bucketing mode (load-source.ts).
import { FlagSlots } from '../../engine/flag-slots.js';
import { CompiledFile, compileFile, evaluate } from '../../engine/index.js';
import { bucketingRoute, isJsonObject } from '../../protocol/index.js';
import { shownUrl } from '../net/request-failure.js';
import { segmentHit } from '../tracking/segment-hit.js';
import { CacheMode, FSSdkStatus } from '../status.js';
import { sentContext } from './context-digest.js';
import {
  defaultBucketingFileCache,
  type BucketingFileCache,
  type CachedBucketingFile,
} from './bucketing-file-cache.js';
import { FilePoller, realPollTimers, type FileAnswer, type FileFault } from './poller.js';
import { WatchedVisitors } from './watched-visitors.js';
import type { DecisionCampaign } from '../../protocol/index.js';
import type { FlagsSnapshot } from '../flags/flag-entry.js';
import type { DecisionOutcome, DecisionSource, DecisionSourceDeps } from './source.js';

/** The file in use: compiled once, with the validators that make the next poll conditional. */
interface CurrentFile {
  readonly compiled: CompiledFile;
  /** Its flag keys' slots, which every visitor's flags decided on it share. */
  readonly slots: FlagSlots;
  readonly etag: string | null;
  readonly lastModified: string | null;
  /**
   * The flags built for decisions given again (`previous`), by their campaigns array: a returning visitor's
   * record keeps the same array from visit to visit, so its flags are built once, at its first return.
   */
  readonly kept: WeakMap<readonly DecisionCampaign[], FlagsSnapshot>;
  /**
   * What decisions made on this file name as their basis (`DecisionOutcome.basis`): a token, not the file, so
   * the visitor records that keep it (10 000 in Node's default cache) do not keep old compiled files alive.
   */
  readonly basis: object;
}

/** CacheMode.DISABLED's file cache: nothing read, nothing kept. */
const NO_FILE_CACHE: BucketingFileCache = {
  load: () => Promise.resolve(null),
  save: () => Promise.resolve(),
};

/** How long one download may take: 10 s, or the polling interval when that is shorter. */
const DEFAULT_FILE_TIMEOUT_MS = 10_000;

const FAULT_NAMES: Record<FileFault, string> = {
  timeout: 'timed out',
  network: 'failed on the network',
  http: 'was refused',
  malformed: 'is not a bucketing file',
};

/** The flags of `campaigns` on `file`, built once per campaigns array given again. */
const keptFlags = (file: CurrentFile, campaigns: readonly DecisionCampaign[]): FlagsSnapshot => {
  let flags = file.kept.get(campaigns);
  if (flags === undefined) file.kept.set(campaigns, (flags = file.slots.build(campaigns)));
  return flags;
};

/** The parsed body when it is a bucketing file at all (an object with campaigns, or in panic), else null. */
const parseFile = (body: string): Record<string, unknown> | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null; // malformed or truncated
  }
  return isJsonObject(parsed) && (parsed.panic === true || Array.isArray(parsed.campaigns)) ? parsed : null;
};

/**
 * Creates the bucketing source. With a cached file it is usable at once (SDK_INITIALIZED, or SDK_PANIC per
 * the file) and refreshes in the background; without one it resolves once the first download has settled:
 * on failure the status stays SDK_INITIALIZING, every decision fails (so every flag is its default, §9.4)
 * and polling retries with backoff until a file arrives (§16.1).
 */
export const createBucketingSource = async (deps: DecisionSourceDeps): Promise<DecisionSource> => {
  const { logger, events } = deps;
  const url = bucketingRoute(deps.urls.bucketing, deps.envId);
  const request = `GET ${shownUrl(url)}`;
  // CacheMode.DISABLED: nothing an earlier visit kept decides what a visitor sees, the file included.
  const cache =
    deps.cacheMode === CacheMode.DISABLED
      ? NO_FILE_CACHE
      : (deps.fileCache ?? defaultBucketingFileCache(logger));
  // CacheMode.NETWORK_FIRST: the cached file, held back until a download confirms it (304) or fails.
  let heldBack: CachedBucketingFile | null = null;
  const intervalMs = deps.pollingIntervals * 1000;
  let current: CurrentFile | null = null;
  let closed = false;
  const watched = new WatchedVisitors();

  /** Makes `body` the file in use; false (previous file kept) when it is not a bucketing file. */
  const install = (body: string, etag: string | null, lastModified: string | null): boolean => {
    const parsed = parseFile(body);
    if (parsed === null) return false;
    const compiled = compileFile(parsed);
    for (const reason of compiled.reasons)
      logger.warning(`bucketing file: ${reason}`, `bucketing-reason:${reason}`);
    const panicBefore = current?.compiled.panic;
    current = {
      compiled,
      slots: new FlagSlots(),
      etag,
      lastModified,
      kept: new WeakMap(),
      basis: Object.freeze({}),
    };
    // Only a change is reported (§16.1): a new file with the same panic state leaves the status alone.
    if (panicBefore !== compiled.panic)
      events.status(compiled.panic ? FSSdkStatus.SDK_PANIC : FSSdkStatus.SDK_INITIALIZED);
    return true;
  };

  const fail = (fault: FileFault, message: string): false => {
    // Once per kind and SDK instance: a server down for an hour is one line per kind, not one per retry.
    logger.warning(
      `the bucketing file download ${FAULT_NAMES[fault]} (${message}) at ${request}; ${current !== null ? 'the previous file stays in use' : heldBack !== null ? 'the cached file is used meanwhile' : 'no file yet: every flag is its default'}, retrying with backoff.`,
      `bucketing-fault:${fault}`,
    );
    return false;
  };

  const apply = (answer: FileAnswer): boolean => {
    if (closed) return true;
    if (answer.kind === 'failure') return fail(answer.fault, answer.message);
    if (answer.kind === 'not-modified') {
      if (current === null && heldBack !== null) install(heldBack.body, heldBack.etag, heldBack.lastModified);
      return current !== null || fail('malformed', 'a 304 answered a request that named no file');
    }
    if (!install(answer.body, answer.etag, answer.lastModified))
      return fail('malformed', 'the body is not a bucketing file, or is truncated');
    const saved: CachedBucketingFile = {
      body: answer.body,
      etag: answer.etag,
      lastModified: answer.lastModified,
      savedAt: Date.now(),
    };
    cache.save(url, saved).catch((error: unknown) => {
      logger.warning(`the bucketing file could not be cached: ${String(error)}`, 'bucketing-cache:save');
    });
    // Visitors who fetched before are re-evaluated against the new file (§16.2).
    events.changed?.();
    void watched.refetch();
    return true;
  };

  const poller = new FilePoller({
    url,
    intervalMs,
    timeoutMs: deps.fileTimeoutMs ?? Math.min(DEFAULT_FILE_TIMEOUT_MS, intervalMs),
    random: deps.random ?? Math.random,
    logger,
    timers: deps.timers ?? realPollTimers,
    serverHint: deps.serverHint ?? null,
    validators: () => current ?? heldBack,
    apply,
  });

  const cached = await cache.load(url).catch((error: unknown) => {
    logger.warning(`the cached bucketing file could not be read: ${String(error)}`, 'bucketing-cache:load');
    return null;
  });
  if (deps.cacheMode === CacheMode.NETWORK_FIRST && cached !== null) {
    // The download decides; the cached copy is used only when it fails (a 304 installs it in `apply`).
    heldBack = cached;
    await poller.pollNow();
    // Read again: TypeScript keeps `current` as it was before the await, when the download may have set it.
    if ((current as CurrentFile | null) === null && install(cached.body, cached.etag, cached.lastModified))
      logger.info('the bucketing file download failed: the cached file is in use until it succeeds.');
    heldBack = null;
  } else {
    const usable = cached !== null && install(cached.body, cached.etag, cached.lastModified);
    if (cached !== null && !usable)
      logger.warning('the cached bucketing file is not a bucketing file: ignored.', 'bucketing-cache:bad');
    // With a file in use the download refreshes it in the background; without one `start` waits for it.
    if (usable) void poller.pollNow();
    else await poller.pollNow();
  }

  return {
    watch: (visitor) => watched.add(visitor),
    // A live-update change (PROTOCOL.md §17): the conditional download now; a new file re-evaluates the
    // watched visitors (`apply`), a 304 leaves them be. Polling goes on at its interval from there.
    refresh: () => poller.pollNow(),
    decide(input): Promise<DecisionOutcome> {
      const file: CurrentFile | null = current;
      if (file === null)
        return Promise.resolve({
          ok: false,
          reason: `no bucketing file yet (the download of ${request} failed and none is cached); retrying with backoff`,
        });
      // The engine is deterministic over the file, the ids, the context and the history: a decision made on this
      // file for the same of each (a returning visitor, issue 33) is what evaluating again would give.
      const previous = input.previous;
      if (previous?.basis === file.basis && !file.compiled.panic) {
        const { enabledXPC, enabled1V1T } = file.compiled.accountSettings;
        return Promise.resolve({
          ok: true,
          decision: {
            visitorId: input.visitorId,
            // Read-only past the source, as every decision's campaigns are: the cast only restores the type.
            campaigns: previous.campaigns as DecisionCampaign[],
            extras: { accountSettings: { enabledXPC, enabled1V1T } },
          },
          newAssignments: {},
          flags: keptFlags(file, previous.campaigns),
          basis: file.basis,
        });
      }
      const result = evaluate(
        file.compiled,
        {
          id: input.visitorId,
          anonymousId: input.anonymousId,
          context: input.context,
          assignments: input.assignments,
        },
        { exposeAllKeys: true, extras: true },
      );
      // The file's own reasons were logged when it was installed; these are the visitor's.
      for (let i = file.compiled.reasons.length; i < result.reasons.length; i++)
        logger.warning(`bucketing decision: ${result.reasons[i]}`, `bucketing-visitor:${result.reasons[i]}`);
      return Promise.resolve({
        ok: true,
        decision: result.decision,
        newAssignments: result.newAssignments,
        flags: file.slots.build(result.decision.campaigns),
        basis: file.basis,
      });
    },
    contextHit: segmentHit,
    sentContext,
    flagsOf: (campaigns) => (current === null ? undefined : keptFlags(current, campaigns)),
    close() {
      closed = true;
      watched.clear();
      poller.stop();
    },
  };
};
