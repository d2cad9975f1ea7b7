// Builds the console (server/console, vite) into a temporary folder, for tests that open /admin in Chromium
// the way an operator does, without depending on a previous `npm run build`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Builds the console; returns the folder (serve it as `consoleDir`). */
export const buildConsole = (): string => {
  const outDir = mkdtempSync(join(tmpdir(), 'feature-console-'));
  const build = spawnSync(
    process.execPath,
    [
      'node_modules/vite/bin/vite.js',
      'build',
      '-c',
      'server/console/vite.config.ts',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'error',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(build.status, 0, build.stderr);
  return outDir;
};
