// The set-up `npm start` and `npm test` do on a fresh clone: install dependencies when node_modules is
// missing and, for tests, make sure Debian's Chromium is there (test tools never download a browser here).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
/** How often a line says the install is still going: npm prints nothing for minutes when not on a terminal. */
const PROGRESS_EVERY_MS = 5000;

/** How many packages node_modules holds so far (scoped ones counted one by one). */
const installedCount = () => {
  try {
    return readdirSync('node_modules', { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .reduce(
        (sum, entry) =>
          sum + (entry.name.startsWith('@') ? readdirSync(`node_modules/${entry.name}`).length : 1),
        0,
      );
  } catch {
    return 0;
  }
};

if (!existsSync('node_modules/.package-lock.json')) {
  console.log('Installing dependencies (npm ci, about 700 packages; a line every 5 s while it runs)…');
  const started = Date.now();
  const status = await new Promise((resolve) => {
    const ci = spawn('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
    const progress = setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`  npm ci: ${seconds} s, ${installedCount()} packages in node_modules so far…`);
    }, PROGRESS_EVERY_MS);
    ci.on('exit', (code) => {
      clearInterval(progress);
      resolve(code);
    });
    ci.on('error', (error) => {
      clearInterval(progress);
      console.error(`npm ci could not start: ${error.message}`);
      resolve(1);
    });
  });
  if (status !== 0) {
    console.error('npm ci failed: check the network access to the npm registry, then run `npm ci` yourself.');
    process.exit(1);
  }
  console.log(`Dependencies installed in ${Math.round((Date.now() - started) / 1000)} s.`);
}

if (process.argv.includes('--browser') && !existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log("Browser tests need Debian's chromium: installing it (apt-get install -y chromium)…");
    try {
      execFileSync('apt-get', ['update'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit' });
    } catch {
      console.error(
        'Installing chromium failed: run `apt-get install -y chromium` as root, then `npm test`.',
      );
      process.exit(1);
    }
  } else {
    console.error(
      `Browser tests need Chromium at ${CHROMIUM}. Install Debian's package "chromium" ` +
        '(sudo apt-get install chromium), then run `npm test` again.',
    );
    process.exit(1);
  }
}
