import type { FastifyBaseLogger } from 'fastify';
import { wireAccountHooks } from '../account-hooks.js';
import { createAuth, type AccountHooks } from '../auth/auth.js';
import { AccountRefused, type OperatorDeps } from '../auth/operator.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrationState } from '../db/migrations/index.js';
import type { Deps } from '../deps.js';
import { EventBus } from '../events/bus.js';
import { Limits } from '../limits/limits.js';
import { Failure, type Io } from './command.js';

/** The configuration from the environment, as the service reads it; its problems are the command's failure. */
export function configuration(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new Failure(error.message);
    throw error;
  }
}

/** The database `DATABASE_URL` names, answering. */
export async function reachDatabase(config: Config): Promise<Database> {
  const database = openDatabase(config.databaseUrl, { snapshotConnections: 1 });
  if (!(await database.ping(5000))) {
    await database.close().catch(() => undefined);
    throw new Failure(`The database does not answer (DATABASE_URL ${redactUrl(config.databaseUrl)})`);
  }
  return database;
}

/**
 * What the service's features are built from (deps.ts), made as buildApp
 * makes it, without the HTTP server: the sign-in library with the service's
 * account hooks, on a database whose schema this version knows (a command
 * never migrates behind the operator's back: `tavla migrate` does).
 */
export async function openService(io: Io): Promise<{ deps: Deps; hooks: AccountHooks; close: () => Promise<void> }> {
  const config = configuration();
  const database = await reachDatabase(config);
  try {
    const { pending, unknown } = await migrationState(database.db, database.dialect);
    if (unknown.length > 0) {
      throw new Failure(`The database was migrated by a newer Tavla (${unknown.join(', ')}): use that version's command line`);
    }
    if (pending.length > 0) {
      throw new Failure(
        `The database is not migrated (${pending.length} steps pending): run \`tavla migrate\` or start the service once`,
      );
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  const hooks: AccountHooks = {};
  const log = cliLogger(io);
  const base = { config, database, bus: new EventBus(), log, limits: new Limits(config.limits, database.db) };
  wireAccountHooks(hooks, base);
  const deps: Deps = { ...base, auth: createAuth(config, database, hooks) };
  return { deps, hooks, close: () => database.close() };
}

/** Runs an account change with the service's rules (auth/operator.ts): its refusal is the command's one-line failure. */
export async function asOperator<T>(io: Io, change: (operator: OperatorDeps) => Promise<T>): Promise<T> {
  const service = await openService(io);
  try {
    return await change({ auth: service.deps.auth, database: service.deps.database, hooks: service.hooks });
  } catch (error) {
    if (error instanceof AccountRefused) throw new Failure(error.message);
    throw error;
  } finally {
    await service.close();
  }
}

/** A database address without its password. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/** The service's log lines a command causes (warnings and errors), one line each on stderr, without their objects' innards. */
function cliLogger(io: Io): FastifyBaseLogger {
  const line =
    (level: string) =>
    (first: unknown, second?: unknown): void => {
      const message = typeof first === 'string' ? first : typeof second === 'string' ? second : '';
      const error = first instanceof Error ? first.message : '';
      io.err(`${level}: ${[message, error].filter(Boolean).join(': ')}`);
    };
  const quiet = () => undefined;
  const logger = {
    level: 'warn',
    fatal: line('error'),
    error: line('error'),
    warn: line('warning'),
    info: quiet,
    debug: quiet,
    trace: quiet,
    silent: quiet,
    child: () => logger,
  };
  return logger;
}
