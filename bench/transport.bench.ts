// Decision-API fetch in Node, CPU per request (issue 33): the SDK's decision request (PROTOCOL.md §3: the POST,
// its headers and body, the 50-flag answer read and parsed as a decision) through the Node transport
// (`node:http` with keep-alive, what `#transport` picks in Node) next to today's `fetch` path
// (fetch-transport.ts), against the protocol double in a process of its own so its CPU is not counted. CPU is
// process.cpuUsage (user + system, every thread: libuv's pool decodes, undici runs on the main one) over
// sequential requests, in alternated rounds bounded in count and time; the ratio is the median per round.
import { SDK_NAME, SDK_VERSION, decisionRoute, type DecisionRequest } from '../src/protocol/index.js';
import { parseDecision } from '../src/core/decision/api.js';
import { send as fetchSend } from '../src/core/net/fetch-transport.js';
import { send as nodeSend } from '../src/core/net/node-transport.js';
import type { Transport } from '../src/core/net/transport.js';
import { startChildDouble } from './double-child.js';
import { median, perRoundRatios, type Bench, type BenchRow } from './harness.js';

const PER_ROUND = 300;
const ROUNDS = 9;
const MAX_MS_PER_ROUND = 4_000;
const GOAL = 0.5;

/** One decision request as decision/api.ts sends it, its answer parsed; throws unless it is a decision. */
const decide = async (send: Transport, url: string, i: number): Promise<void> => {
  const body: DecisionRequest = {
    visitorId: `visitor-${i}`,
    anonymousId: null,
    context: { plan: 'premium', country: 'FR', fs_users: `visitor-${i}` },
    triggerHit: false,
    visitorConsent: true,
  };
  const res = await send({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'key1',
      'x-sdk-client': SDK_NAME,
      'x-sdk-version': SDK_VERSION,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok || parseDecision(JSON.parse(res.body)) === null) throw new Error(`no decision: ${res.status}`);
};

/** CPU µs per request over up to `count` sequential requests from `offset`, stopping early at the deadline. */
const cpuPerRequest = async (
  send: Transport,
  url: string,
  offset: number,
  count: number,
): Promise<number> => {
  const deadline = Date.now() + MAX_MS_PER_ROUND;
  const started = process.cpuUsage();
  let done = 0;
  while (done < count && (done < 20 || Date.now() < deadline)) await decide(send, url, offset + done++);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / done;
};

export const bench: Bench = async (): Promise<BenchRow[]> => {
  const double = await startChildDouble();
  try {
    const url = decisionRoute(`${double.url}/v2/`, 'env1');
    const contenders: Array<[string, Transport]> = [
      ['node', nodeSend],
      ['fetch', fetchSend],
    ];
    // Warm-up (JIT, connections), not counted.
    for (const [, send] of contenders) await cpuPerRequest(send, url, 0, PER_ROUND);
    const runs: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++)
      for (const [index, [, send]] of contenders.entries())
        runs[index]?.push(await cpuPerRequest(send, url, (round + 1) * PER_ROUND, PER_ROUND));
    const [node = [], fetch = []] = runs;
    const ratio = median(perRoundRatios(node, fetch));
    return [
      {
        figure: 'decision-API fetch in Node, CPU per request (node:http keep-alive transport)',
        value: median(node),
        unit: 'µs CPU/req',
        baseline: { figure: "today's fetch path", value: median(fetch) },
        ratio: { value: ratio, goal: `≤ ${GOAL}×`, met: ratio <= GOAL },
        note: `${ROUNDS} alternated rounds of ≤ ${PER_ROUND} sequential decisions (50 flags) to a double in its own process; ratio = median per round`,
      },
    ];
  } finally {
    double.close();
  }
};
