// How an SDK row is measured (bench/sdk.bench.ts): ours, the engine, the knock-outs (each part of ours timed
// alone, issue 33) and the peers in alternated rounds, and the row made of their runs.
import { FlagSlots } from '../src/engine/flag-slots.js';
import { evaluate, type CompiledFile, type EngineVisitor } from '../src/engine/index.js';
import { median, perRoundRatios, type BenchRow } from './harness.js';
import { forbidNetwork } from './peers/no-network.js';
import type { PeerSdk } from './peers/peer.js';
import { alternate, MAX_MS_PER_ROUND, PER_ROUND, ROUNDS, type Ours } from './sdk-ours.js';

/** A part of ours timed alone in the same alternated rounds, to say what each cost weighs (issue 33). */
export interface KnockOut {
  name: string;
  run: (i: number) => unknown;
}

/**
 * Ours, the engine, the knock-outs, then the peers, in alternated rounds (the peers held to no network);
 * their runs, in that order.
 */
export const contest = async (
  ours: Ours,
  contenders: readonly [ours: (i: number) => unknown, engine: (i: number) => unknown, ...KnockOut[]],
  peers: readonly PeerSdk[],
  peerAssign: (peer: PeerSdk, i: number) => unknown,
): Promise<number[][]> => {
  const [oursAssign, engine, ...knockOuts] = contenders;
  let runs: number[][];
  try {
    // Ours sends its hits to the double over loopback; the peers are held to no network at all.
    runs = await alternate([oursAssign, engine, ...knockOuts.map((k) => k.run)]);
    await ours.close();
    const guard = forbidNetwork();
    const peerRuns = await alternate(peers.map((peer) => (i: number) => peerAssign(peer, i))).finally(() =>
      guard.restore(),
    );
    if (guard.attempts.length > 0) throw new Error(`a peer used the network: ${guard.attempts.join(', ')}`);
    runs.push(...peerRuns);
  } finally {
    for (const peer of peers) await peer.close();
    await ours.close();
  }
  return runs;
};

/** A row of ours against the engine (per-round ratios), the knock-outs in its note, the peers beside it. */
export const rowOf = (
  runs: number[][],
  knockOuts: readonly KnockOut[],
  peers: readonly PeerSdk[],
  figure: string,
  goal: number,
  note: string,
): BenchRow => {
  const [oursRuns = [], engineRuns = []] = runs;
  const ratios = perRoundRatios(oursRuns, engineRuns);
  const ratio = median(ratios);
  const parts = knockOuts.map((k, index) => {
    const own = runs[index + 2] ?? [];
    return `${k.name} ${median(own).toFixed(2)} µs (${median(perRoundRatios(own, engineRuns)).toFixed(2)}× evaluate)`;
  });
  const peerAt = 2 + knockOuts.length;
  return {
    figure,
    value: median(oursRuns),
    unit: 'µs/op',
    baseline: { figure: 'engine evaluate alone, same visitor', value: median(engineRuns) },
    ratio: { value: ratio, goal: `≤ ${goal}× (issue 33)`, met: ratio <= goal },
    peers: peers.map((peer, index) => ({ name: peer.name, value: median(runs[index + peerAt] ?? []) })),
    note: `${PER_ROUND.toLocaleString('en-US')} visitors per round (or ${MAX_MS_PER_ROUND / 1000} s), ${ROUNDS} rounds alternated, medians; ${note}; per-round ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}; knock-out in the same rounds: ${parts.join('; ')}`,
  };
};

/**
 * The parts of an assignment timed alone: the engine with the flags build the bucketing source adds to it
 * (its whole decision), and `newVisitor(...).build()` alone (the visitor objects, the cache lookup, the
 * creation fs_consent decided, and queued for a new id). What neither holds is the fetch around the decision:
 * the lookup awaited, the record written, the SEGMENT hit decided (and queued for a new id).
 */
export const knockOutsOf = (
  compiled: CompiledFile,
  person: (i: number) => EngineVisitor,
  build: (i: number) => unknown,
): KnockOut[] => {
  const slots = new FlagSlots();
  const opts = { exposeAllKeys: true, extras: true } as const;
  return [
    {
      name: 'engine + flags build',
      run: (i) => slots.build(evaluate(compiled, person(i), opts).decision.campaigns),
    },
    { name: 'newVisitor().build() alone', run: build },
  ];
};
