import { browserTestsEnabled, skippedNotice } from './browser.js';

/** Runs once per `vitest run`, before any test file, in the main process. */
export default function announceSkippedBrowserTests(): void {
  const notice = skippedNotice(browserTestsEnabled);
  if (notice) console.warn(notice);
}
