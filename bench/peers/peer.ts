// What the bench asks of a peer SDK (issue 18): the same two figures it measures on ours, a visitor's whole
// decision and one flag read, on the same fixture and the same visitors, in the same process.

/** A peer SDK started in-process on a bucketing file, without any network request. */
export interface PeerSdk {
  /** Who it is, as the bench table prints it, e.g. 'platform JS SDK 5.2.0 (edge)'. */
  name: string;
  /** Creates visitor i (same id and context as ours) and computes its flags, as `newVisitor` + `fetchFlags` does in ours. */
  assign(i: number): Promise<void> | void;
  /** A visitor whose flags are fetched, ready for reads. */
  readyVisitor(i: number): Promise<PeerVisitor>;
  /** Stops the peer: timers, pools, global state. */
  close(): Promise<void>;
}

/** One visitor of a peer SDK, its flags computed. */
export interface PeerVisitor {
  /** Reads flag `key` with default `defaultValue` without reporting an exposure (ours: getFlag(k).value(d, {visitorExposed:false})). */
  read(key: string, defaultValue: string | number | boolean): unknown;
}
