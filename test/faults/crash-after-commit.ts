import { existsSync } from 'node:fs';
import path from 'node:path';
import { observeCommits } from '../../src/server/events/group-commit.js';

/**
 * Preloaded into a server process (`start(…, { preload })`): once the file
 * `crash-after-next-commit` exists in its DATA_DIR, the process dies
 * (SIGKILL) right after its next commit, before that commit's writes are
 * answered — a crash between a write and its answer.
 */
const ARM_FILE = 'crash-after-next-commit';

const armed = path.join(process.env.DATA_DIR ?? '.', ARM_FILE);
observeCommits(() => {
  if (existsSync(armed)) process.kill(process.pid, 'SIGKILL');
});
