// Builds the `/sdk/` bundles (vite.sdk.config.ts) into a temporary folder, for tests that load them the way a
// page does: from the project's server, with no bundler of their own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Builds the elements' `/sdk/` bundles; returns the folder (serve it as `sdkDir`). */
export const buildSdkBundles = (): string => {
  const outDir = mkdtempSync(join(tmpdir(), 'feature-sdk-'));
  const build = spawnSync(
    process.execPath,
    [
      'node_modules/vite/bin/vite.js',
      'build',
      '-c',
      'vite.sdk.config.ts',
      '--mode',
      'elements',
      '--outDir',
      outDir,
      '--logLevel',
      'error',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(build.status, 0, build.stderr);
  return outDir;
};
