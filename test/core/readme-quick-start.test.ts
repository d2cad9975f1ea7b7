// The README's SDK quick start runs as written: its code block is extracted, `feature-ts` resolved to the
// Node entry, and run against the protocol double with FEATURE_API_URL pointing at it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startProtocolDouble } from '../support/protocol-double.js';
import { activationsReceived, campaign, decision, hitsReceived } from './support.js';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const section = /<!-- sdk-quick-start -->([\s\S]*?)<!-- \/sdk-quick-start -->/.exec(readme)?.[1] ?? '';
const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const file = new URL(`test/core/.readme-quick-start-${process.pid}.ts`, root);
after(() => rmSync(file, { force: true }));

void test('the README quick start runs as written against a server', async () => {
  assert.match(code, /Feature\.start/);
  const double = await startProtocolDouble({
    decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v2', { btnColor: 'green' })]),
  });
  const saved = process.env.FEATURE_API_URL;
  process.env.FEATURE_API_URL = double.url;
  const printed: unknown[][] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => printed.push(args);
  try {
    writeFileSync(
      file,
      code.replace("from 'feature-ts'", `from ${JSON.stringify(new URL('src/core/node.ts', root).href)}`),
    );
    await import(pathToFileURL(file.pathname).href);
  } finally {
    console.log = log;
    if (saved === undefined) delete process.env.FEATURE_API_URL;
    else process.env.FEATURE_API_URL = saved;
    await double.close();
  }
  assert.deepEqual(printed, [
    ['SDK status:', 'SDK_INITIALIZING'],
    ['SDK status:', 'SDK_INITIALIZED'],
    [true],
    ['button color:', 'green'],
    ['SDK status:', 'SDK_NOT_INITIALIZED'],
  ]);
  assert.equal(double.requestsTo('decision').length, 1);
  assert.deepEqual(
    activationsReceived(double).map((a) => a.vaid),
    ['v2'],
  );
  assert.deepEqual(
    hitsReceived(double).map((h) => h.ea),
    ['fs_consent', 'add_to_cart'],
  );
});
