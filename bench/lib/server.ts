import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { processCpuSeconds } from './machine.js';

/** The repository root (bench/lib/../..). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Tavla's configuration variables: none leaks in from the caller's environment. */
const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'BASE_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'LANGUAGE',
  'SMTP_URL',
  'SIGNUP',
  'AUTH_SECRET',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'ADMIN_NAME',
  'MAX_UPLOAD_MB',
  'ARCHIVE_RETENTION_DAYS',
  'SIGNIN_RATE_LIMIT',
  'TRUST_PROXY',
  'LOG_LEVEL',
];

export interface ServerOptions {
  dataDir: string;
  /** undefined = the default SQLite file in `dataDir`. */
  databaseUrl: string | undefined;
  /** When set, the server runs with `--cpu-prof` and writes its profile here on exit. */
  profileDir?: string | undefined;
  /**
   * Run the built server (`node dist/server/main.js`, what `npm start` runs
   * after building) instead of the sources through tsx. Uses the `dist` that is
   * there: build it first (`npm run build`).
   */
  built?: boolean;
  /** Bench only: a file for bench/lib/pg-trace.ts to count the pool's statements into (sources only). */
  pgTrace?: string | undefined;
  /** How long to wait for `GET /api/health` to answer 200. */
  startTimeoutMs?: number;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Peak resident set size (VmHWM) in kB, read just before the stop signal; null when not readable. */
  peakRssKb: number | null;
}

export interface RunningServer {
  baseUrl: string;
  pid: number;
  /** The command line, for the report. */
  command: string;
  /** Peak RSS so far (VmHWM from /proc), in kB. */
  peakRssKb(): number | null;
  /** CPU seconds (user + system) the server process has used so far; null when /proc is not readable. */
  cpuSeconds(): number | null;
  /** The last lines the server wrote (stdout and stderr). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. Safe to call twice. */
  stop(graceMs?: number): Promise<ServerExit>;
}

/**
 * Starts the server from source (`node --import tsx src/server/main.ts`), or
 * the built one with `built`, as a child process, so the load generator never shares the server's event loop,
 * and waits until `GET /api/health` answers 200.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', BASE_URL: baseUrl, DATA_DIR: options.dataDir, LOG_LEVEL: 'warn' });
  // The fan-out scenarios open their 1,000 viewers with one key from one address: they measure delivery, not the bounds.
  Object.assign(env, { SOCKETS_PER_ADDRESS: '100000', SOCKETS_PER_ACCOUNT: '100000', SOCKETS_PER_PUBLIC_LINK: '100000' });
  if (options.databaseUrl !== undefined) env.DATABASE_URL = options.databaseUrl;

  if (options.pgTrace) env.BENCH_PG_TRACE = options.pgTrace;
  const trace = options.pgTrace ? ['--import', './bench/lib/pg-trace.ts'] : [];
  const entry = options.built ? ['dist/server/main.js'] : ['--import', 'tsx', ...trace, 'src/server/main.ts'];
  if (options.built && !existsSync(path.join(PROJECT_ROOT, entry[0]!))) {
    throw new Error(`--built needs ${entry[0]}: run npm run build first`);
  }
  const nodeArgs = [...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []), ...entry];
  const child = spawn(process.execPath, nodeArgs, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server process did not start');

  let tail = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    tail = (tail + text).slice(-16_384);
    // LOG_LEVEL=warn: whatever the server says during a run is worth seeing.
    for (const line of text.split('\n')) if (line.trim() !== '') process.stderr.write(`[server] ${line}\n`);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });

  const peakRssKb = (): number | null => {
    try {
      const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) : null;
    } catch {
      return null;
    }
  };

  const cpuSeconds = () => processCpuSeconds(pid);

  let stopping: Promise<ServerExit> | null = null;
  const stop = (graceMs = 15_000): Promise<ServerExit> => {
    stopping ??= (async () => {
      const peak = peakRssKb();
      if (exit) return { ...exit, peakRssKb: peak };
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return { ...result, peakRssKb: peak };
    })();
    return stopping;
  };

  const server: RunningServer = {
    baseUrl,
    pid,
    command: `node ${nodeArgs.join(' ')}`,
    peakRssKb,
    cpuSeconds,
    output: () => tail,
    stop,
  };

  try {
    await waitForHealth(baseUrl, options.startTimeoutMs ?? 60_000, () => exit);
  } catch (error) {
    await stop(2_000);
    throw error;
  }
  return server;
}

async function waitForHealth(
  baseUrl: string,
  timeoutMs: number,
  exited: () => { code: number | null; signal: NodeJS.Signals | null } | null,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    const gone = exited();
    if (gone) throw new Error(`the server exited during start-up (code ${gone.code}, signal ${gone.signal})`);
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`GET /api/health did not answer 200 within ${timeoutMs} ms (last: ${last})`);
}

/** A port nothing listens on right now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/**
 * Starts `count` servers at once on one database and one `DATA_DIR`, as
 * several processes behind a load balancer run (PostgreSQL only: a SQLite
 * file serves one process). The migration lock lets one of them migrate.
 * If any fails to start, the others are stopped again.
 */
export async function startServers(options: ServerOptions, count: number): Promise<RunningServer[]> {
  if (options.databaseUrl === undefined) throw new Error('several processes need PostgreSQL (--db postgres)');
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer(options)));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.stop(2_000)));
    throw failed.reason;
  }
  return servers;
}
