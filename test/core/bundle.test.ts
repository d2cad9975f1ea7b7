// The built browser bundle (vite: the entry, the chunks of the SDK core's `import()` seams) runs the
// quick-start flow end to end, and a decision-API start loads none of bucketing mode's code. The other suites
// run the sources; this one catches what only the build can break: a chunk that does not load, or bucketing
// code pulled onto the start path. Node stands in for the browser with the few globals the SDK reads;
// IndexedDB is absent, so the caches take their memory fallback (and say so once).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
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
  // So is the live-update chunk: a start without `withLiveUpdates(true)` must not load it.
  const live = manifest['src/core/live/live-updates.ts'];
  assert.equal(live?.isDynamicEntry, true, 'live updates are a chunk of their own');
  writeFileSync(join(outDir, live.file), 'globalThis.liveChunkLoaded = true;\n');
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
  assert.equal(
    (globalThis as { liveChunkLoaded?: boolean }).liveChunkLoaded,
    undefined,
    'a start without live updates loaded their chunk',
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

/**
 * What a browser build holds of the two transports (issue 33): the transport modules its source maps list,
 * and the Node built-ins its scripts name. `#transport` resolves without the `node` condition there.
 */
const transportsIn = (dir: string): { modules: string[]; builtins: string[] } => {
  const modules = new Set<string>();
  const builtins: string[] = [];
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js') && !file.endsWith('.js.map')) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    if (file.endsWith('.js.map'))
      for (const source of (JSON.parse(text) as { sources: string[] }).sources)
        if (/net\/(node-transport|fetch-transport|fetch-stream)\.ts$/.test(source))
          modules.add(source.replace(/^.*src\//, 'src/'));
    if (file.endsWith('.js')) for (const m of text.matchAll(/node:\w+/g)) builtins.push(`${file}: ${m[0]}`);
  }
  return { modules: [...modules].sort(), builtins };
};

const FETCH_ONLY = {
  modules: ['src/core/net/fetch-stream.ts', 'src/core/net/fetch-transport.ts'],
  builtins: [],
};

void describe('browser bundles carry the fetch transport and none of the Node one', () => {
  void test('the library build (dist/browser)', () => {
    assert.deepEqual(transportsIn(outDir), FETCH_ONLY);
  });

  void test('the /sdk/ builds (dist/sdk): elements and core', () => {
    for (const mode of ['elements', 'core']) {
      const dir = mkdtempSync(join(tmpdir(), `feature-sdk-${mode}-`));
      try {
        const build = spawnSync(
          process.execPath,
          [
            ...['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.sdk.config.ts', '--mode', mode],
            ...['--outDir', dir, '--emptyOutDir', '--logLevel', 'error'],
          ],
          { encoding: 'utf8' },
        );
        assert.equal(build.status, 0, build.stderr);
        assert.deepEqual(transportsIn(dir), FETCH_ONLY, mode);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
