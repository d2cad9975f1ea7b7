// `npm run build`: browser bundles (vite), Node modules and declarations (tsc, per layer), then the size
// budgets. vite empties only dist/browser and dist/sdk, tsc writes dist/lib, so the order of those two does not
// matter for outputs.
import { spawnSync } from 'node:child_process';

const step = (label, command, args) => {
  const started = Date.now();
  process.stdout.write(`build: ${label}…\n`);
  const run = spawnSync(command, args, { stdio: 'inherit', shell: false });
  if (run.status !== 0) {
    console.error(`build: ${label} failed (exit ${run.status}).`);
    process.exit(run.status ?? 1);
  }
  process.stdout.write(`build: ${label} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
};

const bin = (name) => `node_modules/.bin/${name}`;
step('browser bundles for application bundlers (vite → dist/browser)', bin('vite'), [
  'build',
  '--logLevel',
  'warn',
]);
// The server's /sdk/ bundles for pages without a bundler: the tags, then the SDK alone, into dist/sdk.
for (const mode of ['elements', 'core'])
  step(`/sdk/ bundles: ${mode} (vite → dist/sdk)`, bin('vite'), [
    'build',
    '-c',
    'vite.sdk.config.ts',
    '--mode',
    mode,
    '--logLevel',
    'warn',
  ]);
step('framework demo (vite → dist/demo-framework)', bin('vite'), [
  'build',
  '-c',
  'demo/framework/vite.config.ts',
  '--logLevel',
  'warn',
]);
step('Node modules and declarations (tsc -b)', bin('tsc'), ['-b', 'tsconfig.build.json']);
if (!process.argv.includes('--no-size')) step('size budgets (size-limit)', bin('size-limit'), []);
