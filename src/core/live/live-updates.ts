// Live updates (PROTOCOL.md §17), with `ConfigBuilder.withLiveUpdates(true)`: the stream's `change` events,
// and every reconnect, ask the decision source to refresh: bucketing mode downloads the file at once (polling
// goes on as the fallback), the decision API re-fetches every live visitor who fetched before. Loaded through
// `load-live-updates.ts` after `start`, only when live updates are on.
import { openStream } from '#stream-transport';
import { streamRoute } from '../../protocol/index.js';
import type { PollTimers } from '../decision/poller.js';
import type { Logger } from '../logger.js';
import type { OpenStream } from '../net/transport.js';
import type { Visibility } from '../platform/platform.js';
import type { StartOptions } from '../start-options.js';
import { Mode } from '../status.js';
import { LiveStream } from './live-stream.js';

/** What {@link startLiveUpdates} needs. */
export interface LiveUpdatesDeps {
  /** The started configuration: server URL (`{serverUrl}/v1/{envId}/stream`), env id, mode, polling interval. */
  readonly options: Pick<StartOptions, 'serverUrl' | 'envId' | 'mode' | 'bucketingPollingIntervals'>;
  readonly logger: Logger;
  /** The source's refresh (`DecisionSource.refresh`). */
  refresh(): Promise<void>;
  /** The page's visibility (browsers). */
  readonly visibility?: Visibility | undefined;
  /** Tests: timers, random numbers and the transport; default the real ones and `#stream-transport`'s. */
  readonly timers?: PollTimers;
  readonly random?: () => number;
  readonly openStream?: OpenStream;
}

/** A running live-update stream. */
export interface LiveUpdates {
  /** Ends the stream; nothing reopens it. */
  close(): void;
}

/**
 * The real timers, unref'd in Node: an open stream's reconnect never keeps a process alive (poller.ts has the
 * same; not imported from there, which would move the poller out of bucketing mode's chunk into a shared one).
 */
const realTimers: PollTimers = {
  setTimeout(run, ms) {
    const handle = setTimeout(run, ms);
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Opens the live-update stream and keeps it open until `close`. */
export const startLiveUpdates = (deps: LiveUpdatesDeps): LiveUpdates => {
  const { logger, options } = deps;
  const refresh = (why: string): void => {
    deps.refresh().catch((error: unknown) => {
      logger.error(`live updates: the refresh after ${why} failed: ${String(error)}`, 'live:refresh');
    });
  };
  const stream = new LiveStream({
    url: streamRoute(options.serverUrl, options.envId),
    openStream: deps.openStream ?? openStream,
    logger,
    timers: deps.timers ?? realTimers,
    random: deps.random ?? Math.random,
    visibility: deps.visibility,
    fallback:
      options.mode === Mode.BUCKETING
        ? `fell back to polling the bucketing file every ${options.bucketingPollingIntervals} s`
        : 'flags change only when fetchFlags is called',
    onChange: (revision) => refresh(`change ${revision}`),
    onReconnect: () => refresh('a reconnect'),
    // Bucketing mode's refresh is a conditional download (a 304 when nothing changed): cheap enough to close
    // the gap between the first download and the stream's opening. The decision API's would re-fetch every
    // visitor of every page view; a change in that gap shows at the next fetch or change instead.
    refreshOnFirstOpen: options.mode === Mode.BUCKETING,
  });
  stream.start();
  return { close: () => stream.close() };
};
