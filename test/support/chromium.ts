// Debian's Chromium driven by playwright-core (never a downloaded browser), with the flags this machine needs
// as root (TOOLCHAIN.md): for tests and benches that load a page as a user would, with no bundler in between.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium-flags.js';

/** Launches headless Chromium; throws with the package to install when it is missing. */
export const launchChromium = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install Debian's package (apt-get install -y chromium).`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
};
