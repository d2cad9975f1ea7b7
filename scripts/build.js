// `npm run build`: browser bundles (vite), Node modules and declarations (tsc, per layer), then the size
// budgets. vite empties only dist/browser and dist/sdk, tsc writes dist/lib, so the order of those two does not
// matter for outputs.
//   --quiet       what `npm start` uses: one line, no size table; a failing step (a budget exceeded too)
//                 still prints all it said
//   --if-changed  skip the build when no input changed since the last complete build (dist/.build-stamp)
//   --no-size     skip the size budgets
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const args = new Set(process.argv.slice(2));
const quiet = args.has('--quiet');
const checkSize = !args.has('--no-size');

// What the build reads: sources, the demos, and every file that configures a step or pins a dependency.
const INPUTS = [
  'src',
  'demo',
  'server/src',
  'server/console',
  'server/bin',
  'server/package.json',
  'server/tsconfig.build.json',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'vite.sdk.config.ts',
  '.size-limit.json',
  'scripts/build.js',
  'scripts/app-bundle-size.js',
  ...readdirSync('.').filter((name) => /^tsconfig.*\.json$/.test(name)),
];
// One output of each step: when one is missing, the build runs whatever the stamp says.
const OUTPUTS = [
  'dist/browser/core.js',
  'dist/sdk/elements.js',
  'dist/sdk/core.js',
  'server/dist/demo/index.html',
  'server/dist/demo/framework/index.html',
  'server/dist/demo/openfeature/index.html',
  'server/dist/console/index.html',
  'server/dist/cli.js',
];
// Written after a complete build (size budgets included), with the time the build started as its mtime, so
// a file saved during the build counts as changed next time.
const STAMP = 'dist/.build-stamp';

/** The newest mtime under `path` (directories count too: deleting a file changes its folder's mtime). */
const newestMtime = (path) => {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
};

const upToDate = () =>
  existsSync(STAMP) &&
  OUTPUTS.every((file) => existsSync(file)) &&
  Math.max(...INPUTS.map(newestMtime)) < statSync(STAMP).mtimeMs;

if (args.has('--if-changed') && upToDate()) {
  if (!quiet) console.log('build: dist/ is up to date (nothing changed since the last build)');
  process.exit(0);
}

const buildStarted = Date.now();
// A build that fails halfway leaves dist/ mixed: it is no longer a complete build.
rmSync(STAMP, { force: true });
// On a terminal, the quiet build's one line is shown while it runs and completed in place at the end.
const liveLine = quiet && process.stdout.isTTY === true;
if (liveLine) process.stdout.write('build: building dist/ (about a minute on a first run)…');
else if (quiet) process.stdout.write('build: building dist/ (about a minute on a first run)…\n');
const endLiveLine = () => {
  if (liveLine) process.stdout.write('\r\u001b[K');
};

// `progressOnStderr`: the step's stderr on success is a spinner (size-limit's), not a warning.
const step = (label, command, argv, { progressOnStderr = false } = {}) => {
  const started = Date.now();
  if (!quiet) process.stdout.write(`build: ${label}…\n`);
  const run = spawnSync(command, argv, {
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    shell: false,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    endLiveLine();
    if (quiet) {
      process.stdout.write(run.stdout ?? '');
      process.stderr.write(run.stderr ?? '');
    }
    if (run.error !== undefined) console.error(`build: ${label}: ${run.error.message}`);
    console.error(`build: ${label} failed (exit ${run.status}).`);
    process.exit(run.status ?? 1);
  }
  // Quiet hides what a step says when it works, except warnings (stderr): they stay worth reading.
  if (quiet && !progressOnStderr && run.stderr !== '') {
    endLiveLine();
    process.stderr.write(run.stderr);
  }
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (!quiet) process.stdout.write(`build: ${label} done in ${took}\n`);
  // Quiet still shows progress (issue 35: a first `npm start` was a minute of silence): on a terminal the one
  // line names the step that finished, elsewhere one short line a step.
  else if (liveLine)
    process.stdout.write(`\r\u001b[Kbuild: building dist/… ${shortName(label)} done (${took})`);
  else process.stdout.write(`build: ${shortName(label)} done (${took})\n`);
};

/** A step's label without its parenthesis: "console (vite → …)" → "console". */
const shortName = (label) => label.replace(/ \(.*\)$/, '');

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
step('framework demo (vite → server/dist/demo/framework)', bin('vite'), [
  'build',
  '-c',
  'demo/framework/vite.config.ts',
  '--logLevel',
  'warn',
]);
step('OpenFeature demo (vite → server/dist/demo/openfeature)', bin('vite'), [
  'build',
  '-c',
  'demo/openfeature/vite.config.ts',
  '--logLevel',
  'warn',
]);
step('console (vite → server/dist/console)', bin('vite'), [
  'build',
  '-c',
  'server/console/vite.config.ts',
  '--logLevel',
  'warn',
]);
step('Node modules and declarations of the SDK and the server (tsc -b)', bin('tsc'), [
  '-b',
  'tsconfig.build.json',
]);
// The server package carries the demo shop page beside the framework and OpenFeature demos (all served by `start`).
mkdirSync('server/dist/demo', { recursive: true });
copyFileSync('demo/index.html', 'server/dist/demo/index.html');
if (checkSize) {
  step('size budgets (size-limit)', bin('size-limit'), [], { progressOnStderr: true });
  // The fourth budget (DESIGN.md): an app bundling `import { Feature }` with everything start() loads.
  step('app bundle budget (scripts/app-bundle-size.js)', process.execPath, ['scripts/app-bundle-size.js']);
  writeFileSync(STAMP, `complete build started at ${new Date(buildStarted).toISOString()}\n`);
  utimesSync(STAMP, buildStarted / 1000, buildStarted / 1000);
}
endLiveLine();
if (quiet) {
  const seconds = ((Date.now() - buildStarted) / 1000).toFixed(1);
  console.log(`build: dist/ built in ${seconds} s${checkSize ? ', sizes within budget' : ''}`);
}
