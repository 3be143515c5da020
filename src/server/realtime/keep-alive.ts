import type { WebSocket } from 'ws';

/**
 * Pings the socket every `ms` and drops it when the last ping went
 * unanswered: a peer that vanished without closing (a laptop lid, a dead
 * network) would otherwise hold its place in the hub for good.
 */
export function keepAlive(socket: WebSocket, ms: number): void {
  let alive = true;
  socket.on('pong', () => (alive = true));
  const timer = setInterval(() => {
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, ms);
  socket.on('close', () => clearInterval(timer));
}
