// The string targets of one bucketing file (CONTAINS, NOT_CONTAINS, STARTS_WITH, ENDS_WITH, PROTOCOL.md §7),
// gathered per context key and per place in the value, so that a decision reads each context value once
// whatever the number of rules and list items on it. Tested one by one, a list of n targets costs n × the
// value's length per rule, and a tenant could make that seconds of main thread (issue 29). Here each key has
// one automaton (Aho-Corasick for "inside", a trie for "start" and "end"), built once per file; a scan marks
// every rule one of whose targets occurs, and each rule then reads its mark. A decision so costs about the
// context's length plus the number of rules.

/** Where in the context value a target is looked for. */
export type PatternPlace = 'inside' | 'start' | 'end';

/** Does any of a rule's targets occur in this text (at its place)? */
export type PatternTest = (text: string) => boolean;

/**
 * With this many distinct targets or fewer, each at most FEW_TARGET_LENGTH long, a scan asks the string's own
 * `includes` (or `startsWith`, `endsWith`) for each target, which beats walking an automaton in JavaScript.
 * The length bound keeps `includes` linear: on a long target with a repetitive text its search is not (a
 * 1 024-character target in 8 192 characters of "a": 4 ms).
 */
const FEW_TARGETS = 4;
const FEW_TARGET_LENGTH = 16;

/** `text` backwards by UTF-16 code units (as the scan reads it), not by code points. */
const reverseCodeUnits = (text: string): string => {
  let out = '';
  for (let i = text.length - 1; i >= 0; i--) out += String.fromCharCode(text.charCodeAt(i));
  return out;
};

/** One rule's mark, per scan: `marks[slot] === epoch` when one of its targets occurred in the last text. */
class PatternMatcher {
  private readonly place: PatternPlace;
  /** Target → the slots of the rules that hold it. */
  private readonly targets = new Map<string, number[]>();
  private slots = 0;
  private built = false;
  private lastText: string | undefined;
  private epoch = 0;
  private marks = new Uint32Array(0);
  /** Rules not marked yet in this scan. */
  private unmarked = 0;

  // The automaton, with nodes numbered breadth-first so that a node's children are contiguous:
  // node i's children are firstChild[i] .. firstChild[i + 1] - 1, in increasing order of their code unit.
  private codes = new Uint16Array(0);
  private firstChild = new Int32Array(1);
  /** Aho-Corasick failure link (inside only). */
  private fail = new Int32Array(0);
  /** The nearest node on the failure chain (self excluded) that ends a target, or -1 (inside only). */
  private dictionary = new Int32Array(0);
  /** Node i's rule slots: slotsOf[firstSlot[i]] .. slotsOf[firstSlot[i + 1] - 1]. */
  private firstSlot = new Int32Array(1);
  private slotsOf = new Int32Array(0);
  /** The epoch in which a node's outputs (and its dictionary chain's) were last marked. */
  private seen = new Uint32Array(0);
  /** The targets when there are few of them, each with its slots. */
  private few: [string, number[]][] | null = null;

  constructor(place: PatternPlace) {
    this.place = place;
  }

  /** Registers one rule's targets; its test is true when any of them occurs. */
  add(targets: readonly string[]): PatternTest {
    const slot = this.slots++;
    for (const target of new Set(targets)) {
      const holders = this.targets.get(target);
      if (holders === undefined) this.targets.set(target, [slot]);
      else holders.push(slot);
    }
    // A rule added after a scan must not read the marks of a scan it was not part of.
    this.built = false;
    this.lastText = undefined;
    return (text) => {
      if (text !== this.lastText) this.scan(text);
      return this.marks[slot] === this.epoch;
    };
  }

  /** Builds the automaton (idempotent). */
  build(): void {
    if (this.built) return;
    this.built = true;
    this.lastText = undefined;
    this.epoch = 0;
    this.marks = new Uint32Array(this.slots);
    if (
      this.targets.size <= FEW_TARGETS &&
      [...this.targets.keys()].every((t) => t.length <= FEW_TARGET_LENGTH)
    ) {
      this.few = [...this.targets];
      return;
    }
    this.few = null;
    const reversed = this.place === 'end';
    const words = [...this.targets.keys()].map((t) => (reversed ? reverseCodeUnits(t) : t));
    const holders = [...this.targets.values()];
    // Sorted by code units (the default sort), a node's targets are one run and its children come in order.
    const order = words.map((_, i) => i).sort((a, b) => ((words[a] ?? '') < (words[b] ?? '') ? -1 : 1));
    this.buildTrie(
      order.map((i) => words[i] ?? ''),
      order.map((i) => holders[i] ?? []),
    );
    if (this.place === 'inside') this.linkFailures();
  }

