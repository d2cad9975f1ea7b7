// The README's SDK quick start runs exactly as written: its `js` block is extracted, saved as the `.mjs` file
// the README names (only `feature-ts` resolved to the Node entry, as an installed package would be), and run
// against the project's own server seeded with the demo campaigns, with the env id and API key passed through
// the environment variables the snippet reads. The expected line is built from demoCampaigns(), not the SDK.
// Then the same file runs as a process of its own against a closed port (issue 35): it must fail loudly, name
// FEATURE_API_URL, print that the defaults were used, and say how many hits were lost and how to keep them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { demoCampaigns } from '../../server/src/demo-seed.js';
import { seedEnvironment, startApp } from '../server/support.js';
import { openFreshPgliteStore } from '../server/template-data-dir.js';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const section = /<!-- sdk-quick-start -->([\s\S]*?)<!-- \/sdk-quick-start -->/.exec(readme)?.[1] ?? '';
const code = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const file = new URL(`test/core/.readme-quick-start-${process.pid}.mjs`, root);
after(() => rmSync(file, { force: true }));

/** Saves the snippet, `feature-ts` resolved to the Node entry's source. */
const writeSnippet = (): void =>
  writeFileSync(
    file,
    code.replace("from 'feature-ts'", `from ${JSON.stringify(new URL('src/core/node.ts', root).href)}`),
  );

/** What the snippet prints for each arm of the demo's checkout test, from the seed's own values. */
const expectedLines = (visitorId: string): string[] => {
  const checkout = demoCampaigns().find((c) => c.id === 'demo-checkout-button');
  const arms = checkout?.variationGroups[0]?.variations ?? [];
  assert.equal(arms.length, 2, 'the demo A/B test has two arms');
  return arms.map((arm) => {
    const { btnColor, btnText } = arm.modifications.value;
    assert.ok(typeof btnColor === 'string' && typeof btnText === 'string', `${arm.name} sets both flags`);
    return `${visitorId} sees "${arm.name}": "${btnText}" in ${btnColor}`;
  });
};

void test('the README quick start runs as written against the demo of the server', async () => {
  assert.match(section, /\.mjs/, 'the README says the snippet is ESM');
  assert.match(code, /process\.env\.FEATURE_ENV_ID/);
  assert.match(code, /process\.env\.FEATURE_API_KEY/);
  assert.equal((code.match(/from 'feature-ts'/g) ?? []).length, 1, 'one import, from the package');
  // A copy of a migrated folder: in memory, opening would run initdb and every migration.
  const store = await openFreshPgliteStore();
  const { envId, apiKey } = await seedEnvironment(store, demoCampaigns(), { enabledXPC: true });
  const server = await startApp(store);
  const saved = { ...process.env };
  process.env.FEATURE_API_URL = server.url;
  process.env.FEATURE_ENV_ID = envId;
  process.env.FEATURE_API_KEY = apiKey;
  const printed: unknown[][] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => printed.push(args);
  try {
    writeSnippet();
    await import(pathToFileURL(file.pathname).href);
  } finally {
    console.log = log;
    // Node's process.env cannot be replaced with a plain object: restore its three keys one by one.
    for (const [name, value] of [
      ['FEATURE_API_URL', saved.FEATURE_API_URL],
      ['FEATURE_ENV_ID', saved.FEATURE_ENV_ID],
      ['FEATURE_API_KEY', saved.FEATURE_API_KEY],
    ] as const)
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    await server.close();
    await store.close();
  }
  assert.equal(printed.length, 1, JSON.stringify(printed));
  const [line] = printed[0] ?? [];
  const visitorId = /visitorId: '([^']+)'/.exec(code)?.[1] ?? '';
  assert.ok(
    expectedLines(visitorId).includes(String(line)),
    `printed ${JSON.stringify(line)}; expected one of ${JSON.stringify(expectedLines(visitorId))}`,
  );
});

void test('the README quick start against a closed port exits 1, names FEATURE_API_URL and counts the hits lost', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const url = `http://127.0.0.1:${port}`;
  writeSnippet();
  const failure = await promisify(execFile)(process.execPath, ['--import', 'tsx', file.pathname], {
    env: { ...process.env, FEATURE_API_URL: url, FEATURE_ENV_ID: 'env1', FEATURE_API_KEY: 'key1' },
    timeout: 60_000,
  }).then(
    () => null,
    (error: unknown) => error as { code?: unknown; stdout: string; stderr: string },
  );
  assert.ok(failure, 'the script exits with an error code');
  assert.equal(failure.code, 1, failure.stderr);
  const stdout = failure.stdout.trim();
  // The snippet's own defaults: the values it passes to value().
  const [color, text] = [...code.matchAll(/\.value\('([^']+)'\)/g)].map((m) => m[1]);
  assert.equal(stdout, `visitor-1 sees the defaults ("${text}" in ${color}): FLAGS_FETCHING_ERROR`);
  const lines = failure.stderr.trim().split('\n');
  const fetchError = lines.find((l) => l.includes('fetchFlags failed')) ?? '';
  assert.ok(fetchError.includes(`ECONNREFUSED 127.0.0.1:${port}`), failure.stderr);
  assert.ok(
    fetchError.includes(`No server could be reached at ${url}, taken from FEATURE_API_URL`),
    fetchError,
  );
  // The consent event and add_to_cart, tried at close and once more, then lost with Node's memory cache.
  const lost = lines.find((l) => l.includes('lost when this process ends')) ?? '';
  assert.ok(lost.includes('Tracking: 2 hits not delivered by close() are lost'), failure.stderr);
  assert.match(lost, /'feature-ts\/file-hit-cache'.*'feature-ts\/redis'/);
});
