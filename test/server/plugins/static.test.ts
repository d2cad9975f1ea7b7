// The static routes: the framework demo's files (/demo/framework/) and the SDK bundles (/sdk/), each served
// from its folder with its content type, never a file outside it, a 404 (never a 500) for anything else; the
// bundles gzipped when accepted and revalidated by ETag; no framework route when its folder is not configured.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { startApp, type Running } from '../support.js';

const PAGE = '<!doctype html><title>framework demo</title>';
const SCRIPT = 'console.log("app");';

void describe('framework demo route', () => {
  let root: string;
  let store: Store;
  let withDemo: Running;
  let withoutDemo: Running;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'static-test-'));
    const demoDir = join(root, 'demo-framework');
    mkdirSync(join(demoDir, 'assets'), { recursive: true });
    writeFileSync(join(demoDir, 'index.html'), PAGE);
    writeFileSync(join(demoDir, 'assets', 'app.js'), SCRIPT);
    writeFileSync(join(root, 'secret.txt'), 'outside the folder');
    store = await openFreshPgliteStore();
    const base = { demoDir: join(root, 'demo'), sdkDir: join(root, 'sdk') };
    // The OpenFeature demo is served by the same code as the framework demo: the same folder stands in for both.
    withDemo = await startApp(store, {
      static: { ...base, frameworkDemoDir: demoDir, openfeatureDemoDir: demoDir },
    });
    withoutDemo = await startApp(store, { static: base });
  });
  after(async () => {
    await withDemo.close();
    await withoutDemo.close();
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = async (server: Running, path: string) => {
    const res = await fetch(server.url + path);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  void it('serves the page at /demo/framework/, with or without the slash and a query', async () => {
    for (const path of ['/demo/framework/', '/demo/framework', '/demo/framework/?env=e&key=k']) {
      const res = await get(withDemo, path);
      assert.equal(res.status, 200, path);
      assert.match(res.type, /^text\/html/, path);
      assert.equal(res.text, PAGE, path);
    }
  });

  void it('serves the OpenFeature demo at /demo/openfeature/, its assets, and no file outside its folder', async () => {
    for (const path of ['/demo/openfeature/', '/demo/openfeature']) {
      const res = await get(withDemo, path);
      assert.equal(res.status, 200, path);
      assert.equal(res.text, PAGE, path);
    }
    assert.equal((await get(withDemo, '/demo/openfeature/assets/app.js')).text, SCRIPT);
    const outside = await get(withDemo, '/demo/openfeature/..%2Fsecret.txt');
    assert.equal(outside.status, 404);
    assert.match(outside.text, /demo\/openfeature\/vite\.config\.ts/);
    assert.equal((await get(withoutDemo, '/demo/openfeature/')).status, 404);
  });

  void it('serves the built assets with their content type', async () => {
    const res = await get(withDemo, '/demo/framework/assets/app.js');
    assert.equal(res.status, 200);
    assert.match(res.type, /^text\/javascript/);
    assert.equal(res.text, SCRIPT);
  });

  void it('answers 404, never a file outside the folder nor a 500', async () => {
    for (const path of [
      '/demo/framework/missing.js',
      '/demo/framework/assets/',
      '/demo/framework/..%2Fsecret.txt',
      '/demo/framework/%2e%2e/secret.txt',
      '/demo/framework/%252e%252e%252fsecret.txt',
      '/demo/framework/%25E0%25A4%25A',
    ]) {
      const res = await get(withDemo, path);
      assert.equal(res.status, 404, path);
      assert.ok(!res.text.includes('outside the folder'), path);
    }
  });

  void it('has no route when no folder is configured', async () => {
    assert.equal((await get(withoutDemo, '/demo/framework/')).status, 404);
    assert.equal((await get(withoutDemo, '/demo/framework/assets/app.js')).status, 404);
  });
});

void describe('SDK bundles route (/sdk/)', () => {
  let root: string;
  let store: Store;
  let server: Running;
  const bundle = `export const feature = ${JSON.stringify('x'.repeat(2000))};\n`;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'static-sdk-test-'));
    mkdirSync(join(root, 'sdk', 'elements'), { recursive: true });
    writeFileSync(join(root, 'sdk', 'elements.js'), bundle);
    writeFileSync(join(root, 'sdk', 'elements', 'start.js'), 'export {};');
    store = await openFreshPgliteStore();
    server = await startApp(store, { static: { demoDir: join(root, 'demo'), sdkDir: join(root, 'sdk') } });
  });
  after(async () => {
    await server.close();
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  void it('sends gzip to a client that accepts it, identity otherwise, with CORS for module scripts', async () => {
    const zipped = await fetch(`${server.url}/sdk/elements.js`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers.get('content-encoding'), 'gzip');
    assert.ok(Number(zipped.headers.get('content-length')) < bundle.length / 10, 'compressed on the wire');
    assert.equal(zipped.headers.get('vary'), 'accept-encoding');
    assert.equal(zipped.headers.get('access-control-allow-origin'), '*');
    assert.equal(zipped.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(await zipped.text(), bundle); // fetch decompresses
    const plain = await fetch(`${server.url}/sdk/elements.js`, {
      headers: { 'accept-encoding': 'identity' },
    });
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal(Number(plain.headers.get('content-length')), bundle.length);
    assert.notEqual(plain.headers.get('etag'), zipped.headers.get('etag'), 'one ETag per encoding');
    assert.equal(await plain.text(), bundle);
  });

  void it('answers 304 to an unchanged ETag (no-cache revalidation), and serves chunks in folders', async () => {
    const first = await fetch(`${server.url}/sdk/elements/start.js`);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    assert.equal(first.headers.get('cache-control'), 'no-cache');
    const again = await fetch(`${server.url}/sdk/elements/start.js`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  void it('answers 404, never 500, to a missing file, an escape or a percent-encoded percent', async () => {
    for (const path of [
      '/sdk/missing.js',
      '/sdk/%25',
      '/sdk/%25E0%25A4%25A',
      '/sdk/..%2fsecret.txt',
      '/sdk/elements',
    ]) {
      const res = await fetch(server.url + path);
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
    }
  });
});
