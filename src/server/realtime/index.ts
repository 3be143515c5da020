import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import { Hub } from './hub.js';
import { listenForEvents } from './pg-listener.js';
import { realtimeRoutes, type RealtimeOptions } from './socket.routes.js';

/** The realtime side: the socket route, the hub fed after every commit, and on PostgreSQL the cross-process listener. */
export async function registerRealtime(app: FastifyInstance, deps: Deps, options: RealtimeOptions): Promise<Hub> {
  const hub = new Hub(deps.database, app.log);
  const unsubscribe = deps.bus.subscribe((events) => hub.publish(events));
  const unsubscribeNotifications = deps.bus.subscribeNotifications((items) => {
    for (const { userId, notification } of items) hub.sendToAccount(userId, { type: 'notification', notification });
  });
  await realtimeRoutes(app, deps, hub, options);

  const stopListening =
    deps.database.dialect === 'postgres' ? listenForEvents(deps.config.databaseUrl, deps.database, hub, app.log) : null;

  app.addHook('onClose', async () => {
    unsubscribe();
    unsubscribeNotifications();
    await stopListening?.();
  });
  return hub;
}
