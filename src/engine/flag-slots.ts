// A bucketing visitor's flags as one array over the installed file's flag keys (issue 18). A `Map` built per
// visitor was the SDK's largest cost after the engine in assigning a new visitor: about 75 `set` calls and
// five rehashes into a 128-entry table (3.3 KB) per visitor on the bench file. Here each compiled campaign's
// flags get their keys' slots once, and a visitor's flags are an array written slot by slot.
import type { DecisionCampaign } from '../protocol/decision.js';
import { buildFlags, type ResolvedFlag } from './flags.js';
import { sharedCampaignFlags } from './shared-flags.js';

/**
 * Past this many distinct keys in a file, visitors get a `Map` again: an array over every key of a file would
 * then outweigh a map of the keys one visitor holds.
 */
const MAX_SLOTS = 512;

interface CampaignSlots {
  readonly flags: readonly ResolvedFlag[];
  /** The slot of each flag's key, in the flags' order. */
  readonly slots: readonly number[];
}

/** One installed file's flag keys, each with its slot, learnt as its campaigns are first decided. */
export class FlagSlots {
  /** The slot of each key met so far. */
  readonly slotOf = new Map<string, number>();
  /** The key of each slot. */
  readonly keys: string[] = [];
  readonly #byCampaign = new WeakMap<DecisionCampaign, CampaignSlots>();

  /**
   * The flags of `campaigns`, exactly as `buildFlags(campaigns)` gives them: the same entries in the same
   * order, the last campaign winning except that a null value never replaces a non-null one.
   */
  build(campaigns: readonly DecisionCampaign[]): ReadonlyMap<string, ResolvedFlag> {
    if (this.keys.length > MAX_SLOTS) return buildFlags(campaigns, sharedCampaignFlags);
    const entries = new Array<ResolvedFlag | undefined>(this.keys.length);
    let size = 0;
    for (const campaign of campaigns) {
      const { flags, slots } = this.slotsOf(campaign);
      for (let i = 0; i < flags.length; i++) {
        const flag = flags[i] as ResolvedFlag;
        const slot = slots[i] as number;
        const earlier = entries[slot];
        if (earlier === undefined) size++;
        if (flag.value !== null || earlier === undefined || earlier.value === null) entries[slot] = flag;
      }
    }
    return new SlotFlags(this, campaigns, entries, size);
  }

  /** @internal The flags and slots of one campaign (remembered for the engine's frozen campaigns). */
  slotsOf(campaign: DecisionCampaign): CampaignSlots {
    const known = this.#byCampaign.get(campaign);
    if (known !== undefined) return known;
    const flags = sharedCampaignFlags(campaign);
    const slots = flags.map((flag) => {
      let slot = this.slotOf.get(flag.key);
      if (slot === undefined) {
        slot = this.keys.push(flag.key) - 1;
        this.slotOf.set(flag.key, slot);
      }
      return slot;
    });
    // The engine's campaigns are frozen and shared by every visitor; any other is built for this call only.
    if (Object.isFrozen(campaign)) this.#byCampaign.set(campaign, { flags, slots });
    return { flags, slots };
  }
}

/**
 * A visitor's flags over a file's slots, read as a `ReadonlyMap`: `get` and `has` are a key lookup in the
 * file's table and an array read; iteration (rare: `getFlags`, a warning's list of keys) goes through a `Map`
 * built on first use, in `buildFlags`' order (each key where a campaign first sets it).
 */
class SlotFlags implements ReadonlyMap<string, ResolvedFlag> {
  readonly #table: FlagSlots;
  readonly #campaigns: readonly DecisionCampaign[];
  readonly #entries: ReadonlyArray<ResolvedFlag | undefined>;
  readonly size: number;
  #map: Map<string, ResolvedFlag> | undefined;

  constructor(
    table: FlagSlots,
    campaigns: readonly DecisionCampaign[],
    entries: ReadonlyArray<ResolvedFlag | undefined>,
    size: number,
  ) {
    this.#table = table;
    this.#campaigns = campaigns;
    this.#entries = entries;
    this.size = size;
  }

  get(key: string): ResolvedFlag | undefined {
    const slot = this.#table.slotOf.get(key);
    return slot === undefined ? undefined : this.#entries[slot];
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  forEach(
    callback: (value: ResolvedFlag, key: string, map: ReadonlyMap<string, ResolvedFlag>) => void,
    thisArg?: unknown,
  ): void {
    this.#all().forEach((value, key) => {
      callback.call(thisArg, value, key, this);
    });
  }

  entries(): MapIterator<[string, ResolvedFlag]> {
    return this.#all().entries();
  }

  keys(): MapIterator<string> {
    return this.#all().keys();
  }

  values(): MapIterator<ResolvedFlag> {
    return this.#all().values();
  }

  [Symbol.iterator](): MapIterator<[string, ResolvedFlag]> {
    return this.#all().entries();
  }

  #all(): Map<string, ResolvedFlag> {
    if (this.#map !== undefined) return this.#map;
    const map = new Map<string, ResolvedFlag>();
    for (const campaign of this.#campaigns)
      for (const slot of this.#table.slotsOf(campaign).slots) {
        const key = this.#table.keys[slot] as string;
        const entry = this.#entries[slot];
        if (entry !== undefined && !map.has(key)) map.set(key, entry);
      }
    return (this.#map = map);
  }
}
