// The SDK against the engine alone and against peer SDKs (issue 18), on the 50-campaign fixture in one process:
// - assigning one new visitor in bucketing mode, `newVisitor(...).build()` then `await fetchFlags()`, next to
//   the engine's `evaluate` of the same visitor on the same compiled file: the visitor cache lookup misses,
//   the record is written, the consent and context hits are queued and sent (to a double in its own process)
//   as for a server that builds one visitor per request;
// - one flag read of a fetched visitor, next to a Map lookup of the same values;
// - the same figures of the platform's JS SDK 5.2.0 (edge mode, same file) and GrowthBook 1.8.0 (the file as
//   150 comparable features), on the full file and on the subset the platform's engine evaluates as ours
//   does (no SEMVER_* rules, whole traffic: bench/peers/fixture.ts). Nothing of theirs touches the network.
import { FeatureInstance, Mode } from '../src/core/node.js';
import { compileFile, evaluate, type EngineVisitor } from '../src/engine/index.js';
import type { BucketingFile, JsonValue } from '../src/protocol/index.js';
import { startBenchSdk } from './bench-sdk.js';
import { startChildDouble } from './double-child.js';
import { alternateNsPerOp, median, nsPerOp, perRoundRatios, type Bench, type BenchRow } from './harness.js';
import { comparableSubset, defaultFor, flagKeys, loadFixture } from './peers/fixture.js';
import { startFlagshipPeer } from './peers/flagship.js';
import { startGrowthBookPeer } from './peers/growthbook.js';
import { forbidNetwork } from './peers/no-network.js';
import type { PeerSdk } from './peers/peer.js';
import { benchVisitors } from './visitors.js';

const PER_ROUND = 2_000;
const ROUNDS = 5;
const MAX_MS_PER_ROUND = 3_000;
const READS = 200_000;

/** Microseconds per call of `assign` over `count` calls from `offset`, stopping early at the deadline. */
const timeAsync = async (assign: (i: number) => unknown, offset: number, count: number): Promise<number> => {
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(MAX_MS_PER_ROUND) * 1_000_000n;
  let done = 0;
  for (; done < count; done++) {
    await assign(offset + done);
    // A server yields to I/O between requests (the SDK's hits leave then); every contender does.
    if ((done & 63) === 63) await new Promise(setImmediate);
    if ((done & 63) === 63 && process.hrtime.bigint() > deadline) {
      done++;
      break;
    }
  }
  return Number(process.hrtime.bigint() - started) / done / 1000;
};

/** Runs the contenders in alternated rounds (a slow spell weighs on all alike); medians per contender. */
const alternate = async (contenders: ReadonlyArray<(i: number) => unknown>): Promise<number[][]> => {
  for (const assign of contenders) await timeAsync(assign, 0, PER_ROUND); // warm-up, not counted
  const runs = contenders.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [index, assign] of contenders.entries())
      runs[index]?.push(await timeAsync(assign, (round + 1) * PER_ROUND, PER_ROUND));
  return runs;
};

interface Ours {
  sdk: FeatureInstance;
  close(): void;
}

const startOurs = async (file: BucketingFile): Promise<Ours> => {
  const double = await startChildDouble(file);
  const sdk = await startBenchSdk(double.url, Mode.BUCKETING);
  return {
    sdk,
    close: () => {
      void sdk.close().finally(() => double.close());
    },
  };
};

/** The assignment row on `file`: ours, the engine alone and the peers, in alternated rounds. */
const assignmentRow = async (
  file: BucketingFile,
  label: string,
  startPeers: () => Promise<PeerSdk[]>,
): Promise<BenchRow> => {
  const compiled = compileFile(file);
  const people = benchVisitors();
  const person = (i: number): EngineVisitor => people[i % people.length] as EngineVisitor;
  const ours = await startOurs(file);
  let serial = 0;
  const oursAssign = async (i: number): Promise<void> => {
    // A new id each time: the same contexts, visitors the SDK has never seen.
    const visitor = ours.sdk
      .newVisitor({ visitorId: `${person(i).id}-${++serial}`, hasConsented: true })
      .withContext(person(i).context)
      .build();
    await visitor.fetchFlags();
  };
  const engine = (i: number): unknown => evaluate(compiled, person(i), { exposeAllKeys: true, extras: true });
  const peers = await startPeers();
  let runs: number[][];
  try {
    // Ours sends its hits to the double over loopback; the peers are held to no network at all.
    runs = await alternate([oursAssign, engine]);
    const guard = forbidNetwork();
    const peerRuns = await alternate(peers.map((peer) => (i: number) => peer.assign(i))).finally(() =>
      guard.restore(),
    );
    if (guard.attempts.length > 0) throw new Error(`a peer used the network: ${guard.attempts.join(', ')}`);
    runs.push(...peerRuns);
  } finally {
    for (const peer of peers) await peer.close();
    ours.close();
  }
  const [oursRuns = [], engineRuns = []] = runs;
  const ratios = perRoundRatios(oursRuns, engineRuns);
  const ratio = median(ratios);
  return {
    figure: `SDK: assign one new visitor, bucketing mode (newVisitor + fetchFlags), ${label}`,
    value: median(oursRuns),
    unit: 'µs/op',
    baseline: { figure: 'engine evaluate alone, same visitor', value: median(engineRuns) },
    ratio: { value: ratio, goal: '≤ 1.3× (issue 18)', met: ratio <= 1.3 },
    peers: peers.map((peer, index) => ({ name: peer.name, value: median(runs[index + 2] ?? []) })),
    note: `${PER_ROUND.toLocaleString('en-US')} visitors per round (or ${MAX_MS_PER_ROUND / 1000} s), ${ROUNDS} rounds alternated, medians; per-round ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}`,
  };
};

