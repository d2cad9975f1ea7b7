// A path of the SDK run alone, long enough for a CPU profile (issue 18): `node --import tsx --cpu-prof
// --cpu-prof-dir=<dir> bench/profile.ts assign|returning|read`, then `node bench/profile-summary.js <file>.cpuprofile`.
// Not a figure: `npm run bench` gives those.
import { Level, Mode } from '../src/core/node.js';
import { startBenchSdk } from './bench-sdk.js';
import { startChildDouble } from './double-child.js';
import { benchVisitors } from './visitors.js';

const path = process.argv[2] ?? 'assign';
const count = Number(process.env.PROFILE_COUNT ?? (path === 'read' ? 20_000_000 : 20_000));
const people = benchVisitors();
const double = await startChildDouble();
const sdk = await startBenchSdk(
  double.url,
  Mode.BUCKETING,
  process.env.PROFILE_LOG === '1' ? Level.WARNING : Level.NONE,
);
const started = performance.now();
const cpuStarted = process.cpuUsage();
if (path === 'assign' || path === 'returning') {
  for (let i = 0; i < count; i++) {
    const person = people[i % (path === 'assign' ? people.length : 2_000)];
    if (person === undefined) continue;
    // `returning`: the same 2 000 ids again and again (their hits not repeated, PROTOCOL.md §5.1).
    const visitorId = path === 'assign' ? `${person.id}-${i}` : person.id;
    const visitor = sdk.newVisitor({ visitorId, hasConsented: true }).withContext(person.context).build();
    await visitor.fetchFlags();
    // A server yields to I/O between requests: without it the SDK's hits could never leave.
    if ((i & 63) === 63) await new Promise(setImmediate);
  }
} else {
  const person = people[0];
  const visitor = sdk
    .newVisitor({ visitorId: 'reader', hasConsented: true })
    .withContext(person?.context ?? {})
    .build();
  await visitor.fetchFlags();
  const keys = Array.from({ length: 50 }, (_, i) => `flag${i}`);
  let sink: unknown;
  for (let i = 0; i < count; i++)
    sink = visitor.getFlag(keys[i % 50] ?? '').value('', { visitorExposed: false });
  if (sink === Symbol.for('never')) console.log(sink);
}
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuStarted);
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(
  `${path}: ${count} in ${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms of CPU), ${((ms * 1e6) / count).toFixed(0)} ns each (${((cpuMs * 1e6) / count).toFixed(0)} ns of CPU)`,
);
await sdk.close();
double.close();
