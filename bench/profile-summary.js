// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function, most first, and with a
// second argument, self time per source line of the files whose path contains it.
// `node bench/profile-summary.js <file.cpuprofile> [path-part] [rows]`
import { readFileSync } from 'node:fs';

const [file, filter, rowsArg] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node bench/profile-summary.js <file.cpuprofile> [path-part] [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const sampleTime = new Map();
profile.samples.forEach((id, i) =>
  sampleTime.set(id, (sampleTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
);
const where = (frame) => `${frame.url.split('/').slice(-2).join('/')}`;
const perFunction = new Map();
const perLine = new Map();
let total = 0;
for (const node of profile.nodes) {
  const time = sampleTime.get(node.id) ?? 0;
  total += time;
  const frame = node.callFrame;
  const key = `${frame.functionName || '(anonymous)'} ${where(frame)}`;
  perFunction.set(key, (perFunction.get(key) ?? 0) + time);
  if (filter !== undefined && frame.url.includes(filter) && node.hitCount > 0)
    for (const tick of node.positionTicks ?? []) {
      const at = `${where(frame)}:${tick.line} (${frame.functionName || 'anonymous'})`;
      perLine.set(at, (perLine.get(at) ?? 0) + (time * tick.ticks) / node.hitCount);
    }
}
const print = (map) => {
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows))
    console.log(
      `${(time / 1000).toFixed(1).padStart(9)} ms ${((100 * time) / total).toFixed(1).padStart(5)} %  ${key}`,
    );
};
print(filter === undefined ? perFunction : perLine);
console.log(`total ${(total / 1000).toFixed(0)} ms`);

// Per area: where a path spends its time, by the file each function is in.
const AREAS = [
  ['engine', /\/engine\//],
  ['tracking', /\/core\/tracking\//],
  ['visitor cache', /process-visitor-cache|visitor-cache-link|visitor-record/],
  ['flags', /\/core\/flag|engine\/flags/],
  ['other SDK', /\/src\/core\//],
  ['nanostores', /nanostores/],
  [
    'HTTP client (undici, sockets)',
    /undici|node:net|node:internal\/stream|node:_http|writev|node:internal\/deps/,
  ],
  ['garbage collector', /^\(garbage collector\)$/],
  ['idle', /^\(idle\)$/],
];
if (filter === undefined) {
  const perArea = new Map();
  for (const node of profile.nodes) {
    const time = sampleTime.get(node.id) ?? 0;
    const frame = node.callFrame;
    const name = frame.url === '' ? frame.functionName : frame.url;
    const area = AREAS.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other';
    perArea.set(area, (perArea.get(area) ?? 0) + time);
  }
  console.log('\nper area:');
  print(perArea);
}
