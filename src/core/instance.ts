import { atom, type ReadableAtom } from 'nanostores';
import { CONTEXT_LIMITS, type Decision } from '../protocol/index.js';
import type { FeatureConfig, SdkStatusChanged } from './config.js';
import { disabledVisitorCache } from './caches/disabled-visitor-cache.js';
import { loadDecisionSource } from './decision/load-source.js';
import { loadLiveUpdates } from './live/load-live-updates.js';
import { Level, Logger } from './logger.js';
import type { Platform } from './platform/platform.js';
import { atMost, type Runtime } from './visitor/runtime.js';
import { resolveStartOptions } from './start-options.js';
import { CacheMode, FSSdkStatus, Instance, Mode } from './status.js';
import { loadAfterRender } from './tracking/load-after-render.js';
import { PendingTracker } from './tracking/pending-tracker.js';
import { VisitorBuilder, type NewVisitorOptions } from './visitor/visitor-builder.js';
import { RepeatMemory } from './visitor/repeat-memory.js';
import { Visitor } from './visitor/visitor.js';

let defaultPlatform: Platform | undefined;

/**
 * Sets the platform instances use when none is given. Each entry (`index.ts` for browsers, `node.ts` for Node)
 * calls it once, which is how one `FeatureInstance` class runs on both without either importing the other's
 * platform code.
 */
export const useDefaultPlatform = (platform: Platform): void => {
  defaultPlatform = platform;
};

/** A started SDK: the runtime plus what only the instance may do with it. */
interface Run extends Runtime {
  shutdown(): Promise<void>;
}

/**
 * One isolated SDK (DESIGN.md): its own status, configuration, tracker, caches, logger and current visitor.
 * `Feature` is a facade over a default instance; the web components create their own, so several run side by
 * side on one page or in one process.
 */
export class FeatureInstance {
  readonly #statusAtom = atom<FSSdkStatus>(FSSdkStatus.SDK_NOT_INITIALIZED);
  readonly #platform: Platform;
  #logger = new Logger();
  #listeners: SdkStatusChanged[] = [];
  #run: Run | null = null;
  #current: Visitor | null = null;

  /** The SDK status, as a nanostores atom. */
  readonly $status: ReadableAtom<FSSdkStatus> = this.#statusAtom;

  /** An instance on `platform` (default: the platform of the entry that was imported). */
  constructor(platform?: Platform) {
    const p = platform ?? defaultPlatform;
    if (p === undefined) throw new Error('FeatureInstance: import it from feature-ts.');
    this.#platform = p;
  }

