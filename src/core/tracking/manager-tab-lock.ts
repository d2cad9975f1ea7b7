/**
 * Runs `work` while holding the Web Lock `name` (`navigator.locks`), which every tab of the origin shares:
 * tabs sharing the IndexedDB hit cache take turns sending it, and each re-reads the cache inside the lock, so
 * a cached hit another tab has sent and flushed meanwhile is dropped rather than sent again. The lock is
 * released when `work` settles or the tab dies, so a tab closed mid-send blocks nobody; its items, flushed
 * only once acknowledged, stay cached for the next pass or page.
 *
 * Where Web Locks are missing, `work` runs unlocked, on purpose without a home-made lock: in Node each process
 * owns its memory cache (a cache shared between processes brings its own coordination), and the few browsers
 * that run this ES2022 bundle without Web Locks (Firefox 93 to 95) keep the re-check inside `work`, which
 * narrows a double send to two tabs passing at the same moment, and the server counts a `hid` once (PROTOCOL.md
 * §5.4). A localStorage lease or a BroadcastChannel election would cost more bytes than that risk is worth.
 */
export const withTabLock = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  let started = false as boolean; // set inside the lock's callback
  if (locks)
    try {
      return await locks.request(name, () => ((started = true), work()));
    } catch (error) {
      // A refused lock (a sandboxed frame's SecurityError) must not stop sending: then the work runs unlocked.
      if (started) throw error;
    }
  return work();
};
