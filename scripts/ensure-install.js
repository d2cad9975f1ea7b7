// The set-up `npm start` and `npm test` do on a fresh clone: install dependencies when node_modules is
// missing and, for tests, make sure Debian's Chromium is there (test tools never download a browser here).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync('node_modules/.package-lock.json')) {
  console.log('Installing dependencies (npm ci)…');
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (ci.status !== 0) {
    console.error('npm ci failed: check the network access to the npm registry, then run `npm ci` yourself.');
    process.exit(1);
  }
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
