// The README's SDK quick start runs exactly as written: its `js` block is extracted, saved as the `.mjs` file
// the README names (only `feature-ts` resolved to the Node entry, as an installed package would be), and run
// against the project's own server seeded with the demo campaigns, with the env id and API key passed through
// the environment variables the snippet reads. The expected line is built from demoCampaigns(), not the SDK.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, test } from 'node:test';
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
    writeFileSync(
      file,
      code.replace("from 'feature-ts'", `from ${JSON.stringify(new URL('src/core/node.ts', root).href)}`),
    );
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