  /** The trie of sorted distinct words, breadth-first: each node is a run [lo, hi) of words at a depth. */
  private buildTrie(words: string[], holders: number[][]): void {
    // A trie has at most one node per character plus the root: typed arrays of that size, filled in place,
    // spare the garbage collector the growing arrays (it was half of a large build).
    const most = words.reduce((n, w) => n + w.length, 1);
    const runLo = new Int32Array(most);
    const runHi = new Int32Array(most);
    const runDepth = new Int32Array(most);
    const codes = new Uint16Array(most);
    const firstChild = new Int32Array(most + 1);
    const firstSlot = new Int32Array(most + 1);
    const slotsOf = new Int32Array(holders.reduce((n, h) => n + h.length, 0));
    runHi[0] = words.length;
    let nodes = 1;
    let slots = 0;
    for (let node = 0; node < nodes; node++) {
      let lo = runLo[node] ?? 0;
      const hi = runHi[node] ?? 0;
      const depth = runDepth[node] ?? 0;
      firstSlot[node] = slots;
      // Words that end here sort first in the run (a prefix sorts before its extensions).
      for (; lo < hi && (words[lo] ?? '').length === depth; lo++)
        for (const slot of holders[lo] ?? []) slotsOf[slots++] = slot;
      firstChild[node] = nodes;
      while (lo < hi) {
        const code = (words[lo] ?? '').charCodeAt(depth);
        let end = lo + 1;
        while (end < hi && (words[end] ?? '').charCodeAt(depth) === code) end++;
        runLo[nodes] = lo;
        runHi[nodes] = end;
        runDepth[nodes] = depth + 1;
        codes[nodes++] = code;
        lo = end;
      }
    }
    firstChild[nodes] = nodes;
    firstSlot[nodes] = slots;
    this.codes = codes.slice(0, nodes);
    this.firstChild = firstChild.slice(0, nodes + 1);
    this.firstSlot = firstSlot.slice(0, nodes + 1);
    this.slotsOf = slotsOf;
    this.seen = new Uint32Array(nodes);
  }

  /** Node `node`'s child by code unit `code`, or -1 (binary search over its sorted children). */
  private child(node: number, code: number): number {
    let lo = this.firstChild[node] ?? 0;
    let hi = (this.firstChild[node + 1] ?? 0) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.codes[mid] ?? 0;
      if (c === code) return mid;
      if (c < code) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Aho-Corasick's failure and dictionary links, breadth-first (parents before children). */
  private linkFailures(): void {
    const n = this.codes.length;
    this.fail = new Int32Array(n);
    this.dictionary = new Int32Array(n).fill(-1);
    for (let node = 0; node < n; node++) {
      for (let child = this.firstChild[node] ?? 0; child < (this.firstChild[node + 1] ?? 0); child++) {
        let target = 0;
        if (node !== 0) {
          const code = this.codes[child] ?? 0;
          let f = this.fail[node] ?? 0;
          for (;;) {
            const next = this.child(f, code);
            if (next !== -1) {
              target = next;
              break;
            }
            if (f === 0) break;
            f = this.fail[f] ?? 0;
          }
        }
        this.fail[child] = target;
        this.dictionary[child] = this.ends(target) ? target : (this.dictionary[target] ?? -1);
      }
    }
  }

  private ends(node: number): boolean {
    return (this.firstSlot[node + 1] ?? 0) > (this.firstSlot[node] ?? 0);
  }

  /** Marks the slots of `node` and of its dictionary chain, each node once per scan. */
  private markFrom(node: number): void {
    let n = this.ends(node) ? node : (this.dictionary[node] ?? -1);
    while (n !== -1 && this.seen[n] !== this.epoch) {
      this.seen[n] = this.epoch;
      this.markNode(n);
      n = this.dictionary[n] ?? -1;
    }
  }

  private markNode(node: number): void {
    for (let i = this.firstSlot[node] ?? 0; i < (this.firstSlot[node + 1] ?? 0); i++) {
      const slot = this.slotsOf[i] ?? 0;
      if (this.marks[slot] !== this.epoch) {
        this.marks[slot] = this.epoch;
        this.unmarked--;
      }
    }
  }

  private scan(text: string): void {
    this.build();
    this.lastText = text;
    if (++this.epoch === 0xffffffff) {
      // After 4 billion scans the marks start over rather than read a stale epoch as this one.
      this.marks.fill(0);
      this.seen.fill(0);
      this.epoch = 1;
    }
    // Once every rule has a mark, the rest of the text cannot change an answer.
    this.unmarked = this.slots;
    if (this.few !== null) {
      for (const [target, slots] of this.few) {
        const found =
          this.place === 'inside'
            ? text.includes(target)
            : this.place === 'start'
              ? text.startsWith(target)
              : text.endsWith(target);
        if (found) for (const slot of slots) this.marks[slot] = this.epoch;
      }
      return;
    }
    const n = text.length;
    if (this.place === 'inside') {
      let node = 0;
      this.markFrom(0);
      for (let i = 0; i < n; i++) {
        const code = text.charCodeAt(i);
        for (;;) {
          const next = this.child(node, code);
          if (next !== -1) {
            node = next;
            break;
          }
          if (node === 0) break;
          node = this.fail[node] ?? 0;
        }
        this.markFrom(node);
        if (this.unmarked === 0) return;
      }
      return;
    }
    // A prefix (or, reversed, a suffix) trie: walk from the value's start (end) while a child follows.
    const forward = this.place === 'start';
    let node = 0;
    this.markNode(0);
    for (let i = 0; i < n; i++) {
      node = this.child(node, text.charCodeAt(forward ? i : n - 1 - i));
      if (node === -1) return;
      this.markNode(node);
    }
  }
}

/**
 * The string targets of one bucketing file, per context key and place. Register rules while compiling,
 * then {@link StringPatterns.seal} so that no decision pays for building an automaton.
 */
export class StringPatterns {
  private readonly matchers = new Map<string, PatternMatcher>();

  /**
   * Registers the targets of one rule on context key `key` (`fs_users`: the visitor id) at `place`; the
   * test is true when any target occurs there. Targets are UTF-16 strings, as `includes` compares them.
   */
  rule(key: string, place: PatternPlace, targets: readonly string[]): PatternTest {
    const id = `${place}\u0000${key}`;
    let matcher = this.matchers.get(id);
    if (matcher === undefined) {
      matcher = new PatternMatcher(place);
      this.matchers.set(id, matcher);
    }
    return matcher.add(targets);
  }

  /** Builds every automaton now (otherwise each is built at its first scan). */
  seal(): void {
    for (const matcher of this.matchers.values()) matcher.build();
  }
}
