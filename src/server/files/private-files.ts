import { statSync } from 'node:fs';

/**
 * Makes every folder this process creates 0700 and every file 0600. DATA_DIR
 * holds the SQLite database, uploads, mails with their links, the auth secret
 * and exports, some written by libraries (SQLite and its journal): a process
 * umask covers them all, where a mode at each write would miss some.
 */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}

/** Whether an existing DATA_DIR lets other accounts in (made before this rule, or by hand). */
export function isDataDirExposed(dataDir: string): boolean {
  try {
    return (statSync(dataDir).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}
