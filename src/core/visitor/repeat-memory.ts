import { isJsonObject, type SentMark, type VisitorSent } from '../../protocol/index.js';
import type { ContextMarkValue, SentContext } from '../decision/sent-context.js';
import { sameContext } from './same-context.js';

/** How long a sent consent value or context is not sent again for the same visitor id (PROTOCOL.md §5.1). */
export const REPEAT_WINDOW_MS = 30 * 60_000;

/** At most how many visitor ids the memory keeps (PROTOCOL.md §5.1). */
export const REPEAT_MEMORY_MAX_IDS = 10_000;

/**
 * What a visitor id sent, as the SDK holds it: a stored record's `sent` (PROTOCOL.md §10), or marks of this
 * process, whose SEGMENT context keeps its digest uncomputed until a record stored as JSON needs it.
 */
export interface HeldSent {
  consent?: SentMark<boolean>;
  context?: SentMark<ContextMarkValue>;
}

/** What a repeat is about: the consent value of `fs_consent`, or the context of a SEGMENT hit. */
export type RepeatKind = keyof HeldSent;

type Value<K extends RepeatKind> = NonNullable<HeldSent[K]>[0];

const isMark = (mark: unknown, type: 'boolean' | 'string'): boolean =>
  Array.isArray(mark) &&
  mark.length === 2 &&
  typeof mark[0] === type &&
  typeof mark[1] === 'number' &&
  Number.isFinite(mark[1]);

/**
 * The `sent` of a stored record (PROTOCOL.md §10), keeping only well-formed marks; undefined when none is (an
 * older record, or one from another SDK: nothing was sent).
 */
export const readSent = (sent: unknown): VisitorSent | undefined => {
  if (!isJsonObject(sent)) return undefined;
  const out: VisitorSent = {};
  if (isMark(sent.consent, 'boolean')) out.consent = sent.consent as SentMark<boolean>;
  if (isMark(sent.context, 'string')) out.context = sent.context as SentMark<string>;
  return out.consent === undefined && out.context === undefined ? undefined : out;
};

/** `sent` as a record stored as JSON text holds it (PROTOCOL.md §10): a sent context as its digest. */
export const storedSent = (sent: Readonly<HeldSent> | undefined): VisitorSent | undefined => {
  const context = sent?.context;
  if (context === undefined || typeof context[0] === 'string') return sent as VisitorSent | undefined;
  return { ...sent, context: [context[0].digest, context[1]] };
};

/**
 * What each visitor id sent and when (PROTOCOL.md §5.1 Repeats): a page builds a visitor per load and a server
 * one per request, and neither should send the creation `fs_consent` event or the same SEGMENT context again
 * within 30 minutes. One per started SDK (the runtime), not per module: a second instance, or a restart with
 * another environment, sends to another tracker, whose server has heard nothing of these ids yet.
 *
 * It learns from the visitor cache record (`sent`, §10) at lookup and gives its marks to the record written
 * after a fetch, so the record carries them across page loads and processes; it alone covers what no record
 * holds (consent false, no fetch yet). Bounded to {@link REPEAT_MEMORY_MAX_IDS} ids in two generations, like
 * `ProcessVisitorCache`: marks go to `recent`; when it is full it becomes `older` and the oldest ids are
 * dropped whole, so each call is a constant number of Map operations however many ids went through.
 */
export class RepeatMemory {
  readonly #half: number;
  // An id's entry is replaced, never changed in place: the visitor cache record holds it as handed over.
  #recent = new Map<string, Readonly<HeldSent>>();
  #older = new Map<string, Readonly<HeldSent>>();

  constructor(
    /** The clock (epoch ms); `FeatureConfig.clock`, default `Date.now`. */
    readonly now: () => number,
    maxIds = REPEAT_MEMORY_MAX_IDS,
  ) {
    this.#half = Math.max(1, Math.floor(maxIds / 2));
  }

  /** What `visitorId` sent, as the visitor cache record stores it; undefined when nothing is known. */
  sent(visitorId: string): Readonly<HeldSent> | undefined {
    return this.#recent.get(visitorId) ?? this.#older.get(visitorId);
  }

  /** True when `visitorId` sent `consent` in its creation `fs_consent` within the last 30 minutes. */
  repeatsConsent(visitorId: string, consent: boolean): boolean {
    const mark = this.sent(visitorId)?.consent;
    return mark !== undefined && mark[0] === consent && this.#inWindow(mark[1]);
  }

  /**
   * True when `visitorId` sent `sent`'s context as a SEGMENT hit within the last 30 minutes: the same keys and
   * values as a context this process sent, or the digest a stored record gave (then `sent`'s is computed).
   */
  repeatsContext(visitorId: string, sent: SentContext): boolean {
    const mark = this.sent(visitorId)?.context;
    if (mark === undefined || !this.#inWindow(mark[1])) return false;
    const value = mark[0];
    return typeof value === 'string' ? value === sent.digest : sameContext(value.context, sent.context);
  }

  /** Notes that `visitorId` sends `value` as its `kind` now. */
  mark<K extends RepeatKind>(visitorId: string, kind: K, value: Value<K>): void {
    const known = this.sent(visitorId);
    // A copy then one store, not `{ ...known, [kind]: mark }`: V8 builds a literal with a computed key on a
    // slow path, a third of what a new visitor's marks cost (issue 33). The same keys in the same order.
    const next: HeldSent = known === undefined ? {} : Object.assign({}, known);
    (next as Record<RepeatKind, SentMark<Value<K>>>)[kind] = [value, this.now()];
    this.#put(visitorId, next);
  }

  /** Forgets what `visitorId` sent as its `kind` (it was dropped before it went out): the next one is sent. */
  forget(visitorId: string, kind: RepeatKind): void {
    const known = this.sent(visitorId);
    if (known?.[kind] === undefined) return;
    const rest: HeldSent = {};
    if (kind !== 'consent' && known.consent !== undefined) rest.consent = known.consent;
    if (kind !== 'context' && known.context !== undefined) rest.context = known.context;
    this.#put(visitorId, rest);
  }

  /** Learns what a visitor cache record says `visitorId` sent: each mark is kept when it is the newer one. */
  learn(visitorId: string, sent: Readonly<HeldSent> | undefined): void {
    if (sent === undefined) return;
    const known = this.sent(visitorId);
    const newer = <K extends RepeatKind>(kind: K): HeldSent[K] => {
      const a = known?.[kind];
      const b = sent[kind];
      return a === undefined || (b !== undefined && b[1] > a[1]) ? b : a;
    };
    const consent = newer('consent');
    const context = newer('context');
    if (consent === known?.consent && context === known?.context) return;
    const merged: HeldSent = {};
    if (consent !== undefined) merged.consent = consent;
    if (context !== undefined) merged.context = context;
    this.#put(visitorId, merged);
  }

  // Either way round: a mark from a host whose clock runs ahead is still recent, not a reason to resend.
  #inWindow(at: number): boolean {
    return Math.abs(this.now() - at) < REPEAT_WINDOW_MS;
  }

  #put(visitorId: string, sent: Readonly<HeldSent>): void {
    if (this.#recent.has(visitorId) || this.#recent.size < this.#half) {
      this.#recent.set(visitorId, sent);
      return;
    }
    this.#older = this.#recent;
    this.#recent = new Map([[visitorId, sent]]);
  }
}
