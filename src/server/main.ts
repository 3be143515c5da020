import { startupAllocationsDone } from './young-generation.js';

// The service's modules load only now, after young-generation.ts has run: V8
// compiles a module when it loads it, well before the module is evaluated, so a
// static import here would load the whole service before that setting applies.
const [
  { buildApp },
  { bootstrapAdmin },
  { ConfigError, loadConfig },
  { openDatabase },
  { migrate },
  privateFiles,
  { fileStore },
  { serveMetrics },
  { startTracing },
  { serviceVersion },
] = await Promise.all([
  import('./app.js'),
  import('./auth/bootstrap-admin.js'),
  import('./config.js'),
  import('./db/database.js'),
  import('./db/migrations/index.js'),
  import('./files/private-files.js'),
  import('./files/store.js'),
  import('./metrics/metrics.js'),
  import('./telemetry/tracing.js'),
  import('./version.js'),
]);

async function main(): Promise<void> {
  const config = loadConfig();
  // Before the database opens: its connections learn then whether to trace their queries.
  const stopTracing = await startTracing(process.env, serviceVersion);
  const database = openDatabase(config.databaseUrl, { snapshotConnections: config.exportsPerInstance });
  await migrate(database.db, database.dialect);
  const app = await buildApp({ config, database, logger: true });
  await bootstrapAdmin(app.deps, app.log);
  const files = fileStore(config);
  await files.sweepScratch();
  // A bucket that cannot be reached or written stops the start, rather than every upload later.
  if (config.s3) {
    try {
      await files.check();
    } catch (error) {
      throw new StoreUnusable(files.describe(), error);
    }
  }
  await app.jobs.start();
  if (privateFiles.isDataDirExposed(config.dataDir)) {
    app.log.warn({ dataDir: config.dataDir }, 'DATA_DIR can be read by other accounts: chmod 700 it (new files are private)');
  }

  let stopMetrics = (): Promise<void> => Promise.resolve();
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking requests, let those under way finish, then let go of the database.
    await stopMetrics();
    await app.close();
    await database.close();
    await stopTracing();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const { metrics } = config;
  if (metrics.port !== null) {
    const server = await serveMetrics({ port: metrics.port, host: metrics.host, token: metrics.token });
    stopMetrics = () => server.close();
    app.log.info({ url: `${server.url}/metrics` }, 'metrics served');
  }
  startupAllocationsDone();
  app.log.info({ database: database.dialect.name, baseUrl: config.baseUrl }, 'Tavla is ready');
}

class StoreUnusable extends Error {
  constructor(where: string, cause: unknown) {
    super(`The file store ${where} cannot be used: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StoreUnusable) console.error(error.message);
  else console.error('Tavla could not start:', error);
  process.exit(1);
});
