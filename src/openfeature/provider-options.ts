import type { FeatureInstance } from 'feature-ts';

/** What both providers are given. */
export interface FeatureProviderOptions {
  /**
   * The SDK the provider reads through: an instance the application started (`Feature.instance()` for the
   * default one, after `await Feature.start(envId, apiKey, config)`). The application keeps it: its mode
   * (decision API or bucketing), configuration and `close()` stay the application's, and the provider shares
   * its tracker, caches and logger with the rest of the application.
   */
  instance: FeatureInstance;
  /** Whether the visitors the provider creates consented to tracking (hits and exposures). */
  hasConsented: boolean;
}
