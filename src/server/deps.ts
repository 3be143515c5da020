import type { FastifyBaseLogger } from 'fastify';
import type { Auth } from './auth/auth.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { EventBus } from './events/bus.js';
import type { Limits } from './limits/limits.js';

/** What the features are built from; made once per process in buildApp. */
export interface Deps {
  config: Config;
  database: Database;
  auth: Auth;
  bus: EventBus;
  log: FastifyBaseLogger;
  /** Every limit (limits/limits.ts). */
  limits: Limits;
}

/** What services need: the database, the event bus, the log and the configuration. */
export type ServiceDeps = Pick<Deps, 'database' | 'bus' | 'log' | 'config'>;
