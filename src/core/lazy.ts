/**
 * An object whose methods wait for `target`: calls made before it resolves run once it has, in call order,
 * so nothing is lost or reordered. This is how code in a lazily loaded chunk (the tracking manager, the
 * IndexedDB caches) is usable from the moment `start` begins loading it, without making `start` wait.
 */
export const deferred = <T extends object>(target: Promise<T>, methods: ReadonlyArray<keyof T>): T => {
  // A chunk that fails to load rejects every call, and each caller logs it; the target itself is handled.
  target.catch(() => undefined);
  return Object.fromEntries(
    methods.map((m) => [
      m,
      (...args: unknown[]) => target.then((t) => (t[m] as (...a: unknown[]) => unknown).apply(t, args)),
    ]),
  ) as T;
};
