// `npm run check:packages` (run by .ci/run after the build): the two packages as a user receives them. Packs
// both (their prepack builds, skipped when dist/ is current), lints the tarballs (publint, arethetypeswrong),
// installs each into an empty project with no workspace link, then: starts the server from its tarball
// (`npx feature-server start` in an empty folder), runs the README's SDK quick start as written from the SDK
// tarball, `require`s the SDK from CommonJS, runs the README's "Testing your page" example with its
// web-test-runner config against the SDK tarball, and opens the README's plain HTML page in Chromium against that
// server. Prints the SDK's installed dependency count and size, and ends with "packages: N passed, N failed".
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/support/chromium-flags.js';
import { launchChromium } from '../test/support/chromium.js';
import { readmeExample } from '../test/support/wtr-readme-examples.js';

const ROOT = new URL('..', import.meta.url).pathname;
// @lit/reactive-element: the elements' base class (lit's own), imported from its own package because `lit`'s
// index has side effects that pull lit-html into the first render. The SDK imports nothing else of lit, so `lit`
// itself (with lit-html and lit-element) is no dependency: only the console, built here, uses it.
/** What an app that installs the SDK gets, and nothing more (DESIGN.md: only what browsers need). */
const SDK_DEPENDENCIES = ['@lit/context', '@lit/reactive-element', 'idb', 'nanostores'];
/** Server packages that must never reach an app through the SDK. */
const SERVER_ONLY = ['fastify', '@electric-sql/pglite', 'pg', 'pino'];

const work = mkdtempSync(join(tmpdir(), 'feature-packages-'));
const results: { name: string; error?: string }[] = [];
// Set by the server check, stopped at the end (an object: TypeScript cannot follow assignments in closures).
const started: { server: ChildProcess | null } = { server: null };

/** Runs one named check; a failure is recorded with its message and the next check still runs. */
const check = async (name: string, body: () => Promise<void> | void): Promise<void> => {
  const started = Date.now();
  try {
    await body();
    results.push({ name });
    console.log(`  ok    ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    results.push({ name, error: message });
    console.log(`  FAIL  ${name}\n        ${message.replaceAll('\n', '\n        ')}`);
  }
};

/** Runs a command to completion; throws with what it printed when it fails. */
const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string => {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status ?? result.signal}:\n${result.stdout}${result.stderr}`,
    );
  return result.stdout;
};

/**
 * `npm install`s `specs` into `dir` and fails on any warning npm printed (issue 35: an EBADENGINE warning for a
 * dependency that needs a newer Node than `engines` names is what a user meets first).
 */
const installClean = (specs: string[], dir: string): void => {
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', ...specs], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(
      `npm install exited ${result.status ?? result.signal}:\n${result.stdout}${result.stderr}`,
    );
  const warnings = `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => /^npm warn/i.test(line));
  if (warnings.length > 0) throw new Error(`npm install warned:\n${warnings.join('\n')}`);
};

/** An empty npm project (a folder with a bare package.json, nothing linked). */
const emptyProject = (name: string): string => {
  const dir = join(work, name);
  run('mkdir', ['-p', dir], work);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
  return dir;
};

const sizeOf = (path: string): number => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
};

const installed = (dir: string): string[] =>
  run('npm', ['ls', '--all', '--parseable', '--omit=dev'], dir)
    .split('\n')
    .filter((line) => line.includes('node_modules'))
    .map((line) => line.slice(line.lastIndexOf('node_modules/') + 'node_modules/'.length));

const tarballs: { sdk: string; server: string } = { sdk: '', server: '' };
const serverUrl = { url: '', envId: '', apiKey: '', consoleLink: '' };
let sdkApp = '';

const waitForBanner = (child: ChildProcess): Promise<typeof serverUrl> =>
  new Promise((resolve, reject) => {
    let printed = '';
    const timer = setTimeout(() => {
      reject(new Error(`the server printed no banner in 60 s:\n${printed}`));
    }, 60_000);
    const read = (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      const url = /Demo page:\s+(http:\/\/\S+?)\/ /.exec(printed)?.[1];
      const envId = /Environment id:\s+(\S+)/.exec(printed)?.[1];
      const apiKey = /API key:\s+(\S+)/.exec(printed)?.[1];
      const consoleLink = /Console:\s+(http:\/\/\S+#sign-in=\S+)/.exec(printed)?.[1];
      if (url !== undefined && envId !== undefined && apiKey !== undefined && consoleLink !== undefined) {
        clearTimeout(timer);
        resolve({ url, envId, apiKey, consoleLink });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before its banner:\n${printed}`));
    });
  });

