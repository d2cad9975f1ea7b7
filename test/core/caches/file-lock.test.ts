// The file hit cache's lock (src/core/caches/file-lock.ts) on the real file system: a holder whose lock was
// taken over as stale (it held it past the stale age: a process stopped in a debugger, a disk that hung)
// releases only its own lock, never the one the process that took over holds.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { withFileLock } from '../../../src/core/caches/file-lock.js';

const root = mkdtempSync(join(tmpdir(), 'feature-ts-file-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A promise and what settles it. */
const gate = (): { wait: Promise<void>; open: () => void } => {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
};

void it('a holder taken over as stale does not remove the lock of the process that took over', async () => {
  const path = join(root, 'hits.json');
  const lockPath = `${path}.lock`;
  const slowHeld = gate();
  const slowGoes = gate();
  const slow = withFileLock(path, async () => {
    slowHeld.open();
    await slowGoes.wait;
  });
  await slowHeld.wait;
  // The slow holder is now past the stale age, as far as any other process can tell.
  const minuteAgo = new Date(Date.now() - 60_000);
  utimesSync(lockPath, minuteAgo, minuteAgo);

  const otherHeld = gate();
  const otherGoes = gate();
  const other = withFileLock(path, async () => {
    otherHeld.open();
    await otherGoes.wait;
  });
  await otherHeld.wait;
  slowGoes.open();
  await slow;
  assert.ok(existsSync(lockPath), 'the lock of the process that took over is still there');
  otherGoes.open();
  await other;
  assert.ok(!existsSync(lockPath), 'released by its holder');
});
