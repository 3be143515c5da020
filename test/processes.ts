import { spawn, type ChildProcess } from 'node:child_process';
import { createEmailVerificationToken } from 'better-auth/api';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../src/server/version.js';

/** The AUTH_SECRET of the processes started here; `account` signs its address confirmation with it. */
const PROCESS_SECRET = 'scale-out-secret-scale-out-secret-0123';

/** A real server process (src/server/main.ts) on its own port and DATA_DIR, for tests of several processes on one database. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  dataDir: string;
  /** Whether `stop` removes `dataDir` (not when several processes share one). */
  ownsDataDir?: boolean;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * `options.dataDir`: a DATA_DIR shared with other processes (kept by `stop`); by default one of its own.
 * `options.main`: the script to run (a built `main.js`); by default the sources through tsx.
 * `options.preload`: modules (paths from the project root) imported before the sources, e.g. a fault to inject.
 */
export async function start(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: { dataDir?: string; main?: string; preload?: string[] } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'tavla-proc-'));
  const url = `http://127.0.0.1:${port}`;
  const preload = (options.preload ?? []).flatMap((module) => ['--import', `./${module}`]);
  const entry = options.main ? [options.main] : ['--import', 'tsx', ...preload, 'src/server/main.ts'];
  const child = spawn(process.execPath, entry, {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: PROCESS_SECRET,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { child, url, dataDir, ownsDataDir };
}

export async function healthy(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become healthy`);
}

export async function account(
  url: string,
  email = 'scale@example.test',
): Promise<{ key: string; userId: string; cookie: string }> {
  const headers = { 'content-type': 'application/json', origin: url };
  const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Scaler', email, password: 'scale-out-password' }),
  });
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { user } = (await signUp.json()) as { user: { id: string } };
  // The link the confirmation mail carries, made as the server makes it: only a confirmed address may make keys.
  const token = await createEmailVerificationToken(PROCESS_SECRET, email, undefined, 3600, { userId: user.id });
  const verified = await fetch(`${url}/api/auth/verify-email?token=${token}`, { redirect: 'manual' });
  if (!verified.ok) throw new Error(`verify-email: ${verified.status}`);
  const created = await fetch(`${url}/api/auth/api-key/create`, {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({ name: 'scale' }),
  });
  const { key } = (await created.json()) as { key: string };
  return { key, userId: user.id, cookie };
}

/** Stops a server process and removes its DATA_DIR. */
export async function stop(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
  if (server.ownsDataDir !== false) rmSync(server.dataDir, { recursive: true, force: true });
}

/** Kills a server process outright (SIGKILL: no shutdown, no goodbye) and waits until it is gone. */
export async function kill(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}
