import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import { Hub } from './hub.js';
import { listenForEvents, type ListenerFeeds } from './pg-listener.js';
import { relayPresence } from './presence-relay.js';
import { realtimeRoutes, type RealtimeOptions } from './socket.routes.js';

/**
 * The realtime side: the socket route, the hub fed after every commit, and
 * where there are several processes the listener that hears the others
 * (reading through `feeds`, the features' functions app.ts passes in).
 */
export async function registerRealtime(
  app: FastifyInstance,
  deps: Deps,
  options: RealtimeOptions,
  feeds: ListenerFeeds,
): Promise<Hub> {
  const hub = new Hub(deps.database, app.log);
  const unsubscribe = deps.bus.subscribe((events) => hub.publish(events));
  const unsubscribeNotifications = deps.bus.subscribeNotifications((items) => {
    for (const { userId, notification } of items) hub.sendToAccount(userId, { type: 'notification', notification });
  });
  // The other processes were told inside the revoking transaction (see EventBus.revoke).
  const unsubscribeRevocations = deps.bus.subscribeRevocations((revocation) => hub.revoke(revocation));
  await realtimeRoutes(app, deps, hub, options);

  const stopListening = listenForEvents(deps.config.databaseUrl, deps.database, hub, app.log, feeds);
  // Who views a board, across processes: announced as often as sockets are pinged, within 1 to 5 s.
  const presenceHeartbeatMs = Math.max(1000, Math.min(options.heartbeatMs, 5000));
  const presence = relayPresence(deps.database.dialect, deps.config.databaseUrl, hub, app.log, {
    heartbeatMs: presenceHeartbeatMs,
    ttlMs: 3 * presenceHeartbeatMs,
  });
  if (presence) hub.attachPresence(presence);

  app.addHook('onClose', async () => {
    unsubscribe();
    unsubscribeNotifications();
    unsubscribeRevocations();
    await stopListening?.();
    await presence?.stop();
  });
  return hub;
}
