import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { PublicServerMessage } from '../../../shared/api/public-links.js';
import type { Database } from '../../db/database.js';
import type { Deps, ServiceDeps } from '../../deps.js';
import { BOARD_VERSIONS, listenTo, on, PUBLIC_LINK_CHANGES } from '../../db/channels.js';
import { PublicViewers, type PublicViewer } from './public-viewers.js';
import { keepAlive } from '../../realtime/keep-alive.js';
import { realtimeMessages, socketOpened } from '../../metrics/metrics.js';
import { sweepVersions } from '../../realtime/pg-listener.js';
import { boardVersions } from '../boards/boards.repository.js';

/** A socket backed up past this is too slow to keep (the page reconnects and reads the board again). */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;

/** One registry per app instance: the owner's routes (revoke, replace) and the view routes meet in it. */
const registries = new WeakMap<ServiceDeps['bus'], PublicViewers>();

export function publicViewersOf(deps: Pick<Deps, 'bus' | 'database' | 'log'>): PublicViewers {
  let viewers = registries.get(deps.bus);
  if (!viewers) {
    viewers = new PublicViewers(deps.database, deps.log);
    registries.set(deps.bus, viewers);
  }
  return viewers;
}

class SocketViewer implements PublicViewer {
  constructor(
    readonly token: string,
    private readonly socket: WebSocket,
  ) {}

  send(message: PublicServerMessage): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_BACKLOG_BYTES) return this.socket.terminate();
    this.socket.send(JSON.stringify(message));
    realtimeMessages.inc({ audience: 'public' });
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }
}

/**
 * Serves an upgraded public socket: the link was checked before the upgrade
 * (an unknown or revoked one answered 404); the viewer only listens, so any
 * frame it sends closes the connection.
 */
export function servePublicSocket(
  viewers: PublicViewers,
  socket: WebSocket,
  token: string,
  boardId: number,
  heartbeatMs: number,
): void {
  const viewer = new SocketViewer(token, socket);
  const counted = socketOpened('public');
  void viewers.add(viewer, boardId);
  keepAlive(socket, heartbeatMs);
  socket.on('message', () => socket.close(1008, 'This socket only sends'));
  socket.on('close', () => {
    counted();
    void viewers.remove(viewer, boardId);
  });
}

/**
 * Feeds the registry: this process's commits from the bus and, on
 * PostgreSQL, other processes' versions and link revocations through
 * LISTEN. A notification lost while the connection was down is made up by
 * a sweep of the watched boards (their versions and their links), so a
 * change or a revocation from elsewhere is at worst a sweep late.
 */
export function feedPublicViewers(app: FastifyInstance, deps: Deps, viewers: PublicViewers, sweepMs = 5000): void {
  const unsubscribe = deps.bus.subscribe((events) => viewers.publish(events));
  const stop = listen(deps.config.databaseUrl, deps.database, viewers, app.log, sweepMs);
  app.addHook('onClose', async () => {
    unsubscribe();
    await stop?.();
  });
}

/** Null where one process hears every change on its bus (SQLite). */
function listen(url: string, database: Database, viewers: PublicViewers, log: FastifyBaseLogger, sweepMs: number) {
  const sweep = async () => {
    await sweepVersions(database.db, viewers, boardVersions);
    // Their links too: a revocation lost with the connection is found here.
    await Promise.all(viewers.watchedBoards().map((id) => viewers.recheck(id)));
  };

  const listener = listenTo(
    database.dialect,
    url,
    [
      on(PUBLIC_LINK_CHANGES, ({ boardId }) => void viewers.recheck(boardId)),
      on(BOARD_VERSIONS, ({ boardId, version }) => viewers.notify(boardId, version)),
    ],
    {
      connected: () => sweep().catch((error: unknown) => log.warn({ err: error }, 'public view sweep failed')),
      warn: (error, text) => log.warn({ err: error }, `public view ${text}`),
    },
  );
  if (!listener) return null;

  const sweeper = setInterval(
    () => void sweep().catch((error: unknown) => log.warn({ err: error }, 'public view sweep failed')),
    sweepMs,
  );
  sweeper.unref();
  return async () => {
    clearInterval(sweeper);
    await listener.stop();
  };
}
