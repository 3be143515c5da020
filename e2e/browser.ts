import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The browser tests run where Chromium is installed; in CI its absence is a failure, not a skip. */
export const browserTestsEnabled = existsSync(CHROMIUM) || Boolean(process.env.CI);

/** The one line a run prints when it skips the browser tests, so that they are not mistaken for passing ones; else null. */
export function skippedNotice(enabled: boolean): string | null {
  if (enabled) return null;
  return `Browser tests (e2e/) skipped: no Chromium at ${CHROMIUM}. Install it to run them (Debian: apt-get install -y chromium).`;
}

/** Debian's Chromium, headless, with what it tries to fetch or set up on first run turned off (no network here). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}
