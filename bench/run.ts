/**
 * npm run bench -- <scenario> [--db sqlite|postgres] [--seconds N] [--connections N] [--profile [--profile-dir DIR]] [--keep] [--built]
 *
 * Starts the server from source as a child process on a fresh database,
 * seeds it through the HTTP API, puts a fixed-duration load on it with
 * autocannon, verifies the data, stops the server and cleans up. Exit code:
 * 0 measured (budgets are reported, not enforced), 1 a verification failed,
 * 2 the run itself failed (bad arguments, server did not start, seeding failed).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Api, ApiError } from './lib/api.js';
import { createBenchDatabase, type BenchDatabase, type DbKind } from './lib/database.js';
import { machineBusySeconds, processTable, topConsumers } from './lib/machine.js';
import { formatProfile, profilesIn, summariseProfile } from './lib/profile.js';
import { explainTrace, formatTrace, summariseTrace } from './lib/pg-trace-summary.js';
import { formatObservation, formatReport, judge } from './lib/report.js';
import { budgetsFor, type Check, type ScenarioContext } from './lib/scenario.js';
import { PROJECT_ROOT, startServer, type RunningServer, type ServerExit } from './lib/server.js';
import { scenarios } from './scenarios/index.js';

const USAGE = `usage: npm run bench -- <scenario> [--db sqlite|postgres] [--seconds N] [--connections N] [--profile [--profile-dir DIR]] [--keep] [--built] [--trace-pg] [--json FILE]
scenarios:
${Object.values(scenarios)
  .map((s) => `  ${s.name.padEnd(8)} ${s.summary} (${s.defaults.connections} connections, ${s.defaults.seconds} s)`)
  .join('\n')}
--db postgres creates a fresh database on BENCH_DATABASE_URL, TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres
--profile runs the server with --cpu-prof and prints the top self-time functions (of the load window)
--keep leaves DATA_DIR (and the PostgreSQL database) in place for inspection
--trace-pg (PostgreSQL) counts the statements and round trips of the server's pool and explains each statement (bench/lib/pg-trace.ts)
--json FILE also writes the run's figures there (bench/ratios.ts reads them)
--built runs the built server (node dist/server/main.js, as npm start does) from the dist that is there: npm run build first`;

class UsageError extends Error {}

function parse() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      db: { type: 'string', default: 'sqlite' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      profile: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      built: { type: 'boolean', default: false },
      'trace-pg': { type: 'boolean', default: false },
      json: { type: 'string' },
      'profile-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length !== 1) throw new UsageError('name one scenario');
  const scenario = scenarios[positionals[0]!];
  if (!scenario) throw new UsageError(`unknown scenario "${positionals[0]}"`);
  if (values.db !== 'sqlite' && values.db !== 'postgres') throw new UsageError('--db must be sqlite or postgres');
  const db: DbKind = values.db === 'postgres' ? 'postgres' : 'sqlite';
  const count = (name: string, raw: string | undefined, fallback: number, max: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} must be a whole number from 1 to ${max}`);
    return n;
  };
  return {
    scenario,
    db,
    seconds: count('seconds', values.seconds, scenario.defaults.seconds, 600),
    connections: count('connections', values.connections, scenario.defaults.connections, 1000),
    keep: values.keep,
    built: values.built,
    tracePg: values['trace-pg'],
    json: values.json,
    profileDir:
      values.profile || values['profile-dir']
        ? path.resolve(values['profile-dir'] ?? tempDir('tavla-bench-profile-'))
        : undefined,
  };
}

/** CPU seconds the processes used between two readings (a process that started in between counts in full). */
function cpuDelta(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let sum = 0;
  for (const [pid, seconds] of after) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}

function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

const log = (message: string) => console.error(`[bench] ${message}`);

