// The short lock of the file hit cache: a `{file}.lock` file created exclusively around each read-modify-write
// of the cache file, so processes sharing one file (cluster workers, a restart overlapping its predecessor)
// never lose each other's records. Node only.
import { link, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A lock older than this was left by a process that died mid-write: a write takes milliseconds. */
const STALE_MS = 10_000;
/** How long a process waits for a held lock before it gives up (the write fails and is retried later). */
const WAIT_MS = 5_000;
/** A bound on tries besides the time: a lock taken and released by others in a tight loop. */
const MAX_ATTEMPTS = 1_000;

const errorCode = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** The lock's content, the token of its holder; null when it is gone. */
const tokenIn = async (lockPath: string): Promise<string | null> => {
  try {
    return await readFile(lockPath, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
};

/** Removes the lock at `lockPath` when it is stale; true when it was (or vanished meanwhile). */
const clearStale = async (lockPath: string): Promise<boolean> => {
  let age: number;
  let staleToken: string | null;
  try {
    age = Date.now() - (await stat(lockPath)).mtimeMs;
    staleToken = await tokenIn(lockPath);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return true;
    throw error;
  }
  if (age < STALE_MS || staleToken === null) return age >= STALE_MS;
  // Renamed aside first, so of two processes that both found it stale only one removes it (the other's rename
  // fails with ENOENT).
  const aside = `${lockPath}.stale-${process.pid}-${globalThis.crypto.randomUUID().slice(0, 8)}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return true;
    throw error;
  }
  // Another process cleared the stale lock and took a fresh one between our look and our rename: that one
  // is put back (link fails, leaving things be, if yet another was taken meanwhile).
  if ((await tokenIn(aside)) !== staleToken) {
    await link(aside, lockPath).catch(() => undefined);
    await rm(aside, { force: true });
    return false;
  }
  await rm(aside, { force: true });
  return true;
};

/**
 * Runs `work` while holding `{path}.lock`. Waits (bounded by {@link WAIT_MS}, checking with growing pauses)
 * while another process holds it, takes over a lock older than {@link STALE_MS}, and rejects naming the lock
 * file when it stays held.
 */
export const withFileLock = async <T>(path: string, work: () => Promise<T>): Promise<T> => {
  const lockPath = `${path}.lock`;
  // This holder's mark in the lock: it releases the lock only while the mark is there, so a holder that was
  // taken over as stale never removes the lock of the process that took over.
  const token = `${process.pid}-${globalThis.crypto.randomUUID()}`;
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(token);
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if (errorCode(error) === 'ENOENT' && attempt === 0) {
        // The cache file's folder does not exist yet: made once, then the lock is tried again.
        await mkdir(dirname(lockPath), { recursive: true });
        continue;
      }
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const stale = await clearStale(lockPath);
    if (Date.now() >= deadline || attempt >= MAX_ATTEMPTS)
      throw new Error(
        `${lockPath} has been held by another process for over ${WAIT_MS} ms; delete it if no process is writing ${path}`,
      );
    if (!stale) await sleep(Math.min(5 * 2 ** attempt, 200));
  }
  try {
    return await work();
  } finally {
    if ((await tokenIn(lockPath)) === token) await rm(lockPath, { force: true });
  }
};
