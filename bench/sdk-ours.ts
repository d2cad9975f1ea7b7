// Our SDK as the SDK rows time it (bench/sdk.bench.ts): started in bucketing mode on a double in its own
// process, and timed in alternated rounds of async calls beside the engine and the peers.
import { FeatureInstance, Mode } from '../src/core/node.js';
import type { BucketingFile } from '../src/protocol/index.js';
import { startBenchSdk } from './bench-sdk.js';
import { startChildDouble } from './double-child.js';

/** Calls per round and contender. */
export const PER_ROUND = 2_000;
/** Rounds per contender, after one warm-up round each. */
export const ROUNDS = 5;
/** A round stops early after this long, so a slow machine cannot hang the bench. */
export const MAX_MS_PER_ROUND = 3_000;

/** Microseconds per call of `assign` over `count` calls from `offset`, stopping early at the deadline. */
export const timeAsync = async (
  assign: (i: number) => unknown,
  offset: number,
  count: number,
): Promise<number> => {
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

/**
 * Runs the contenders in alternated rounds (a slow spell weighs on all alike), each round starting one
 * contender later: the garbage one leaves is collected during the next one's run, so a fixed order would
 * always bill ours' to the engine's. Each one's runs, in the order given.
 */
export const alternate = async (contenders: ReadonlyArray<(i: number) => unknown>): Promise<number[][]> => {
  for (const assign of contenders) await timeAsync(assign, 0, PER_ROUND); // warm-up, not counted
  const runs = contenders.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++)
    for (let k = 0; k < contenders.length; k++) {
      const index = (round + k) % contenders.length;
      const assign = contenders[index] as (i: number) => unknown;
      runs[index]?.push(await timeAsync(assign, (round + 1) * PER_ROUND, PER_ROUND));
    }
  return runs;
};

/** Our SDK on a double of its own. */
export interface Ours {
  sdk: FeatureInstance;
  /** Closes the SDK (which sends what is pooled), then stops the double; later calls share the first. */
  close(): Promise<void>;
}

/** Starts our SDK in bucketing mode on a double serving `file`. */
export const startOurs = async (file: BucketingFile): Promise<Ours> => {
  const double = await startChildDouble(file);
  const sdk = await startBenchSdk(double.url, Mode.BUCKETING);
  let closing: Promise<void> | null = null;
  return {
    sdk,
    // Awaited: a close left running would send the pool while a peer is held to no network. Once only.
    close: () => (closing ??= sdk.close().finally(() => double.close())),
  };
};
