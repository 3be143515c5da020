import { buildApp } from './app.js';
import { bootstrapAdmin } from './auth/bootstrap-admin.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrations/index.js';
import { isDataDirExposed } from './files/private-files.js';
import { uploadStore } from './files/store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl, { snapshotConnections: config.exportsPerInstance });
  await migrate(database.db, database.dialect);
  const app = await buildApp({ config, database, logger: true });
  await bootstrapAdmin(app.deps, app.log);
  await uploadStore(config.dataDir).sweepTmp();
  await app.jobs.start();
  if (isDataDirExposed(config.dataDir)) {
    app.log.warn({ dataDir: config.dataDir }, 'DATA_DIR can be read by other accounts: chmod 700 it (new files are private)');
  }

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking requests, let those under way finish, then let go of the database.
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: database.dialect.name, baseUrl: config.baseUrl }, 'Tavla is ready');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('Tavla could not start:', error);
  process.exit(1);
});
