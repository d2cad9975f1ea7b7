// Hits survive a restart with the file hit cache (issue 35): a first process sends hits while its server is
// down, closes (one attempt, one retry, both refused) and exits; its log says the hits stay in the cache. A
// second process, started on the same file with the server up, sends them at start: the server receives
// exactly the hids the first process left in the file (read from the file, not from the SDK), and the file
// is gone once they are acknowledged. Real processes, a protocol double on 127.0.0.1.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import { startProtocolDouble } from '../../support/protocol-double.js';
import type { RestartTask } from './file-hit-cache-process.js';

const run = promisify(execFile);
const script = new URL('./file-hit-cache-process.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'feature-ts-restart-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one SDK process to its end; its stderr is the SDK's log. */
const sdkProcess = async (task: RestartTask): Promise<string> => {
  const { stderr } = await run(process.execPath, ['--import', 'tsx', script, JSON.stringify(task)], {
    timeout: 60_000,
  });
  return stderr;
};

/** A port nothing listens on (bound, then closed). */
const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
};

void test('hits a process could not deliver are kept in the file and sent by the next process', async () => {
  const path = join(dir, 'hits-env1.json');
  const task = { path, envId: 'env1', apiKey: 'key1' };
  const down = `http://127.0.0.1:${await closedPort()}`;
  const firstLog = await sdkProcess({ ...task, serverUrl: down, hits: 3 });
  assert.match(firstLog, /ECONNREFUSED/);
  // Three events and the visitor's consent event (PROTOCOL.md §5.1).
  assert.match(
    firstLog,
    /4 hits not delivered by close\(\) stay in the hit cache and are sent at the next start/,
  );
  const left = JSON.parse(readFileSync(path, 'utf8')) as Record<string, HitCacheRecord>;
  const hids = Object.keys(left).sort();
  assert.equal(hids.length, 4);
  assert.equal(Object.values(left).filter((r) => r.data.content.action === 'restart-test').length, 3);

  const double = await startProtocolDouble({ envId: 'env1', apiKey: 'key1' });
  try {
    const secondLog = await sdkProcess({ ...task, serverUrl: double.url, hits: 0 });
    const received = double
      .requestsTo('events')
      .flatMap((r) => (r.body as { h: Array<{ hid: string }> }).h.map((h) => h.hid));
    assert.deepEqual(received.sort(), hids, secondLog);
    assert.equal(existsSync(path), false, 'acknowledged, so nothing is left in the file');
  } finally {
    await double.close();
  }
});
