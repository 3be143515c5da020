import { sql } from 'kysely';
import type { Database } from './database.js';

/**
 * Tells every process on the database (PostgreSQL NOTIFY; each process's
 * listener hears it, its own included). SQLite serves one process, which
 * has already heard it in memory.
 */
export async function notifyProcesses(database: Database, channel: string, payload: object): Promise<void> {
  if (database.dialect !== 'postgres') return;
  await sql`select pg_notify(${channel}, ${JSON.stringify(payload)})`.execute(database.db);
}
