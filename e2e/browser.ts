import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** The browser tests run where Chromium is installed; in CI its absence is a failure, not a skip. */
export const browserTestsEnabled = existsSync(CHROMIUM) || Boolean(process.env.CI);

/** The one line a run prints when it skips the browser tests, so that they are not mistaken for passing ones; else null. */
export function skippedNotice(enabled: boolean): string | null {
  if (enabled) return null;
  return `Browser tests (e2e/) skipped: no Chromium at ${CHROMIUM}. Install it to run them (Debian: apt-get install -y chromium).`;
}
