import type { IVisitorCacheImplementation } from '../../protocol/index.js';

/**
 * The visitor cache under `CacheMode.DISABLED` (PROTOCOL.md §17): no record is read or written, so no visitor
 * sees flags kept from an earlier visit, and bucketing mode's sticky assignments (§8.4) last one visitor object.
 * A consent withdrawal still erases the record of `cache`: one an earlier configuration kept must not outlive it.
 */
export const disabledVisitorCache = (cache: IVisitorCacheImplementation): IVisitorCacheImplementation => ({
  cacheVisitor: () => undefined,
  lookupVisitor: () => Promise.resolve(null),
  flushVisitor: (visitorId) => cache.flushVisitor(visitorId),
});
