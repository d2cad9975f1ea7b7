// The SDK's public API, shared by both entries (index.ts for browsers, node.ts for Node).
export { Feature } from './feature.js';
export { FeatureInstance } from './instance.js';
export { ConfigBuilder, type FeatureConfig, type OnVisitorExposed, type SdkStatusChanged } from './config.js';
export {
  BatchCachingStrategy,
  CacheMode,
  EventCategory,
  FetchFlagsRequiredStatusReason,
  FlagStatus,
  FSSdkStatus,
  Instance,
  Mode,
} from './status.js';
export { Level, type LevelName, type LogManager } from './logger.js';
export { Visitor, type VisitorFlagState } from './visitor/visitor.js';
export { VisitorBuilder, type NewVisitorOptions } from './visitor/visitor-builder.js';
export { Flag, type FlagValueOptions } from './flags/flag.js';
export { FlagCollection } from './flags/flag-collection.js';
export type { FlagEntry, FlagsSnapshot } from './flags/flag-entry.js';
export { flagsOfDecision } from './flags/decision-flags.js';
export { ExposedFlag, VisitorExposed } from './flags/exposure.js';
export {
  FeatureContext,
  type ContextKeyType,
  type FeatureContextKey,
  type FeatureContextValue,
} from './visitor/context-keys.js';
export {
  Event,
  HitProtocol,
  Item,
  Page,
  Screen,
  Transaction,
  type EventParams,
  type HitCommonParams,
  type ItemParams,
  type PageParams,
  type ScreenParams,
  type TransactionParams,
} from './tracking/hits.js';
export type { TrackingManagerConfig } from './tracking/tracker.js';
export { MemoryHitCache, MemoryVisitorCache } from './caches/memory.js';
export type {
  ContextValue,
  Decision,
  DecisionCampaign,
  FlagMetadata,
  HitCacheRecord,
  IHitCacheImplementation,
  IVisitorCacheImplementation,
  JsonValue,
  VisitorCacheRecord,
  VisitorContext,
} from '../protocol/index.js';
