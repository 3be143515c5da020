import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../src/server/version.js';

const webDist = path.join(projectRoot, 'dist/web');
const webSources = [
  path.join(projectRoot, 'src/web'),
  path.join(projectRoot, 'src/shared'),
  path.join(projectRoot, 'vite.config.ts'),
];

function newestMtime(target: string): number {
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function webIsFresh(): boolean {
  const index = path.join(webDist, 'index.html');
  if (!existsSync(index)) return false;
  const built = statSync(index).mtimeMs;
  return webSources.every((source) => !existsSync(source) || newestMtime(source) <= built);
}

/**
 * Builds the web app (Vite's build API) unless `dist/web` is newer than its
 * sources. Test files run in parallel processes: a lock directory makes one
 * of them build while the others wait.
 */
export async function ensureWebBuilt(): Promise<void> {
  const lock = path.join(projectRoot, 'dist/.web-build.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (webIsFresh()) return;
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; a lock older than two minutes is left over from a crash.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('timed out waiting for the web build');
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (!webIsFresh()) {
        const { build } = await import('vite');
        await build({ configFile: path.join(projectRoot, 'vite.config.ts'), logLevel: 'warn' });
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