/**
 * The read rows: one flag read of a fetched visitor, ours and the peers' on the same visitor and keys: keys the
 * visitor holds with a value, then keys of the file it was not given (a flag not targeted to this visitor).
 */
const readRows = async (file: BucketingFile, startPeers: () => Promise<PeerSdk[]>): Promise<BenchRow[]> => {
  const people = benchVisitors();
  const first = people[0] as EngineVisitor;
  const ours = await startOurs(file);
  const visitor = ours.sdk
    .newVisitor({ visitorId: first.id, hasConsented: true })
    .withContext(first.context)
    .build();
  await visitor.fetchFlags();
  const read = (key: string): JsonValue =>
    visitor.getFlag(key).value<JsonValue>(defaultFor(key), { visitorExposed: false });
  const held = new Set(visitor.getFlags().keys());
  const found = [...held].filter((key) => read(key) !== defaultFor(key));
  const missing = flagKeys(file).filter((key) => !held.has(key));
  const values = new Map<string, JsonValue>(found.map((key): [string, JsonValue] => [key, read(key)]));
  const loop =
    (keys: readonly string[], fn: (key: string, d: string | number) => unknown) =>
    (i: number): unknown =>
      fn(keys[i % keys.length] ?? '', defaultFor(keys[i % keys.length] ?? ''));
  // Ours and its baseline in alternated runs, so that a slow spell of the machine weighs on both alike.
  const measured = [found, missing].map((keys) =>
    alternateNsPerOp(
      [
        loop(keys, (key, d) => visitor.getFlag(key).value(d, { visitorExposed: false })),
        loop(keys, (key, d) => {
          const v = values.get(key);
          return typeof v === typeof d ? v : d;
        }),
      ],
      { iterations: READS },
    ),
  );
  ours.close();
  const peers = await startPeers();
  const guard = forbidNetwork();
  const peerNs: Array<Array<{ name: string; value: number }>> = [[], []];
  try {
    for (const peer of peers) {
      const reader = await peer.readyVisitor(0);
      for (const [index, keys] of [found, missing].entries())
        peerNs[index]?.push({
          name: peer.name,
          value: nsPerOp(
            loop(keys, (key, d) => reader.read(key, d)),
            { iterations: READS / 10 },
          ),
        });
      await peer.close();
    }
  } finally {
    guard.restore();
  }
  if (guard.attempts.length > 0) throw new Error(`a peer used the network: ${guard.attempts.join(', ')}`);
  const note = `the subset file (all three SDKs give visitor 0 the same flags), ${READS.toLocaleString('en-US')} reads per run (peers: ${(READS / 10).toLocaleString('en-US')}), 5 runs alternated with the baseline's, medians and the median of per-run ratios`;
  return [found, missing].map((keys, index): BenchRow => {
    const { medians, runs } = measured[index] ?? { medians: [], runs: [] };
    const [value = 0, base = 1] = medians;
    const ratios = perRoundRatios(runs[0] ?? [], runs[1] ?? []);
    const ratio = median(ratios);
    const perRun = `per-run ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}`;
    return index === 0
      ? {
          figure: `getFlag(key).value(default, {visitorExposed:false}), bucketing mode, ${keys.length} keys the visitor holds`,
          value,
          unit: 'ns/op',
          baseline: { figure: 'Map.get + typeof check, same values', value: base },
          ratio: { value: ratio, goal: '≤ 4× and ≤ 50 ns (issue 18)', met: ratio <= 4 && value <= 50 },
          peers: peerNs[index] ?? [],
          note: `${note}; ${perRun}`,
        }
      : {
          figure: `the same read, ${keys.length} keys of the file the visitor was not given (default returned)`,
          value,
          unit: 'ns/op',
          baseline: { figure: 'Map.get of a missing key', value: base },
          peers: peerNs[index] ?? [],
          note: `${note}; ${perRun}; a miss is warned about once per key, so a miss reads like a hit`,
        };
  });
};

/** The SDK rows, with the peers beside ours. */
export const bench: Bench = async () => {
  const full = loadFixture();
  const subset = comparableSubset(loadFixture());
  const both = async (file: BucketingFile): Promise<PeerSdk[]> => [
    await startFlagshipPeer(file),
    await startGrowthBookPeer(file),
  ];
  const fullRow = await assignmentRow(full, 'full file', () => both(loadFixture()));
  fullRow.note = `${fullRow.note ?? ''}; the platform's SDK does different work on the full file (no SEMVER_* operators, no traffic ranges): compare on the subset`;
  const subsetRow = await assignmentRow(subset.file, 'subset both engines support', () => both(subset.file));
  subsetRow.note = `${subsetRow.note ?? ''}; subset: ${subset.removedGroups} SEMVER_* variation groups removed (${subset.removedCampaigns} campaigns with them), ${subset.widenedCampaigns} campaigns widened to the whole traffic`;
  return [fullRow, subsetRow, ...(await readRows(subset.file, () => both(subset.file)))];
};
