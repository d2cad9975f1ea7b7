// Browser tests: Debian's Chromium (never a downloaded browser), TypeScript through esbuild with the
// project's tsconfig (lit decorators need it), and a reporter that writes the counts scripts/test.js adds up.
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter } from '@web/test-runner';
import { CHROMIUM, CHROMIUM_ARGS } from './test/support/chromium-flags.ts';
import { serverCommandsPlugin } from './test/support/wtr-commands.ts';
import { serverAppCommandsPlugin } from './test/support/wtr-server-commands.ts';
import { readmeExamplesPlugin } from './test/support/wtr-readme-examples.ts';

const countsReporter = () => ({
  onTestRunFinished({ sessions }) {
    let passed = 0;
    let failed = 0;
    const walk = (suite) => {
      for (const t of suite?.tests ?? []) {
        if (t.skipped) continue;
        if (t.passed) passed += 1;
        else failed += 1;
      }
      for (const s of suite?.suites ?? []) walk(s);
    };
    for (const session of sessions) {
      walk(session.testResults);
      if (!session.passed && (session.errors?.length ?? 0) > 0) failed += 1;
    }
    const file = process.env.WTR_COUNTS_FILE;
    if (file) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ passed, failed }));
    }
  },
});

/** Debian's Chromium, headless, with the flags this machine needs (never a downloaded browser). */
const chromium = () =>
  chromeLauncher({ launchOptions: { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS } });
/** The package's own specifiers, as its users import them, resolved to their sources. */
const SELF = {
  'feature-ts': '/src/core/index.ts',
  'feature-ts/testing': '/src/elements/testing/index.ts',
  'feature-ts/elements/define': '/src/elements/define.ts',
};
const REAL_QUOTA = 'test/core/tracking/hit-quota.browser.test.ts';

export default {
  files: ['test/**/*.browser.test.ts', `!${REAL_QUOTA}`],
  // The real-quota test sets a DevTools quota override on the origin. After other files have used the origin's
  // storage in the same browser, the override was seen not to take effect (cause not pinned down): it runs in a
  // browser of its own.
  groups: [{ name: 'real-quota', files: [REAL_QUOTA], browsers: [chromium()] }],
  // Production builds of lit and nanostores, as pages get them (development builds print a warning per file);
  // `feature-ts-source`: `#transport` (package.json `imports`) from src/, the fetch one (no `node` condition).
  nodeResolve: { exportConditions: ['browser', 'production', 'feature-ts-source'] },
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 180000,
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' }),
    // src/openfeature imports the SDK as `feature-ts` (its package's main entry): in Chromium tests that is the
    // browser entry's source, the module the tests start their instances from (tsconfig.json does the same for
    // Node). Without this, node-resolve would pick a built bundle: a second copy of the SDK. The README's
    // "Testing your page" example imports `feature-ts/testing` and `feature-ts/elements/define`, as an installed
    // package's user writes them: their sources too, so the example runs as written before any build.
    {
      name: 'feature-ts-self',
      resolveImport: ({ source }) => SELF[source],
    },
    readmeExamplesPlugin(),
    serverCommandsPlugin(),
    serverAppCommandsPlugin(),
  ],
  testRunnerHtml: (testFramework) => `<!doctype html><html><head>
    <script>window.process = { env: { NODE_ENV: 'development' } };</script>
    </head><body><script type="module" src="${testFramework}"></script></body></html>`,
  browsers: [chromium()],
  reporters: [defaultReporter(), countsReporter()],
};
