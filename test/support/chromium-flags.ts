// Debian's Chromium and the flags it needs here as root (TOOLCHAIN.md), for every tool that launches it:
// web-test-runner and the playwright-core pages of tests and benches.

/** Debian's Chromium (test tools never download a browser here). */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium as root on this machine: no sandbox, no GPU, no background network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
