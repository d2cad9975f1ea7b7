import type { FlagMetadata } from '../../protocol/index.js';
import { FlagStatus } from '../status.js';
import { Flag } from './flag.js';
import type { FlagHost } from './flag-entry.js';

/** Reads nothing: the empty flag a collection returns for a key it does not hold. */
const NO_FLAGS: FlagHost = {
  flags: () => undefined,
  flagsState: () => FlagStatus.FETCHED,
  expose: () => Promise.resolve(),
  warnOnce: () => undefined,
  missing: () => undefined,
};

/**
 * The visitor's flags when `getFlags()` was called (SPEC.md `FlagCollection`): key → live `Flag`, in the order
 * of the decision. Read-only; `filter` makes a new collection.
 */
export class FlagCollection implements Iterable<[string, Flag]> {
  readonly #flags: ReadonlyMap<string, Flag>;

  /** Made by `visitor.getFlags()`. */
  constructor(flags: Iterable<[string, Flag]>) {
    this.#flags = new Map(flags);
  }

  /** True when the collection holds no flag. */
  get isEmpty(): boolean {
    return this.#flags.size === 0;
  }

  /** The number of flags. */
  get count(): number {
    return this.#flags.size;
  }

  /** The flag for `key`, or an empty flag (`exists()` false) when the collection does not hold it. */
  get(key: string): Flag {
    return this.#flags.get(key) ?? new Flag(NO_FLAGS, key);
  }

  /** Every key held. */
  keys(): IterableIterator<string> {
    return this.#flags.keys();
  }

  /** The metadata of every flag, in order. */
  metadatas(): FlagMetadata[] {
    return [...this.#flags.values()].map((f) => f.metadata());
  }

  /**
   * JSON text of an array with the key and metadata of every flag that has metadata (PROTOCOL.md §9.5), or the
   * empty string when none has.
   */
  toJson(): string {
    const items = [...this.#flags]
      .map(([key, flag]) => {
        // Every metadata field but variationName, in FlagMetadata's order.
        const { variationName: _, ...metadata } = flag.metadata();
        return { key, ...metadata };
      })
      .filter((m) => m.campaignId !== '');
    return items.length === 0 ? '' : JSON.stringify(items);
  }

  /** A new collection of the pairs for which `isIncluded` returns true. */
  filter(isIncluded: (key: string, flag: Flag) => boolean): FlagCollection {
    return new FlagCollection([...this.#flags].filter(([k, f]) => isIncluded(k, f)));
  }

  /** Calls `action` for every pair. */
  forEach(action: (key: string, flag: Flag) => void): void {
    for (const [k, f] of this.#flags) action(k, f);
  }

  /** Exposes every flag in one call (one activation per variation); resolves once all are queued. */
  async exposeAll(): Promise<void> {
    await Promise.all([...this.#flags.values()].map((f) => f.visitorExposed()));
  }

  /** Iterates the pairs. */
  [Symbol.iterator](): IterableIterator<[string, Flag]> {
    return this.#flags.entries();
  }
}
