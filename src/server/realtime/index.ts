import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import { announce, REVOCATIONS } from '../db/channels.js';
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
  const unsubscribeRevocations = deps.bus.subscribeRevocations((revocation, announced) => {
    hub.revoke(revocation);
    if (announced) return;
    // Ended outside a transaction of ours (sign-in library's): the other processes hear of it after its commit.
    announce(deps.database.dialect, deps.database.db, REVOCATIONS, revocation).catch((error: unknown) =>
      app.log.error({ err: error }, 'revocation not announced to other processes'),
    );
  });
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
