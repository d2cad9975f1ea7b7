import type { FlagExposure, TrackedActivation, TrackedHit, TrackedVisitor, Tracker } from './tracker.js';

/**
 * The tracker while its chunk loads (`load-after-render.ts`): calls made before it is in run once it is, in
 * call order, so nothing is lost or reordered; after that, calls go straight to it (a promise and a turn of the
 * microtask queue per call cost a server two per visitor it builds). A chunk that fails to load rejects every
 * call, and each caller logs it.
 */
export class PendingTracker implements Tracker {
  #tracker: Tracker | null = null;
  readonly #loading: Promise<Tracker>;

  constructor(loading: Promise<Tracker>) {
    this.#loading = loading;
    // Registered first, so it runs before the calls waiting on `loading`: they all run in the same turn of the
    // microtask queue, ahead of any later call, so the order holds.
    loading.then(
      (tracker) => (this.#tracker = tracker),
      () => undefined,
    );
  }

  addHit(visitor: TrackedVisitor, hit: TrackedHit): Promise<void> {
    return this.#tracker?.addHit(visitor, hit) ?? this.#loading.then((t) => t.addHit(visitor, hit));
  }

  sendHit(visitor: TrackedVisitor, hit: unknown): Promise<void> {
    return this.#tracker?.sendHit(visitor, hit) ?? this.#loading.then((t) => t.sendHit(visitor, hit));
  }

  addActivation(
    visitor: TrackedVisitor,
    activation: TrackedActivation,
    onAcknowledged?: () => void,
  ): Promise<void> {
    return (
      this.#tracker?.addActivation(visitor, activation, onAcknowledged) ??
      this.#loading.then((t) => t.addActivation(visitor, activation, onAcknowledged))
    );
  }

  expose(owner: object, exposure: FlagExposure): Promise<void> {
    return this.#tracker?.expose(owner, exposure) ?? this.#loading.then((t) => t.expose(owner, exposure));
  }

  dropVisitor(visitorId: string, owner?: object): Promise<void> {
    return (
      this.#tracker?.dropVisitor(visitorId, owner) ??
      this.#loading.then((t) => t.dropVisitor(visitorId, owner))
    );
  }

  flush(): Promise<void> {
    return this.#tracker?.flush() ?? this.#loading.then((t) => t.flush());
  }

  close(): Promise<void> {
    return this.#tracker?.close() ?? this.#loading.then((t) => t.close());
  }
}
