import type { AssignmentHistory, DecisionCampaign, VisitorContext } from '../../protocol/index.js';
import type { DecisionInput, PreviousDecision } from '../decision/source.js';
import type { Runtime } from './runtime.js';
import { sameContext } from './same-context.js';
import {
  assignmentsOf,
  fromCachedCampaigns,
  heldRecordJson,
  holdsRecords,
  parseVisitorRecord,
  withSent,
  type HeldVisitorRecord,
} from './visitor-record.js';

/** The flags and history a record restores at creation. */
export interface RestoredVisitor {
  visitorId: string;
  campaigns: readonly DecisionCampaign[];
}

const isEmpty = (history: Readonly<AssignmentHistory>): boolean => {
  for (const _ in history) return false;
  return true;
};

/**
 * `later` over `earlier`; `earlier` itself when `later` is empty (a returning visitor given nothing new),
 * `later` itself when `earlier` is (a new visitor): no copy. `later` is asked first: it is the small one, and
 * `for…in` over a 50-entry history lists all its keys before the first step.
 */
const merged = (
  earlier: Readonly<AssignmentHistory>,
  later: Readonly<AssignmentHistory>,
): Readonly<AssignmentHistory> =>
  isEmpty(later) ? earlier : isEmpty(earlier) ? later : { ...earlier, ...later };

/**
 * One visitor's use of the visitor cache (PROTOCOL.md §10): lookups at creation and on authentication, writes
 * after each successful fetch, flush on consent withdrawn. A cache that throws or rejects is logged once and
 * treated as a miss: the cache is an aid, never a reason for a visitor call to fail.
 */
export class VisitorCacheLink {
  private pending: Promise<void> = Promise.resolve();
  // Replaced on every change, never changed in place: the same object goes to the engine and into records.
  private assignments: Readonly<AssignmentHistory> = {};
  // The record last read at creation or written, while it is this visitor's: see `previous`.
  private kept: HeldVisitorRecord | null = null;

  constructor(
    private readonly runtime: Runtime,
    private readonly onCreationRecord: (restored: RestoredVisitor) => void,
  ) {}

  /** Resolves once every lookup started so far has settled (`fetchFlags` waits for it). */
  settled(): Promise<void> {
    return this.pending;
  }

  /**
   * The decision the visitor's record holds, when it was made for `visitorId`, `anonymousId` and `context` with
   * `history` (the record's own: a history replaced since, by a decision or a login, is another), on a basis
   * the source named; else undefined.
   */
  previous(
    visitorId: string,
    anonymousId: string | null,
    context: Readonly<VisitorContext>,
    history: Readonly<AssignmentHistory>,
  ): PreviousDecision | undefined {
    const kept = this.kept;
    if (
      kept?.decidedOn === undefined ||
      kept.visitorId !== visitorId ||
      kept.anonymousId !== anonymousId ||
      kept.assignmentsHistory !== history ||
      !sameContext(context, kept.context)
    )
      return undefined;
    return { basis: kept.decidedOn, campaigns: kept.campaigns };
  }

  /** The assignment history known now. */
  history(): Readonly<AssignmentHistory> {
    return this.assignments;
  }

  /**
   * The lookup when a visitor is built, in the background: restores flags and history, and tells the repeat
   * memory what this id sent (PROTOCOL.md §5.1 Repeats).
   */
  lookupAtCreation(visitorId: string): void {
    this.pending = this.read(visitorId).then((data) => {
      if (data === null) return;
      this.runtime.repeats.learn(visitorId, data.sent);
      this.assignments = data.assignmentsHistory;
      this.kept = data;
      this.onCreationRecord({ visitorId, campaigns: data.campaigns });
    });
  }

  /**
   * The lookup under a new id (`authenticate`, `unauthenticate`): the history becomes the new id's, merged with
   * the anonymous id's when experience continuity is on, the authenticated id's first (PROTOCOL.md §8.5).
   */
  lookupOnAuthenticate(visitorId: string, anonymousId: string | null): void {
    const xpc = this.runtime.xpcEnabled();
    this.pending = this.pending.then(async () => {
      const own = await this.read(visitorId);
      this.runtime.repeats.learn(visitorId, own?.sent);
      const anonymous = xpc && anonymousId !== null ? await this.read(anonymousId) : null;
      this.assignments = { ...anonymous?.assignmentsHistory, ...own?.assignmentsHistory };
      this.kept = null; // a new history: its decision is decided anew
    });
  }

