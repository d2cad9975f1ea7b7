// The protocol double in a process of its own, for the SDK benches: what it spends answering the SDK's
// requests (parsing hit batches) is then not counted as the SDK's. Prints its URL on stdout; serves the
// fixture as the bucketing file and answers every decision with {@link fiftyFlags}.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BucketingFile, Decision, JsonValue } from '../src/protocol/index.js';
import { startProtocolDouble } from '../test/support/protocol-double.js';

/** Flag `flag{i}`'s value: strings, numbers and booleans in turn. */
export const flagValue = (i: number): JsonValue => (i % 3 === 0 ? `v${i}` : i % 3 === 1 ? i : i % 2 === 0);

/** The decision of the read and memory figures: 50 flags over 10 campaigns, as a visitor of a busy page holds. */
export const fiftyFlags = (visitorId: string): Decision => ({
  visitorId,
  campaigns: Array.from({ length: 10 }, (_, c) => ({
    id: `c${c}`,
    name: `Campaign ${c}`,
    slug: null,
    type: 'ab',
    variationGroupId: `vg${c}`,
    variationGroupName: `Group ${c}`,
    variation: {
      id: `v${c}`,
      name: `Variation ${c}`,
      reference: false,
      modifications: {
        type: 'FLAG',
        value: Object.fromEntries(
          Array.from({ length: 5 }, (_, k) => [`flag${c * 5 + k}`, flagValue(c * 5 + k)]),
        ),
      },
    },
  })),
});

/** A double running in a child process: its URL, and how to stop it. */
export interface ChildDouble {
  url: string;
  close(): void;
}

/** Starts the double in a child process and resolves with its URL; it serves `file` (default the fixture). */
export const startChildDouble = (file?: BucketingFile): Promise<ChildDouble> =>
  new Promise((resolve, reject) => {
    let fileEnv: Record<string, string> = {};
    if (file !== undefined) {
      const path = join(mkdtempSync(join(tmpdir(), 'feature-bench-file-')), 'bucketing.json');
      writeFileSync(path, JSON.stringify(file));
      fileEnv = { BENCH_DOUBLE_FILE: path };
    }
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_DOUBLE_CHILD: '1', ...fileEnv },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => reject(new Error('the bench double did not start')), 30_000);
    child.stdout?.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve({ url: chunk.toString().trim(), close: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`the bench double exited (${String(code)})`)));
  });

if (process.env.BENCH_DOUBLE_CHILD === '1') {
  const file = JSON.parse(
    readFileSync(
      process.env.BENCH_DOUBLE_FILE ?? new URL('./fixtures/engine-50x2x3.json', import.meta.url),
      'utf8',
    ),
  ) as BucketingFile;
  const double = await startProtocolDouble({ bucketing: file, decide: (body) => fiftyFlags(body.visitorId) });
  process.stdout.write(`${double.url}\n`);
}
