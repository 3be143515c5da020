import type { FastifyBaseLogger } from 'fastify';
import type { Auth } from './auth/auth.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { EventBus } from './events/bus.js';

/** What the features are built from; made once per process in buildApp. */
export interface Deps {
  config: Config;
  database: Database;
  auth: Auth;
  bus: EventBus;
  log: FastifyBaseLogger;
}

/** What services need: the database, the event bus, the log and the configuration. */
export type ServiceDeps = Pick<Deps, 'database' | 'bus' | 'log' | 'config'>;
