// The built browser bundle (vite: the entry, the chunks of the SDK core's two `import()` seams) runs the
// quick-start flow end to end, and a decision-API start loads none of bucketing mode's code. The other suites
// run the sources; this one catches what only the build can break: a chunk that does not load, or bucketing
// code pulled onto the start path. Node stands in for the browser with the few globals the SDK reads;
// IndexedDB is absent, so the caches take their memory fallback (and say so once).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startProtocolDouble, type ProtocolDouble } from '../support/protocol-double.js';
import { activationsReceived, campaign, decision, hitsReceived, recordingLogs } from './support.js';

type Sdk = typeof import('../../src/core/index.js');

const outDir = mkdtempSync(join(tmpdir(), 'feature-bundle-'));
let sdk: Sdk;
let double: ProtocolDouble;

before(async () => {
  const build = spawnSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--manifest', '--logLevel', 'error'],
    { encoding: 'utf8' },
  );
  assert.equal(build.status, 0, build.stderr);
  // Bucketing mode's chunk is replaced by one that only says it was loaded: a decision-API start must not.
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; isDynamicEntry?: boolean }
  >;
  const bucketing = manifest['src/core/decision/bucketing.ts'];
  assert.equal(bucketing?.isDynamicEntry, true, 'bucketing mode is a chunk of its own');
  writeFileSync(join(outDir, bucketing.file), 'globalThis.bucketingChunkLoaded = true;\n');
  const listeners = { addEventListener: () => undefined, removeEventListener: () => undefined };
  Object.assign(globalThis, listeners, {
    location: { origin: 'http://127.0.0.1:1' },
    document: { ...listeners, visibilityState: 'visible' },
  });
  Object.defineProperty(globalThis, 'navigator', {
    configurable: true,
    value: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', language: 'fr-FR' },
  });
  sdk = (await import(pathToFileURL(join(outDir, 'core.js')).href)) as Sdk;
  double = await startProtocolDouble({
    decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v2', { btnColor: 'green' })]),
  });
});

after(async () => {
  await double.close();
  rmSync(outDir, { recursive: true, force: true });
});

void test('the built bundle starts, decides, exposes, sends a hit and flushes at close, with no bucketing code', async () => {
  const { ConfigBuilder, FSSdkStatus, FeatureInstance, Level, Page } = sdk;
  const logs = recordingLogs();
  const statuses: string[] = [];
  const instance = new FeatureInstance();
  await instance.start(
    'env1',
    'key1',
    new ConfigBuilder()
      .withServerUrl(double.url)
      .withLogLevel(Level.ALL)
      .withLogManager(logs.manager)
      .onSdkStatusChanged((s) => statuses.push(s))
      .build(),
  );
  const visitor = instance
    .newVisitor({ visitorId: 'v1', hasConsented: true })
    .withContext({ plan: 'pro' })
    .build();
  assert.equal(visitor.context.sdk_deviceLanguage, 'fr-FR');
  assert.equal(visitor.context.sdk_osName, 'Linux');
  await visitor.fetchFlags();
  assert.equal(visitor.flagStatus, 'FETCHED');
  assert.equal(visitor.getFlag('btnColor').value('red'), 'green');
  await visitor.getFlag('btnColor').visitorExposed();
  await visitor.sendHit(new Page({ location: 'https://shop.example/cart' }));
  visitor.authenticate('user-42');
  await visitor.fetchFlags();
  await instance.close();
  assert.deepEqual(statuses, [
    FSSdkStatus.SDK_INITIALIZING,
    FSSdkStatus.SDK_INITIALIZED,
    FSSdkStatus.SDK_NOT_INITIALIZED,
  ]);
  assert.deepEqual(
    activationsReceived(double).map((a) => [a.vid, a.caid, a.vaid]),
    [['v1', 'vg1', 'v2']],
  );
  assert.deepEqual(
    hitsReceived(double).map((h) => [h.t, h.ea ?? h.dl]),
    [
      ['EVENT', 'fs_consent'],
      ['PAGEVIEW', 'https://shop.example/cart'],
    ],
  );
  assert.equal(
    (globalThis as { bucketingChunkLoaded?: boolean }).bucketingChunkLoaded,
    undefined,
    "a decision-API start loaded bucketing mode's chunk",
  );
  const problems = logs.lines.filter((l) => l.level === 'ERROR' || l.level === 'WARNING');
  assert.deepEqual(
    problems.map((l) => l.message.replace(/ \(.*\)/, '')),
    [
      // The caches' database is the environment's own (the first-start mark's failure goes to the console).
      'Storage: IndexedDB "feature-ts:env1" failed; caching in memory instead',
      'experience continuity is off: variations may change after authenticate.',
    ],
  );
});
