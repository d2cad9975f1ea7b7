// What a provider's subtree sees of its visitor's flags, and which keys a later fetch changed: the visitor's
// own `$flags`, except before its first fetch settles, where the cache mode decides (PROTOCOL.md §17). A
// bootstrap script is the server's answer for this page view, never stale: every mode shows it at once. The
// page's kept copy (page-storage.ts) is the visitor's last flags, maybe older than a change made since:
// `local-cache-first` shows it in the first frame, `network-first` only when the first fetch fails or times
// out, `disabled` never reads it. In the last two the visitor's flags are held back until its first fetch
// settles: the SDK's own visitor cache answers before the network does, and it may hold a paused variation.
import { atom, type ReadableAtom } from 'nanostores';
import {
  CacheMode,
  FlagStatus,
  flagsOfDecision,
  type Decision,
  type FlagsSnapshot,
  type VisitorFlagState,
} from '../core/index.js';
import { changedKeys } from './changed-keys.js';
import { keptDecision } from './page-storage.js';

/** The flags a provider shows: one atom for the provider's life, following each visitor in turn. */
export class ShownFlags {
  /** The flags shown now. */
  readonly $flags = atom<FlagsSnapshot>(new Map());
  #visitorFlags: ReadableAtom<FlagsSnapshot> | null = null;
  #held = false;
  #fallback: FlagsSnapshot | null = null;
  #tracking = false;

  /** `onChange` hears the keys each change of the shown flags touched, after the visitor's first fetch. */
  constructor(onChange: (keys: string[]) => void) {
    this.$flags.listen((after, before) => {
      const keys = this.#tracking && before !== undefined ? changedKeys(before, after) : [];
      if (keys.length > 0) onChange(keys);
    });
  }

  /** True while the visitor's flags are held back. */
  get held(): boolean {
    return this.#held;
  }

  /**
   * Starts over for `visitorId`: shows what `mode` allows before its first fetch (`bootstrap`, the kept copy,
   * or nothing), and returns that decision, or null. No change is reported until a fetch.
   */
  reset(mode: CacheMode, envId: string, visitorId: string, bootstrap: Decision | null): Decision | null {
    const kept = bootstrap ?? (mode === CacheMode.DISABLED ? null : keptDecision(envId, visitorId));
    const first = bootstrap === null && mode === CacheMode.NETWORK_FIRST ? null : kept;
    const flags = first && flagsOfDecision(first);
    this.#fallback = first === null && kept !== null ? flagsOfDecision(kept) : null;
    this.#held = !flags && mode !== CacheMode.LOCAL_CACHE_FIRST;
    this.#visitorFlags = null;
    this.#tracking = false;
    this.$flags.set(flags ?? new Map());
    return flags ? first : null;
  }

  /**
   * Shows the visitor's `flags` (unless held back) from now on; returns a function that stops. Once `status`
   * says the flags came from the network (FETCHED, or PANIC), the fallback is dropped, whatever fetched them (a
   * live update, the application's `fetchFlags`): none then means none, never the kept copy again.
   */
  follow(flags: ReadableAtom<FlagsSnapshot>, status: ReadableAtom<VisitorFlagState>): () => void {
    this.#visitorFlags = flags;
    const stopStatus = status.subscribe(({ status: now }) => {
      if (this.#fallback === null || (now !== FlagStatus.FETCHED && now !== FlagStatus.PANIC)) return;
      // The flags were set just before this status, in the same task: no frame showed the fallback meanwhile.
      this.#fallback = null;
      this.#mirror();
    });
    const stopFlags = flags.subscribe(() => this.#mirror());
    return () => {
      stopStatus();
      stopFlags();
    };
  }

  /**
   * Shows the visitor's flags from now on: the timeout passed (`fetched` undefined), or a fetch settled, after
   * which changes are reported and, when it succeeded (`fetched` true), the fallback is dropped: the visitor's
   * flags are the network's, even none (a campaign paused).
   */
  release(fetched?: boolean): void {
    this.#held = false;
    if (fetched) this.#fallback = null;
    // Shown before changes are reported: a fallback replaced by the first answer is no change.
    this.#mirror();
    this.#tracking ||= fetched !== undefined;
  }

  #mirror(): void {
    if (this.#held) return;
    const flags = this.#visitorFlags?.get() ?? new Map<string, never>();
    this.$flags.set(flags.size === 0 && this.#fallback !== null ? this.#fallback : flags);
  }
}
