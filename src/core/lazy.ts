/**
 * An object whose methods wait for `target`: calls made before it resolves run once it has, in call order,
 * so nothing is lost or reordered; once it has, calls go straight to it (a promise and a turn of the
 * microtask queue per call cost a server two per visitor it builds). This is how code in a lazily loaded
 * chunk (the tracking manager, the IndexedDB caches) is usable from the moment `start` begins loading it,
 * without making `start` wait.
 */
export const deferred = <T extends object>(target: Promise<T>, methods: ReadonlyArray<keyof T>): T => {
  // A chunk that fails to load rejects every call, and each caller logs it; the target itself is handled.
  target.catch(() => undefined);
  const proxy = Object.fromEntries(
    methods.map((m) => [
      m,
      (...args: unknown[]) => target.then((t) => (t[m] as (...a: unknown[]) => unknown).apply(t, args)),
    ]),
  ) as T;
  // Registered first, so it runs before the calls waiting on `target`: they all run in the same turn of the
  // microtask queue, ahead of any later call, so the order holds.
  target.then(
    (t) => {
      for (const m of methods) proxy[m] = (t[m] as (...a: unknown[]) => unknown).bind(t) as T[keyof T];
    },
    () => undefined,
  );
  return proxy;
};
