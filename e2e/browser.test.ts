import { expect, it } from 'vitest';
import { CHROMIUM, skippedNotice } from './browser.js';

it('says in one line that the browser tests are skipped without Chromium, and how to install it', () => {
  const notice = skippedNotice(false)!;
  expect(notice).toContain(CHROMIUM);
  expect(notice).toContain('apt-get install -y chromium');
  expect(notice).not.toContain('\n');
  expect(skippedNotice(true)).toBeNull();
});
