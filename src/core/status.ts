/** Decision modes (SPEC.md `Mode`). The default, when no config is given, is `DECISION_API`. */
export const Mode = {
  /** Assignment and targeting happen on the server: one request per `fetchFlags`. */
  DECISION_API: 'DECISION_API',
  /** Assignment is computed locally from one cached bucketing file, refreshed by polling. */
  BUCKETING: 'BUCKETING',
} as const;
/** A decision mode. */
export type Mode = (typeof Mode)[keyof typeof Mode];

/**
 * What a returning visitor's kept flags are used for (PROTOCOL.md §17, OFREP ADR-0009's names). The default,
 * when no config is given, is `LOCAL_CACHE_FIRST`.
 */
export const CacheMode = {
  /** The kept flags render at once; a change made since shows after one round trip. */
  LOCAL_CACHE_FIRST: 'local-cache-first',
  /** The kept flags are used only when the network fails or times out: no stale variation, one round trip first. */
  NETWORK_FIRST: 'network-first',
  /** No kept flags are read or written. */
  DISABLED: 'disabled',
} as const;
/** A cache mode. */
export type CacheMode = (typeof CacheMode)[keyof typeof CacheMode];

/** SDK status (SPEC.md `FSSdkStatus`); transitions in PROTOCOL.md §16.1. */
export const FSSdkStatus = {
  SDK_NOT_INITIALIZED: 'SDK_NOT_INITIALIZED',
  SDK_INITIALIZING: 'SDK_INITIALIZING',
  SDK_INITIALIZED: 'SDK_INITIALIZED',
  SDK_PANIC: 'SDK_PANIC',
} as const;
/** An SDK status. */
export type FSSdkStatus = (typeof FSSdkStatus)[keyof typeof FSSdkStatus];

/** A visitor's flag status (SPEC.md "Visitor flagStatus"); transitions in PROTOCOL.md §16.2. */
export const FlagStatus = {
  FETCHED: 'FETCHED',
  FETCHING: 'FETCHING',
  FETCH_REQUIRED: 'FETCH_REQUIRED',
  NOT_FOUND: 'NOT_FOUND',
  PANIC: 'PANIC',
} as const;
/** A flag status. `FETCHING` is a visitor status only; `NOT_FOUND` a flag status only. */
export type FlagStatus = (typeof FlagStatus)[keyof typeof FlagStatus];

/** Why flags must be fetched (SPEC.md `FetchFlagsRequiredStatusReason`). */
export const FetchFlagsRequiredStatusReason = {
  FLAGS_NEVER_FETCHED: 'FLAGS_NEVER_FETCHED',
  VISITOR_CONTEXT_UPDATED: 'VISITOR_CONTEXT_UPDATED',
  VISITOR_AUTHENTICATED: 'VISITOR_AUTHENTICATED',
  VISITOR_UNAUTHENTICATED: 'VISITOR_UNAUTHENTICATED',
  FLAGS_FETCHING_ERROR: 'FLAGS_FETCHING_ERROR',
  FLAGS_FETCHED_FROM_CACHE: 'FLAGS_FETCHED_FROM_CACHE',
  NONE: 'NONE',
} as const;
/** A fetch reason. */
export type FetchFlagsRequiredStatusReason =
  (typeof FetchFlagsRequiredStatusReason)[keyof typeof FetchFlagsRequiredStatusReason];

/** Hit caching strategies (SPEC.md `BatchCachingStrategy`). */
export const BatchCachingStrategy = {
  /** Every hit is copied to the cache when created; removed once its batch is acknowledged (browsers). */
  BATCH_CONTINUOUS_CACHING: 'BATCH_CONTINUOUS_CACHING',
  /** The pool is copied to the cache every `batchIntervals`; removed once acknowledged (Node). */
  BATCH_PERIODIC_CACHING: 'BATCH_PERIODIC_CACHING',
} as const;
/** A caching strategy. */
export type BatchCachingStrategy = (typeof BatchCachingStrategy)[keyof typeof BatchCachingStrategy];

/** `newVisitor` instance types (SPEC.md). */
export const Instance = {
  /** The visitor is returned and saved as the current visitor. */
  SINGLE_INSTANCE: 'SINGLE_INSTANCE',
  /** The visitor is returned but not saved. */
  NEW_INSTANCE: 'NEW_INSTANCE',
} as const;
/** A visitor instance type. */
export type Instance = (typeof Instance)[keyof typeof Instance];

/** Event hit categories (SPEC.md); sent as `"Action Tracking"` / `"User Engagement"`. */
export const EventCategory = {
  Action_Tracking: 'Action_Tracking',
  User_Engagement: 'User_Engagement',
} as const;
/** An event category. */
export type EventCategory = (typeof EventCategory)[keyof typeof EventCategory];
