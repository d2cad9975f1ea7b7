// `npm run build`: browser bundles (vite), Node modules and declarations (tsc, per layer), then the size
// budgets. vite empties only dist/browser, tsc writes dist/lib, so the order does not matter for outputs.
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
step('browser bundles (vite)', bin('vite'), ['build', '--logLevel', 'warn']);
step('Node modules and declarations (tsc -b)', bin('tsc'), ['-b', 'tsconfig.build.json']);
if (!process.argv.includes('--no-size')) step('size budgets (size-limit)', bin('size-limit'), []);
