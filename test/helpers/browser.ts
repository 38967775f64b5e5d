import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// Debian's Chromium driven by playwright-core, for the browser tests. Under CI=true a missing
// browser fails the run; elsewhere those tests are skipped with the reason printed.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const BROWSER_MISSING = !existsSync(CHROMIUM);
if (BROWSER_MISSING) {
  if (process.env.CI)
    throw new Error(`Chromium is required under CI but ${CHROMIUM} does not exist (apt-get install chromium).`);
  console.warn(
    `[tests] browser tests skipped: no Chromium at ${CHROMIUM}. Install the chromium package or set CHROMIUM_PATH.`,
  );
}

/** Headless, with nothing that would reach out to the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}
