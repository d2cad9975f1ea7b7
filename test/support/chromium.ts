// Debian's Chromium driven by playwright-core (never a downloaded browser), with the flags this machine needs
// as root (TOOLCHAIN.md): for tests and benches that load a page as a user would, with no bundler in between.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** Launches headless Chromium; throws with the package to install when it is missing. */
export const launchChromium = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install Debian's package (apt-get install -y chromium).`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
};
