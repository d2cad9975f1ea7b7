import type { IVisitorCacheImplementation } from '../../protocol/index.js';
import {
  heldRecordJson,
  type HeldVisitorRecord,
  type VisitorRecordHolder,
} from '../visitor/visitor-record.js';

/** Options of {@link ProcessVisitorCache}. */
export interface ProcessVisitorCacheOptions {
  /** At most how many visitors' records it keeps (at least half as many are the most recently written). Default 10 000. */
  maxVisitors?: number;
}

/**
 * Node's default visitor cache (SPEC.md `IVisitorCacheImplementation`): the records of the most recently
 * written visitors, in this process's memory, bounded so that a server building a visitor per request does
 * not grow without end (a dropped record only costs a re-derivation, which bucketing mode's deterministic
 * allocation makes the same variation unless the allocation changed). The SDK hands it records as objects
 * and reads them back as objects: the JSON text of PROTOCOL.md §10 is built only when application code calls
 * `lookupVisitor` itself, so an assignment pays for no JSON. Use a shared cache (`feature-ts/redis`) for
 * records that outlive the process or are shared by several.
 */
export class ProcessVisitorCache implements IVisitorCacheImplementation, VisitorRecordHolder {
  readonly #half: number;
  // Two generations: writes go to `recent`; when it holds half the bound it becomes `older` and the previous
  // `older` is dropped whole. Every operation is a constant number of Map calls (an LRU that evicts one
  // entry at a time walks its Map from the start, over the slots of every deleted entry).
  #recent = new Map<string, HeldVisitorRecord | string>();
  #older = new Map<string, HeldVisitorRecord | string>();

  constructor(options: ProcessVisitorCacheOptions = {}) {
    const max = options.maxVisitors ?? 10_000;
    if (!Number.isInteger(max) || max < 2)
      throw new Error(`ProcessVisitorCache: maxVisitors must be an integer ≥ 2, not ${String(max)}.`);
    this.#half = Math.floor(max / 2);
  }

  /** How many visitors' records it holds now. */
  get size(): number {
    return this.#recent.size + this.#older.size;
  }

  /** Upserts the visitor's JSON text. */
  cacheVisitor(visitorId: string, json: string): Promise<void> {
    this.#put(visitorId, json);
    return Promise.resolve();
  }

  /** The visitor's JSON text, or null. */
  lookupVisitor(visitorId: string): Promise<string | null> {
    const held = this.heldRecord(visitorId);
    return Promise.resolve(held === null || typeof held === 'string' ? held : heldRecordJson(held));
  }

  /** Erases the visitor's record. */
  flushVisitor(visitorId: string): Promise<void> {
    this.#recent.delete(visitorId);
    this.#older.delete(visitorId);
    return Promise.resolve();
  }

  /** @internal The SDK's write: the record as objects, which the SDK never changes after handing it over. */
  holdRecord(visitorId: string, record: HeldVisitorRecord): void {
    this.#put(visitorId, record);
  }

  /** @internal The SDK's lookup: the record as objects, or the JSON text an application stored, or null. */
  heldRecord(visitorId: string): HeldVisitorRecord | string | null {
    return this.#recent.get(visitorId) ?? this.#older.get(visitorId) ?? null;
  }

  #put(visitorId: string, value: HeldVisitorRecord | string): void {
    this.#older.delete(visitorId);
    this.#recent.set(visitorId, value);
    if (this.#recent.size < this.#half) return;
    this.#older = this.#recent;
    this.#recent = new Map();
  }
}