async function main(): Promise<number> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse();
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { scenario, db, seconds, connections, profileDir, keep, built, tracePg, json } = options;
  if (tracePg && (db !== 'postgres' || built)) {
    console.error(
      `--trace-pg counts PostgreSQL's statements of the server run from its sources: --db postgres, no --built\n${USAGE}`,
    );
    return 2;
  }
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const dataDir = tempDir('tavla-bench-');
  let database: BenchDatabase | null = null;
  let server: RunningServer | null = null;

  // Stops the server, drops the database, removes the temp folder: once, whichever way the run ends.
  let cleaning: Promise<void> | null = null;
  const cleanup = (graceMs: number) =>
    (cleaning ??= (async () => {
      await server?.stop(graceMs).catch(() => undefined);
      if (keep) log(`kept DATA_DIR ${dataDir}${database?.kind === 'postgres' ? ` and the database ${database.label}` : ''}`);
      else {
        await database?.drop().catch((error: unknown) => log(`could not drop the database: ${String(error)}`));
        rmSync(dataDir, { recursive: true, force: true });
      }
    })());
  let aborting = false;
  const abort = (code: number, why: string) => {
    aborting = true;
    log(why);
    setTimeout(() => process.exit(code), 20_000).unref();
    void cleanup(2_000).finally(() => process.exit(code));
  };
  // Whatever happens, the run ends: the load has a fixed duration and every step a time limit; this is the backstop.
  const watchdog = setTimeout(
    () => abort(2, 'the run took far longer than it should: stopping'),
    (seconds + 300 + (scenario.defaults.seedSeconds ?? 0)) * 1000,
  );
  watchdog.unref();
  process.once('SIGINT', () => abort(130, 'interrupted: cleaning up'));
  process.once('SIGTERM', () => abort(143, 'terminated: cleaning up'));

  try {
    database = await createBenchDatabase(db, dataDir);
    log(`database: ${database.label}`);
    const pgTrace = tracePg ? path.join(dataDir, 'pg-trace.json') : undefined;
    server = await startServer({ dataDir, databaseUrl: database.url, profileDir, built, pgTrace });
    log(`server pid ${server.pid} at ${server.baseUrl} (${server.command})`);

    const api = new Api(server.baseUrl);
    // The server keeps its generated AUTH_SECRET in DATA_DIR; the bench account's address is confirmed with it.
    await api.signUp(readFileSync(path.join(dataDir, 'auth-secret'), 'utf8').trim());
    const ctx: ScenarioContext = {
      api,
      baseUrl: server.baseUrl,
      serverPid: server.pid,
      dataDir,
      db,
      database,
      connections,
      seconds,
      log,
    };

    let started = Date.now();
    const seed = await scenario.seed(ctx);
    log(`seeded in ${Date.now() - started} ms; ${scenario.name}: ${connections} connections for ${seconds} s`);

    started = Date.now();
    const databaseCpuBefore = await database.cpuSeconds();
    const serverCpuBefore = server.cpuSeconds();
    const generatorCpuBefore = process.cpuUsage();
    const machineBefore = machineBusySeconds();
    const processesBefore = processTable();
    const running = scenario.run(ctx, seed);
    // With --profile on PostgreSQL, also watch what the backends wait on (the Node profile cannot show it).
    const watching = profileDir ? database.observe(running).catch(() => null) : Promise.resolve(null);
    const result = await running;
    const processesAfter = processTable();
    const serverCpuAfter = server.cpuSeconds();
    const generatorCpu = process.cpuUsage(generatorCpuBefore);
    const machineAfter = machineBusySeconds();
    const databaseCpuAfter = await database.cpuSeconds();
    log(`load done in ${((Date.now() - started) / 1000).toFixed(1)} s; verifying`);

    const checks: Check[] = [];
    checks.push(...((await scenario.verify?.(ctx, seed, result)) ?? []));
    if (!checks.some((c) => c.name.includes('non-2xx'))) {
      checks.push({ name: 'every response was 2xx', ok: result.non2xx === 0, detail: `${result.non2xx} non-2xx` });
    }

    const exit: ServerExit = await server.stop();
    checks.push({
      name: 'the server shut down cleanly on SIGTERM',
      ok: exit.code === 0,
      detail: `exit code ${exit.code}${exit.signal ? `, signal ${exit.signal}` : ''}`,
    });
    checks.push(...((await scenario.verifyStored?.(database, seed)) ?? []));

    console.log(
      formatReport({
        scenario: scenario.name,
        summary: scenario.summary,
        db: database.kind,
        server: server.command,
        result,
        verdicts: budgetsFor(scenario, database.kind).map((b) => judge(b, result)),
        checks,
        peakRssKb: exit.peakRssKb,
        cpu: {
          server: serverCpuBefore === null || serverCpuAfter === null ? null : serverCpuAfter - serverCpuBefore,
          generator: (generatorCpu.user + generatorCpu.system) / 1e6,
          machine: machineBefore === null || machineAfter === null ? null : machineAfter - machineBefore,
          database: cpuDelta(databaseCpuBefore, databaseCpuAfter),
          topOthers: topConsumers(
            processesBefore,
            processesAfter,
            new Set([server.pid, process.pid, ...(databaseCpuAfter?.keys() ?? [])]),
          ),
        },
      }),
    );

    if (pgTrace && database.url) {
      const trace = summariseTrace(pgTrace, result.window);
      console.log(`\n${formatTrace(trace)}`);
      console.log(`\n${await explainTrace(database.url, trace)}`);
    }
    if (json) {
      const figures = {
        scenario: scenario.name,
        db: database.kind,
        result: { ...result, window: undefined },
        peakRssKb: exit.peakRssKb,
        verified: checks.every((c) => c.ok),
        load: os.loadavg(),
      };
      writeFileSync(json, JSON.stringify(figures, null, 2));
    }
    const observation = await watching;
    if (observation) console.log(`\n${formatObservation(observation)}`);
    if (profileDir) {
      const files = profilesIn(profileDir);
      if (files.length === 0) log(`no .cpuprofile in ${profileDir}`);
      // The largest file is the server's main thread (tsx's loader thread writes a small one too).
      else {
        // Only the samples taken while the load ran: start-up (tsx compiling modules) and seeding left out.
        let summary = summariseProfile(files[0]!, PROJECT_ROOT, result.window);
        if (summary.totalMs === 0) summary = summariseProfile(files[0]!, PROJECT_ROOT); // clocks not comparable
        console.log(`\n${formatProfile(summary)}`);
      }
    }
    return checks.every((c) => c.ok) ? 0 : 1;
  } catch (error) {
    if (aborting) return 2; // the abort reports and exits
    if (error instanceof ApiError) log(`a request failed: ${error.message}`);
    else log(`the run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (server) log(`last server output:\n${server.output() || '(none)'}`);
    return 2;
  } finally {
    await cleanup(5_000);
    clearTimeout(watchdog);
  }
}

process.exit(await main());
