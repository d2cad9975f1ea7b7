import type { AssignmentHistory, DecisionCampaign, VisitorCacheRecord } from '../protocol/index.js';
import type { DecisionInput } from './decision/source.js';
import type { Runtime } from './runtime.js';
import {
  assignmentsOf,
  fromCachedCampaigns,
  historyOnlyRecord,
  makeVisitorRecord,
  parseVisitorRecord,
  toCachedCampaigns,
} from './visitor-record.js';

/** The flags and history a record restores at creation. */
export interface RestoredVisitor {
  visitorId: string;
  campaigns: DecisionCampaign[];
}

/**
 * One visitor's use of the visitor cache (PROTOCOL.md §10): lookups at creation and on authentication, writes
 * after each successful fetch, flush on consent withdrawn. A cache that throws or rejects is logged once and
 * treated as a miss: the cache is an aid, never a reason for a visitor call to fail.
 */
export class VisitorCacheLink {
  private pending: Promise<void> = Promise.resolve();
  private assignments: AssignmentHistory = {};

  constructor(
    private readonly runtime: Runtime,
    private readonly onCreationRecord: (restored: RestoredVisitor) => void,
  ) {}

  /** Resolves once every lookup started so far has settled (`fetchFlags` waits for it). */
  settled_(): Promise<void> {
    return this.pending;
  }

  /** The assignment history known now. */
  history_(): AssignmentHistory {
    return { ...this.assignments };
  }

  /** The lookup when a visitor is built, in the background: restores flags and history. */
  lookupAtCreation_(visitorId: string): void {
    this.pending = this.read(visitorId).then((data) => {
      if (data === null) return;
      this.assignments = { ...data.assignmentsHistory };
      this.onCreationRecord({ visitorId, campaigns: fromCachedCampaigns(data.campaigns) });
    });
  }

  /**
   * The lookup under a new id (`authenticate`, `unauthenticate`): the history becomes the new id's, merged with
   * the anonymous id's when experience continuity is on, the authenticated id's first (PROTOCOL.md §8.5).
   */
  lookupOnAuthenticate_(visitorId: string, anonymousId: string | null): void {
    const xpc = this.runtime.xpcEnabled_();
    this.pending = this.pending.then(async () => {
      const own = await this.read(visitorId);
      const anonymous = xpc && anonymousId !== null ? await this.read(anonymousId) : null;
      this.assignments = { ...anonymous?.assignmentsHistory, ...own?.assignmentsHistory };
    });
  }

  /**
   * Writes the record after a successful fetch (upsert; the history merges over the previous one). With
   * experience continuity on and an anonymous id, that id's record gets the merged history and nothing else.
   */
  async write_(
    input: DecisionInput,
    campaigns: DecisionCampaign[],
    newAssignments: AssignmentHistory,
  ): Promise<void> {
    const fresh = { ...assignmentsOf(campaigns), ...newAssignments };
    this.assignments = { ...this.assignments, ...fresh };
    const now = Date.now();
    await this.call('cacheVisitor', (cache) =>
      cache.cacheVisitor(
        input.visitorId,
        makeVisitorRecord({
          visitorId: input.visitorId,
          anonymousId: input.anonymousId,
          consent: true,
          context: { ...input.context },
          campaigns: toCachedCampaigns(campaigns),
          assignmentsHistory: this.history_(),
          fetchedAt: now,
        }),
      ),
    );
    const anonymousId = input.anonymousId;
    if (anonymousId === null || !this.runtime.xpcEnabled_()) return;
    const record = (await this.read(anonymousId)) ?? historyOnlyRecord(anonymousId, {}, now);
    record.assignmentsHistory = { ...record.assignmentsHistory, ...fresh };
    await this.call('cacheVisitor', (cache) => cache.cacheVisitor(anonymousId, makeVisitorRecord(record)));
  }

  /** Erases the visitor's record (consent set to false). */
  async flush_(visitorId: string): Promise<void> {
    await this.call('flushVisitor', (cache) => cache.flushVisitor(visitorId));
  }

  private async read(visitorId: string): Promise<VisitorCacheRecord['data'] | null> {
    const json = await this.call('lookupVisitor', (cache) => cache.lookupVisitor(visitorId));
    if (json === undefined || json === null) return null;
    const data = parseVisitorRecord(json, visitorId);
    if (data === null)
      this.runtime.logger_.warning(
        `the visitor cache record of "${visitorId}" is not a version-1 record of this visitor: ignored, it is overwritten at the next fetch.`,
        `record:${visitorId}`,
      );
    return data;
  }

  private async call<T>(
    method: string,
    run: (cache: Runtime['visitorCache_']) => T | Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await run(this.runtime.visitorCache_);
    } catch (error) {
      this.runtime.logger_.error(`the visitor cache's ${method} failed: ${String(error)}`, `cache:${method}`);
      return undefined;
    }
  }
}