  /**
   * Writes the record after a successful fetch (upsert; the history merges over the previous one), with what
   * the id sent (`sent`, PROTOCOL.md §5.1 Repeats) as the repeat memory knows it now, and `decidedOn`, the
   * outcome's basis (see `previous`). With experience continuity on and an
   * anonymous id, that id's record gets the merged history and nothing else.
   */
  async write(
    input: DecisionInput,
    campaigns: readonly DecisionCampaign[],
    newAssignments: AssignmentHistory | undefined,
    decidedOn?: object,
  ): Promise<void> {
    const fresh = this.fresh(input, campaigns, newAssignments);
    this.assignments = merged(this.assignments, fresh);
    const now = Date.now();
    const record: HeldVisitorRecord = {
      visitorId: input.visitorId,
      anonymousId: input.anonymousId,
      consent: true,
      context: input.context, // the visitor's frozen view: replaced, never changed
      campaigns,
      assignmentsHistory: this.assignments,
      fetchedAt: now,
      ...withSent(this.runtime.repeats.sent(input.visitorId)),
      ...(decidedOn === undefined ? {} : { decidedOn }),
    };
    this.kept = record;
    await this.store(input.visitorId, record);
    const anonymousId = input.anonymousId;
    if (anonymousId === null || !this.runtime.xpcEnabled()) return;
    const anonymous = await this.read(anonymousId);
    await this.store(anonymousId, {
      visitorId: anonymousId,
      anonymousId: null,
      consent: true,
      context: anonymous?.context ?? {},
      campaigns: anonymous?.campaigns ?? [],
      assignmentsHistory: merged(anonymous?.assignmentsHistory ?? {}, fresh),
      fetchedAt: anonymous?.fetchedAt ?? now,
      ...withSent(anonymous?.sent), // the anonymous id's own: nothing of the authenticated visitor
    });
  }

  /**
   * The assignments this decision adds to what the visitor's history holds. Bucketing mode gives
   * `newAssignments`: the engine took every other campaign's variation from the history it was given
   * (PROTOCOL.md §8.4), so they are all there is to add, and a returning visitor given nothing new adds an
   * empty object, which {@link merged} leaves without a copy (copying a 50-entry history per assignment was a
   * tenth of a returning visitor's, issue 33). Else (the decision API) they are read off the campaigns.
   */
  private fresh(
    input: DecisionInput,
    campaigns: readonly DecisionCampaign[],
    newAssignments: AssignmentHistory | undefined,
  ): Readonly<AssignmentHistory> {
    if (
      newAssignments !== undefined &&
      (input.assignments === this.assignments || isEmpty(input.assignments))
    )
      return newAssignments;
    return assignmentsOf(campaigns, newAssignments);
  }

  /** Erases the visitor's record (consent set to false). */
  async flush(visitorId: string): Promise<void> {
    await this.call('flushVisitor', (cache) => cache.flushVisitor(visitorId));
  }

  private async read(visitorId: string): Promise<HeldVisitorRecord | null> {
    const cache = this.runtime.visitorCache;
    // A cache holding records as objects gives them back as handed over: nothing to parse or check.
    const held = holdsRecords(cache)
      ? await this.call('lookupVisitor', () => cache.heldRecord(visitorId))
      : await this.call('lookupVisitor', () => cache.lookupVisitor(visitorId));
    if (held === undefined || held === null) return null;
    if (typeof held === 'object') return held;
    const data = parseVisitorRecord(held, visitorId);
    if (data === null) {
      this.runtime.logger.warning(
        `the visitor cache record of "${visitorId}" is not a version-1 record of this visitor: ignored, it is overwritten at the next fetch.`,
        `record:${visitorId}`,
      );
      return null;
    }
    return { ...data, campaigns: fromCachedCampaigns(data.campaigns) };
  }

  /** Upserts a record: as objects into a cache that holds them, else as PROTOCOL.md §10's JSON text. */
  private async store(visitorId: string, record: HeldVisitorRecord): Promise<void> {
    const cache = this.runtime.visitorCache;
    await this.call('cacheVisitor', () =>
      holdsRecords(cache)
        ? cache.holdRecord(visitorId, record)
        : cache.cacheVisitor(visitorId, heldRecordJson(record)),
    );
  }

  private async call<T>(
    method: string,
    run: (cache: Runtime['visitorCache']) => T | Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await run(this.runtime.visitorCache);
    } catch (error) {
      this.runtime.logger.error(`the visitor cache's ${method} failed: ${String(error)}`, `cache:${method}`);
      return undefined;
    }
  }
}
