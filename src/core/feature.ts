import type { FeatureConfig } from './config.js';
import { FeatureInstance } from './instance.js';
import type { Level } from './logger.js';
import type { FSSdkStatus } from './status.js';
import type { NewVisitorOptions, VisitorBuilder } from './visitor/visitor-builder.js';
import type { Visitor } from './visitor/visitor.js';

let instance: FeatureInstance | undefined;

/** The default instance, made on first use; one per page or process, as SPEC.md's static API implies. */
const sdk = (): FeatureInstance => (instance ??= new FeatureInstance());

/**
 * The SDK's static API (SPEC.md "Static operations on the Feature class"): a facade over one default
 * `FeatureInstance`. Code that needs several isolated SDKs (the web components) creates `FeatureInstance`s.
 */
export class Feature {
  /**
   * Starts the SDK; must be awaited (device information is gathered here). Without `config` the SDK runs in
   * `Mode.DECISION_API` with SPEC.md's defaults. Throws with what to change when an argument is wrong; a
   * running SDK is closed first.
   */
  static start(envId: string, apiKey: string, config?: FeatureConfig): Promise<void> {
    return sdk().start(envId, apiKey, config);
  }

  /** The SDK status. */
  static getStatus(): FSSdkStatus {
    return sdk().getStatus();
  }

  /** The default instance, e.g. to watch `Feature.instance().$status`. */
  static instance(): FeatureInstance {
    return sdk();
  }

  /** A visitor builder: `Feature.newVisitor({ visitorId, hasConsented }).withContext({…}).build()`. */
  static newVisitor(options: NewVisitorOptions): VisitorBuilder {
    return sdk().newVisitor(options);
  }

  /** Saves `visitor` as the current visitor. */
  static setCurrentVisitor(visitor: Visitor): void {
    sdk().setCurrentVisitor(visitor);
  }

  /** The current visitor, or null when none is set. */
  static getCurrentVisitor(): Visitor | null {
    return sdk().getCurrentVisitor();
  }

  /** Changes the log level at run time. */
  static setLoggerLevel(level: Level): void {
    sdk().setLoggerLevel(level);
  }

  /** Sends what is pooled, stops timers and returns to SDK_NOT_INITIALIZED. */
  static close(): Promise<void> {
    return sdk().close();
  }
}
