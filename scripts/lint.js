// `npm run lint`: every check of the sources. ESLint (typed rules) is the long one; Prettier and tsc run
// beside it, each on its own core, and the quick checks (manifest, README tables, shapes) after them. Each
// check's output is printed whole when it ends, under its name, so two checks never interleave their lines.
// Exit code non-zero when any check fails; the last line names the failed ones.
import { spawn } from 'node:child_process';

/** @typedef {{ name: string, command: string, args: string[] }} Check */

/** @type {Check[]} */
const BESIDE = [
  { name: 'eslint', command: 'npx', args: ['eslint', '--max-warnings', '0', '.'] },
  { name: 'prettier', command: 'npx', args: ['prettier', '--check', '.'] },
  { name: 'tsc', command: 'npx', args: ['tsc', '-p', 'tsconfig.json', '--noEmit'] },
];

/** @type {Check[]} */
const AFTER = [
  { name: 'manifest', command: 'node', args: ['scripts/manifest.js', '--check'] },
  { name: 'readme elements', command: 'node', args: ['scripts/readme-elements.js', '--check'] },
  {
    name: 'server shape',
    command: 'node',
    args: ['--import', 'tsx', 'scripts/server-shape.ts', '--strict-lines'],
  },
  { name: 'sdk shape', command: 'node', args: ['--import', 'tsx', 'scripts/sdk-shape.ts'] },
];

/** @param {Check} check @returns {Promise<boolean>} */
const run = ({ name, command, args }) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      console.log(`lint: ${name} ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
      if (text !== '') console.log(text.replace(/^/gm, '  '));
      resolve(code === 0);
    });
  });

console.log(`lint: ${BESIDE.map((c) => c.name).join(', ')} side by side (ESLint takes a minute or two)…`);
const failed = [];
const beside = await Promise.all(BESIDE.map(run));
BESIDE.forEach((check, i) => beside[i] || failed.push(check.name));
for (const check of AFTER) if (!(await run(check))) failed.push(check.name);
if (failed.length > 0) {
  console.error(`lint: failed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('lint: every check passed');
