import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import { pruneEvents } from './event-log.js';
import { Hub } from './hub.js';
import { listenForEvents } from './pg-listener.js';
import { realtimeRoutes, type RealtimeOptions } from './socket.routes.js';

const PRUNE_EVERY_MS = 6 * 3600_000;

/** The realtime side: the socket route, the hub fed after every commit, and on PostgreSQL the cross-process listener. */
export async function registerRealtime(app: FastifyInstance, deps: Deps, options: RealtimeOptions): Promise<Hub> {
  const hub = new Hub(deps.database, app.log);
  const unsubscribe = deps.bus.subscribe((events) => hub.publish(events));
  await realtimeRoutes(app, deps, hub, options);

  const stopListening =
    deps.database.dialect === 'postgres' ? listenForEvents(deps.config.databaseUrl, deps.database, hub, app.log) : null;
  const prune = () =>
    void pruneEvents(deps.database.db).catch((error: unknown) => app.log.warn({ err: error }, 'event log pruning failed'));
  const pruner = setInterval(prune, PRUNE_EVERY_MS);
  pruner.unref();

  app.addHook('onClose', async () => {
    clearInterval(pruner);
    unsubscribe();
    await stopListening?.();
  });
  return hub;
}