  /**
   * Starts the SDK; must be awaited. Throws, staying SDK_NOT_INITIALIZED, when the env id, API key or config is
   * wrong, with a message that says what to change. A running SDK is closed first.
   */
  async start(envId: string, apiKey: string, config?: FeatureConfig): Promise<void> {
    const platform = this.#platform;
    const options = resolveStartOptions(
      envId,
      apiKey,
      config,
      platform.defaultServerUrl(),
      platform.defaultBatchStrategy,
    );
    // The after-first-render chunk (tracking manager, usage statistics) starts loading now and is not awaited:
    // hits and activations queue until it is in.
    const afterRender = loadAfterRender();
    const createSource = await loadDecisionSource(options.mode);
    if (this.#run !== null) await this.close();
    const c = options.config;
    const logger = new Logger(options.logLevel, c.logManager);
    this.#logger = logger;
    this.#listeners = [c.statusListener, c.onSdkStatusChanged].filter((l) => l !== undefined);
    this.#setStatus(FSSdkStatus.SDK_INITIALIZING);
    logger.info(`the SDK uses the server at ${options.serverUrl}.`);

    const hitCache = c.hitCache ?? platform.createHitCache(logger, options.envId);
    // Only a server URL the SDK chose by default gets a hint: one set in the config is the application's.
    const serverHint = c.serverUrl === undefined ? (platform.serverHint?.(options.serverUrl) ?? null) : null;
    const tracker = new PendingTracker(
      afterRender.then((m) =>
        m.createTracker({
          envId: options.envId,
          apiKey: options.apiKey,
          decisionApiUrl: options.urls.decisionApi,
          eventsUrl: options.urls.events,
          config: options.tracking,
          hitCache,
          reportUndelivered:
            platform.reportUndelivered &&
            ((left) => platform.reportUndelivered?.(left, logger, c.hitCache === undefined)),
          serverHint,
          logger,
          onVisitorExposed: c.onVisitorExposed,
          onPageHide: platform.onPageHide,
        }),
      ),
    );
    const configured = c.visitorCache ?? platform.createVisitorCache(logger, options.envId);
    const visitorCache =
      options.cacheMode === CacheMode.DISABLED ? disabledVisitorCache(configured) : configured;
    const device = await platform.deviceContext();
    let closed = false;
    let xpc = false;
    const isCurrent = (): boolean => this.#run === run;
    const source = await createSource({
      envId: options.envId,
      apiKey: options.apiKey,
      urls: options.urls,
      timeout: options.timeout,
      pollingIntervals: options.bucketingPollingIntervals,
      liveUpdates: options.liveUpdates,
      cacheMode: options.cacheMode,
      serverHint,
      logger,
      events: {
        status: (status) => {
          if (!closed) this.#setStatus(status);
        },
      },
    });
    // Usage statistics (PROTOCOL.md §12), unless disabled, ride in the after-first-render chunk; visitors made
    // before it is in are sampled once it is, with the time they were made.
    const usage =
      c.disableDeveloperUsageTracking === true
        ? null
        : afterRender.then((m) => m.usageTracker(options, this, logger));
    // Work a visitor started that must reach the tracker before it closes (Runtime.hold).
    const held = new Set<Promise<void>>();
    const run: Run = {
      options: options,
      logger: logger,
      tracker: tracker,
      source: source,
      visitorCache: visitorCache,
      device: Object.freeze(device),
      flagsOf: platform.campaignFlags,
      status: () => (isCurrent() ? this.#statusAtom.value : FSSdkStatus.SDK_NOT_INITIALIZED),
      closed: () => closed,
      xpcEnabled: () => xpc,
      learn: (decision: Decision) => {
        if (closed) return;
        const settings = decision.extras?.accountSettings;
        if (settings !== undefined) xpc = settings.enabledXPC;
        this.#setStatus(decision.panic === true ? FSSdkStatus.SDK_PANIC : FSSdkStatus.SDK_INITIALIZED);
      },
      repeats: new RepeatMemory(c.clock ?? Date.now),
      hold: (work) => {
        const done: Promise<void> = work.catch(() => undefined).finally(() => held.delete(done));
        held.add(done);
      },
      usage: (visitorId) => {
        // Nothing, not even the clock, when usage tracking is off: a server calls this once per visitor.
        if (usage === null) return;
        const at = Date.now();
        void usage.then(
          (track) => track(visitorId, at),
          () => undefined,
        );
      },
      shutdown: async () => {
        closed = true;
        forgetExit?.();
        void live?.then((stream) => stream?.close());
        source.close();
        // A visitor cache lookup that never answers must not hold the close forever: at most the timeout.
        await atMost(
          (async () => {
            while (held.size > 0) await Promise.all(held);
          })(),
          options.timeout,
        );
        await tracker.close().catch((error: unknown) => logger.error(`close: ${String(error)}`));
      },
    };
    // Live updates (PROTOCOL.md §17): their chunk loads now and nothing waits for it; the stream opens unless
    // the SDK closed meanwhile.
    const live =
      options.liveUpdates && source.refresh !== undefined
        ? loadLiveUpdates()
            .then(
              (code) =>
                closed
                  ? null
                  : code.startLiveUpdates({
                      options,
                      logger,
                      refresh: () => source.refresh?.() ?? Promise.resolve(),
                      visibility: platform.visibility,
                    }),
              (error: unknown) => logger.error(`live updates: their code did not load: ${String(error)}`),
            )
            // Starting them threw (a platform adapter, say): logged, never an unhandled rejection in the app.
            .catch((error: unknown) => {
              logger.error(`live updates: they could not start: ${String(error)}`);
              return null;
            })
        : null;
    this.#run = run;
    // An application that ends without close(): the last attempt and the lost-hits report run at exit anyway.
    const forgetExit = platform.onProcessExit?.(() => {
      if (this.#run === run) void this.close();
    });
    // Decision-API mode is ready once device information is gathered; the bucketing source reports its own
    // status through `events.status` (PROTOCOL.md §16.1).
    if (options.mode === Mode.DECISION_API) this.#setStatus(FSSdkStatus.SDK_INITIALIZED);
  }

  /** The SDK status. */
  getStatus(): FSSdkStatus {
    return this.#statusAtom.value;
  }

  /**
   * A visitor builder. SINGLE_INSTANCE (default) saves the built visitor as the current one. Throws when the
   * SDK is not started or the id or consent is missing.
   */
  newVisitor(options: NewVisitorOptions): VisitorBuilder {
    const run = this.#run;
    const { visitorId, hasConsented, instanceType } = options;
    const problem =
      run === null
        ? 'await Feature.start(envId, apiKey) first'
        : typeof visitorId !== 'string' ||
            visitorId === '' ||
            visitorId.length > CONTEXT_LIMITS.maxVisitorIdLength
          ? `visitorId must be a string of 1 to ${CONTEXT_LIMITS.maxVisitorIdLength} characters`
          : typeof hasConsented !== 'boolean'
            ? 'hasConsented must be true or false'
            : instanceType !== undefined && !Object.values<string>(Instance).includes(instanceType)
              ? 'instanceType must be Instance.SINGLE_INSTANCE or Instance.NEW_INSTANCE'
              : null;
    if (problem !== null || run === null) throw new Error(`Feature.newVisitor: ${problem}.`);
    return new VisitorBuilder(options, (init, type) => {
      const visitor = new Visitor(run, init);
      if (type === Instance.SINGLE_INSTANCE && this.#run === run) this.#current = visitor;
      return visitor;
    });
  }

  /** Saves `visitor` as the current visitor. */
  setCurrentVisitor(visitor: Visitor): void {
    this.#current = visitor;
  }

  /** The current visitor, or null when none is set. */
  getCurrentVisitor(): Visitor | null {
    return this.#current;
  }

  /** Changes the log level at run time. */
  setLoggerLevel(level: Level): void {
    if (Object.values<number>(Level).includes(level)) this.#logger.setLevel(level);
    else this.#logger.error(`setLoggerLevel: ${String(level)} is not a Level.`);
  }

  /** Sends what is pooled, stops timers and returns to SDK_NOT_INITIALIZED. */
  async close(): Promise<void> {
    const run = this.#run;
    this.#run = null;
    this.#current = null;
    if (run !== null) await run.shutdown();
    this.#setStatus(FSSdkStatus.SDK_NOT_INITIALIZED);
  }

  #setStatus(status: FSSdkStatus): void {
    if (this.#statusAtom.value === status) return;
    this.#statusAtom.set(status);
    for (const listener of this.#listeners) {
      try {
        listener(status);
      } catch (error) {
        this.#logger.error(`a status callback threw: ${String(error)}`);
      }
    }
  }
}
