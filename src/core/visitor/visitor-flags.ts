import { atom, type ReadableAtom, type WritableAtom } from 'nanostores';
import { buildFlags } from '../../engine/flags.js';
import type { DecisionCampaign } from '../../protocol/index.js';
import { parseDecision } from '../decision/api.js';
import type { FlagHost, FlagsSnapshot } from '../flags/flag-entry.js';
import { Flag } from '../flags/flag.js';
import { FetchFlagsRequiredStatusReason as Reason, FlagStatus, FSSdkStatus } from '../status.js';
import type { Runtime } from './runtime.js';

/** A visitor's flag status and the reason flags must be fetched (SPEC.md States; PROTOCOL.md §16.2). */
export interface VisitorFlagState {
  readonly status: FlagStatus;
  readonly reason: Reason;
}

const NO_FLAGS: FlagsSnapshot = new Map();
const NEVER_FETCHED: VisitorFlagState = Object.freeze({
  status: FlagStatus.FETCH_REQUIRED,
  reason: Reason.FLAGS_NEVER_FETCHED,
});

/**
 * The flags a visitor holds and their status: the snapshot every flag read goes through, the `Flag` objects
 * handed out for it, and the atoms UIs watch. The `Visitor` facade is the `FlagHost` its flags read through.
 */
export class VisitorFlags {
  // The current flags and flag state, read on every flag read. Their atoms are made when first asked for: a
  // server building a visitor per request seldom watches them, and two atoms per visitor were a tenth of an
  // assignment's allocations.
  snapshot: FlagsSnapshot = NO_FLAGS;
  state: VisitorFlagState = NEVER_FETCHED;
  /** Whether the flags held came from a cache; undefined until flags were first set (fetched or cached). */
  fromCache: boolean | undefined;
  #flagsAtom: WritableAtom<FlagsSnapshot> | undefined;
  #stateAtom: WritableAtom<VisitorFlagState> | undefined;
  /**
   * The `Flag` of each key read since `$flags` got its snapshot, replaced with it (`set`): a read allocates
   * nothing, and keys a page reads that the flags lack stay only until the next snapshot.
   */
  #flagCache = new Map<string, Flag>();
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /** The snapshot as an atom. */
  get $flags(): ReadableAtom<FlagsSnapshot> {
    return (this.#flagsAtom ??= atom(this.snapshot));
  }

  /** The status as an atom. */
  get $flagStatus(): ReadableAtom<VisitorFlagState> {
    return (this.#stateAtom ??= atom(this.state));
  }

  /** The flag for `key`, read through `host`: the same object for a key until the flags change. */
  flag(key: string, host: FlagHost): Flag {
    // `set` returns the map: the lookup after it is the miss path only, and keeps the hot path one `get`.
    return this.#flagCache.get(key) ?? (this.#flagCache.set(key, new Flag(host, key)).get(key) as Flag);
  }

  // `value`, not `get()`: on a store nobody listens to, `get()` subscribes and unsubscribes, and every flag read
  // comes here.
  /** True in panic: the visitor's last decision said so, or the SDK is in panic. */
  inPanic(): boolean {
    return this.state.status === FlagStatus.PANIC || this.#runtime.status() === FSSdkStatus.SDK_PANIC;
  }

  /** True (logged once per call name) when `call` is ignored because the visitor's flags are in panic. */
  ignoredInPanic(call: string): boolean {
    if (this.state.status !== FlagStatus.PANIC) return false;
    this.#runtime.logger.warning(`${call} ignored in panic mode: call fetchFlags.`, `panic:${call}`);
    return true;
  }

  setState(status: FlagStatus, reason: Reason): void {
    const now = this.state;
    if (now.status === status && now.reason === reason) return;
    this.state = { status, reason };
    this.#stateAtom?.set(this.state);
  }

  set(
    campaigns: readonly DecisionCampaign[],
    fromCache: boolean,
    flags: FlagsSnapshot = buildFlags(campaigns, this.#runtime.flagsOf),
  ): void {
    this.fromCache = fromCache;
    this.#flagCache = new Map();
    this.snapshot = flags;
    this.#flagsAtom?.set(flags);
  }

  /** Applies a visitor cache record's flags: FETCH_REQUIRED, FLAGS_FETCHED_FROM_CACHE (PROTOCOL.md §16.2). */
  setKept(campaigns: readonly DecisionCampaign[]): void {
    this.set(campaigns, true, this.#runtime.source.flagsOf?.(campaigns));
    this.setState(FlagStatus.FETCH_REQUIRED, Reason.FLAGS_FETCHED_FROM_CACHE);
  }

  /** Applies an initial decision for `visitorId`; its campaigns, or null (logged) when it cannot be used. */
  setInitial(given: unknown, visitorId: string): DecisionCampaign[] | null {
    const decision = parseDecision(given);
    const problem =
      decision === null
        ? 'it is not a decision body (PROTOCOL.md §3)'
        : decision.panic === true
          ? 'it is in panic'
          : decision.visitorId !== '' && decision.visitorId !== visitorId
            ? `it is for visitor "${decision.visitorId}", not "${visitorId}"`
            : null;
    if (problem !== null || decision === null) {
      this.#runtime.logger.warning(`initial flags ignored: ${problem ?? ''}.`, `initial:${visitorId}`);
      return null;
    }
    this.set(decision.campaigns, true);
    this.setState(FlagStatus.FETCH_REQUIRED, Reason.FLAGS_FETCHED_FROM_CACHE);
    return decision.campaigns;
  }

  /** Warns once per key and SDK instance that `key` is missing, naming the keys known (at most 10). */
  missing(key: string, visitorId: string): void {
    if (this.fromCache === undefined || this.inPanic()) return;
    this.#runtime.logger.warning(() => {
      const keys = [...this.snapshot.keys()];
      return `flag "${key}" not found for visitor "${visitorId}"; known keys: ${keys.slice(0, 10).join(', ')}${keys.length > 10 ? ', …' : ''}`;
    }, `missing:${key}`);
  }
}