console.log(`packages: checking in ${work}`);
try {
  await check('pack both packages (npm pack, with their prepack build)', () => {
    const packed = (workspace: string[]) => {
      const out = run('npm', ['pack', ...workspace, '--json', '--pack-destination', work], ROOT);
      const [info] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
      if (info === undefined) throw new Error('npm pack printed no file');
      return join(work, info.filename);
    };
    tarballs.sdk = packed([]);
    tarballs.server = packed(['-w', 'server']);
    const sdkFiles = run('tar', ['-tzf', tarballs.sdk], work).split('\n');
    // By name: the server package's files and drivers. `openfeature/server-provider` is the SDK's provider for
    // OpenFeature's server SDK (PROTOCOL.md §18.1), code an app runs, not server code.
    const serverCode = sdkFiles.filter(
      (file) => /server|fastify|pglite/i.test(file) && !/\/openfeature\/server-provider\./.test(file),
    );
    if (serverCode.length > 0) throw new Error(`the SDK tarball holds server code: ${serverCode.join(', ')}`);
  });

  await check('publint passes on both tarballs', () => {
    for (const tarball of [tarballs.sdk, tarballs.server])
      run(join(ROOT, 'node_modules/.bin/publint'), ['run', '--strict', tarball], work);
  });

  // esm-only: both packages are ES modules. CommonJS code `require`s them through Node's require(esm), on the
  // Node versions `engines` declares (>= 20.19); the check below proves it on the tarball.
  await check('arethetypeswrong passes on both tarballs (esm-only profile)', () => {
    for (const tarball of [tarballs.sdk, tarballs.server])
      run(
        join(ROOT, 'node_modules/.bin/attw'),
        [tarball, '--profile', 'esm-only', '--format', 'ascii'],
        work,
      );
  });

  await check('the SDK installs alone into an empty project, with only what browsers need', () => {
    sdkApp = emptyProject('sdk-app');
    installClean([tarballs.sdk], sdkApp);
    const manifest = JSON.parse(
      readFileSync(join(sdkApp, 'node_modules/feature-ts/package.json'), 'utf8'),
    ) as { dependencies?: Record<string, string> };
    const direct = Object.keys(manifest.dependencies ?? {}).sort();
    if (direct.join() !== SDK_DEPENDENCIES.join())
      throw new Error(`runtime dependencies ${direct.join(', ')}; expected ${SDK_DEPENDENCIES.join(', ')}`);
    const all = installed(sdkApp).filter((name) => name !== 'feature-ts');
    const leaked = all.filter((name) => SERVER_ONLY.includes(name));
    if (leaked.length > 0) throw new Error(`server packages installed with the SDK: ${leaked.join(', ')}`);
    const sdkBytes = sizeOf(join(sdkApp, 'node_modules/feature-ts'));
    const totalBytes = sizeOf(join(sdkApp, 'node_modules'));
    console.log(
      `        feature-ts: ${direct.length} runtime dependencies (${direct.join(', ')}), ${all.length} packages ` +
        `installed with it; node_modules ${(totalBytes / 1e6).toFixed(1)} MB, of which feature-ts ` +
        `${(sdkBytes / 1e6).toFixed(1)} MB`,
    );
  });

  await check('CommonJS code can require() the SDK', () => {
    writeFileSync(
      join(sdkApp, 'require.cjs'),
      "const { Feature, ConfigBuilder } = require('feature-ts');\n" +
        "if (typeof Feature.start !== 'function' || typeof ConfigBuilder !== 'function') process.exit(1);\n" +
        "console.log('required');\n",
    );
    const out = spawnSync(process.execPath, ['require.cjs'], { cwd: sdkApp, encoding: 'utf8' });
    if (out.status !== 0 || out.stdout.trim() !== 'required')
      throw new Error(`require('feature-ts') failed:\n${out.stdout}${out.stderr}`);
    if (out.stderr !== '') throw new Error(`require('feature-ts') warned:\n${out.stderr}`);
  });

  await check(
    'the README\'s "Testing your page" example runs with its web-test-runner config against the SDK tarball',
    () => {
      // The test tools a user adds (`npm i -D @web/test-runner @open-wc/testing`), linked from this repository
      // rather than downloaded; the SDK is the tarball's.
      for (const tool of ['@web/test-runner', '@web/test-runner-chrome', '@open-wc/testing']) {
        mkdirSync(join(sdkApp, 'node_modules', dirname(tool)), { recursive: true });
        symlinkSync(join(ROOT, 'node_modules', tool), join(sdkApp, 'node_modules', tool));
      }
      mkdirSync(join(sdkApp, 'test'), { recursive: true });
      const example = readmeExample('testing-your-page');
      writeFileSync(join(sdkApp, 'test/checkout.test.js'), example);
      writeFileSync(join(sdkApp, 'web-test-runner.config.mjs'), readmeExample('testing-your-page-config'));
      // The README's config as written, plus only what this machine needs: Debian's Chromium, as root.
      writeFileSync(
        join(sdkApp, 'web-test-runner.ci.config.mjs'),
        "import readme from './web-test-runner.config.mjs';\n" +
          "import { chromeLauncher } from '@web/test-runner-chrome';\n" +
          'export default { ...readme, browsers: [chromeLauncher({ launchOptions: ' +
          `{ executablePath: ${JSON.stringify(CHROMIUM)}, headless: true, args: ${JSON.stringify(CHROMIUM_ARGS)} } })] };\n`,
      );
      const out = run(
        process.execPath,
        [
          join(ROOT, 'node_modules/@web/test-runner/dist/bin.js'),
          'test/checkout.test.js',
          '--config',
          'web-test-runner.ci.config.mjs',
        ],
        sdkApp,
      );
      const counts = [...out.matchAll(/(\d+) passed, (\d+) failed/g)].at(-1);
      const tests = example.match(/^\s*it\(/gm)?.length ?? 0;
      if (counts?.[1] !== String(tests) || counts[2] !== '0')
        throw new Error(`expected ${tests} passed, 0 failed:\n${out}`);
      console.log(`        ${counts[0]}`);
    },
  );

  await check(
    '`npx feature-server start` runs from the server tarball in an empty folder (installed with no npm warning)',
    async () => {
      const serverApp = emptyProject('server-app');
      // The server depends on feature-ts, which comes from its tarball here (it is not on the registry).
      installClean([tarballs.sdk, tarballs.server], serverApp);
      const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1' };
      delete env.DATABASE_URL;
      delete env.FEATURE_DATA_DIR;
      // Its own process group: npx runs node under npm, and stopping the group stops all three. Its stdout is
      // a pipe, not a terminal, so the console sign-in link this check opens must be asked for.
      const server = spawn('npx', ['feature-server', 'start', '--sign-in-link'], {
        cwd: serverApp,
        env,
        stdio: 'pipe',
        detached: true,
      });
      started.server = server;
      Object.assign(serverUrl, await waitForBanner(server));
      for (const path of ['/', '/sdk/elements.js', '/sdk/core.js', '/demo/framework/']) {
        const res = await fetch(serverUrl.url + path);
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
      }
    },
  );

  await check("the README's SDK quick start runs as written against it", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = /<!-- sdk-quick-start -->([\s\S]*?)<!-- \/sdk-quick-start -->/.exec(readme)?.[1] ?? '';
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    const fileName = /`([\w-]+\.mjs)`/.exec(section)?.[1];
    if (code === undefined || fileName === undefined)
      throw new Error('the README has no quick start `js` block naming its .mjs file');
    writeFileSync(join(sdkApp, fileName), code);
    const printed = run(process.execPath, [fileName], sdkApp, {
      ...process.env,
      FEATURE_API_URL: serverUrl.url,
      FEATURE_ENV_ID: serverUrl.envId,
      FEATURE_API_KEY: serverUrl.apiKey,
    }).trim();
    // The expectation is the server's own decision for the snippet's visitor, not what the SDK says.
    const visitorId = /visitorId: '([^']+)'/.exec(code)?.[1] ?? '';
    const res = await fetch(`${serverUrl.url}/v2/${serverUrl.envId}/campaigns?exposeAllKeys=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': serverUrl.apiKey },
      body: JSON.stringify({ visitorId, context: {}, triggerHit: false, visitorConsent: true }),
    });
    const decision = (await res.json()) as {
      campaigns?: { variation: { name?: string; modifications: { value: Record<string, unknown> } } }[];
    };
    const values: Record<string, unknown> = {};
    for (const campaign of decision.campaigns ?? [])
      Object.assign(values, campaign.variation.modifications.value);
    const text = String(values.btnText);
    const color = String(values.btnColor);
    if (!printed.includes(`"${text}" in ${color}`))
      throw new Error(
        `printed ${JSON.stringify(printed)}; the server gives ${visitorId} "${text}" in ${color}`,
      );
    console.log(`        printed: ${printed}`);
  });

  await check("the README's plain HTML page runs in Chromium with /sdk/ from that server", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const snippet = /<!-- elements-quick-start -->[\s\S]*?```html\n([\s\S]*?)```/.exec(readme)?.[1];
    if (snippet === undefined) throw new Error('the README has no elements quick start');
    const page = join(work, 'checkout.html');
    writeFileSync(
      page,
      snippet
        .replaceAll('http://127.0.0.1:8080', serverUrl.url)
        .replace('ENV_ID', serverUrl.envId)
        .replace('API_KEY', serverUrl.apiKey),
    );
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.goto(pathToFileURL(page).href);
      await tab.waitForFunction(() => /You see the \w+ arm/.test(document.body.textContent), null, {
        timeout: 15_000,
      });
      const shown = await tab.evaluate(() => ({
        arm: document.querySelector('p')?.textContent ?? '',
        button: document.querySelector('button')?.textContent.trim() ?? '',
      }));
      if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
      if (shown.button === '') throw new Error('the button has no text');
      console.log(`        shown: ${shown.arm} (button "${shown.button}")`);
    } finally {
      await browser.close();
    }
  });

  await check(
    'the console opens from the sign-in link `start` printed, signed in, under its CSP',
    async () => {
      const browser = await launchChromium();
      try {
        const tab = await browser.newPage();
        const problems: string[] = [];
        tab.on('pageerror', (error) => problems.push(error.message));
        tab.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        await tab.goto(serverUrl.consoleLink);
        // Signed in: the header's account chooser lists the demo account.
        const chooser = tab.getByRole('combobox', { name: 'Account', exact: true });
        await chooser.waitFor({ timeout: 15_000 });
        const account = await chooser.evaluate(
          (select: HTMLSelectElement) => select.selectedOptions[0]?.text ?? '',
        );
        if (!/Demo/.test(account)) throw new Error(`the console shows account "${account}"`);
        if (tab.url().includes('sign-in=')) throw new Error('the spent link stayed in the address bar');
        if (problems.length > 0) throw new Error(`page errors: ${problems.join('; ')}`);
        console.log(`        signed in to the console of account "${account}"`);
      } finally {
        await browser.close();
      }
    },
  );
} finally {
  const server = started.server;
  if (server !== null) {
    if (server.exitCode === null && server.signalCode === null && server.pid !== undefined) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // The group is already gone (the server exited on its own, its failure reported above).
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    }
  }
  rmSync(work, { recursive: true, force: true });
}

const failed = results.filter((result) => result.error !== undefined).length;
console.log(`packages: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
