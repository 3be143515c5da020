import { migrate as migrateDatabase, migrationState } from '../../db/migrations/index.js';
import { Failure, type Command } from '../command.js';
import { configuration, reachDatabase } from '../service.js';

export const migrate: Command = {
  name: 'migrate',
  summary: "bring the database's schema up to this version (the service also does at start)",
  usage: '',
  help: `Runs the schema steps this version has and the database has not, once (several
processes starting together on one PostgreSQL migrate once). The service does
the same at every start; this is for doing it ahead, e.g. before a rolling update.`,
  async run(_args, io) {
    const database = await reachDatabase(configuration());
    try {
      const { pending, unknown } = await migrationState(database.db, database.dialect);
      if (unknown.length > 0)
        throw new Failure(`The database was migrated by a newer Tavla (${unknown.join(', ')}): nothing was changed`);
      if (pending.length === 0) {
        io.out('The database is up to date');
        return 0;
      }
      await migrateDatabase(database.db, database.dialect);
      io.out(`Migrated (${database.dialect.name}): ${pending.join(', ')}`);
      return 0;
    } finally {
      await database.close();
    }
  },
};
