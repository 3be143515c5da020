import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { listenTo, on, PRESENCE, type PresenceMessage as Message } from '../db/channels.js';
import type { Dialect, Listener } from '../db/dialects/index.js';
import type { Viewer } from '../../shared/events.js';
import type { Hub, RemotePresence } from './hub.js';

/** NOTIFY refuses payloads of 8000 bytes or more; a board with more viewers goes out in parts. */
const MAX_PAYLOAD = 7000;

interface Peer {
  seen: number;
  boards: Map<number, Viewer[]>;
}

export interface PresenceRelayOptions {
  /** How often this process says it is alive. */
  heartbeatMs: number;
  /** How long a silent process's viewers are kept. */
  ttlMs: number;
}

export interface PresenceRelay extends RemotePresence {
  /** Says goodbye (the others drop this process's viewers at once) and lets go of the connection. */
  stop(): Promise<void>;
  /** Goes silent without a goodbye, as a killed process would (tests). */
  halt(): Promise<void>;
}

/**
 * Presence across processes on PostgreSQL: every process announces its own
 * viewers of each board (at the hub's presence flush: once per board per
 * interval at most, however many join) over NOTIFY on the process's listening connection
 * (one connection, so its messages arrive in the order sent) and keeps the
 * others' per process.
 * A process that stops announcing (killed, cut off) is forgotten after the
 * TTL; one whose connection comes back says `hello`, and everyone re-announces.
 */
export function relayPresence(
  dialect: Dialect,
  url: string,
  hub: Hub,
  log: FastifyBaseLogger,
  { heartbeatMs, ttlMs }: PresenceRelayOptions,
): PresenceRelay | null {
  const self = randomUUID();
  const peers = new Map<string, Peer>();
  let connected = false;
  let stopped = false;
  let listener: Listener | null = null;

  const send = (message: Message) => {
    if (!listener || !connected) return;
    listener
      .send(PRESENCE.name, JSON.stringify(message))
      .catch((error: unknown) => log.warn({ err: error }, 'presence not announced'));
  };

  const announce = (boardId: number, viewers: Viewer[]) => {
    if (stopped || !connected) return; // the full announcement after (re)connecting carries it
    let part: Viewer[] = [];
    let size = 0;
    let first = true;
    const flush = () => {
      send({ p: self, t: first ? 'board' : 'more', b: boardId, v: part });
      first = false;
      part = [];
      size = 0;
    };
    for (const viewer of viewers) {
      let entry = viewer;
      let length = JSON.stringify(entry).length + 1;
      // An image address that long (a data URL) is left out rather than losing the viewer.
      if (length > MAX_PAYLOAD - 200) entry = { ...viewer, image: null, name: viewer.name.slice(0, 200) };
      length = JSON.stringify(entry).length + 1;
      if (size + length > MAX_PAYLOAD - 200 && part.length > 0) flush();
      part.push(entry);
      size += length;
    }
    flush();
  };

  const announceAll = () => {
    for (const [boardId, viewers] of hub.localPresence()) announce(boardId, viewers);
  };

  const forget = (id: string) => {
    const peer = peers.get(id);
    if (!peer) return;
    peers.delete(id);
    for (const boardId of peer.boards.keys()) hub.remotePresenceChanged(boardId);
  };

  const receive = (message: Message) => {
    if (message.p === self) return;
    if (message.t === 'bye') return forget(message.p);
    if (message.t === 'hello') {
      forget(message.p);
      announceAll();
    }
    const peer = peers.get(message.p) ?? { seen: 0, boards: new Map<number, Viewer[]>() };
    peers.set(message.p, peer);
    peer.seen = Date.now();
    if (message.t !== 'board' && message.t !== 'more') return;
    const viewers = message.t === 'more' ? [...(peer.boards.get(message.b) ?? []), ...message.v] : message.v;
    if (viewers.length === 0) peer.boards.delete(message.b);
    else peer.boards.set(message.b, viewers);
    hub.remotePresenceChanged(message.b);
  };

  // What arrives is checked against the channel's shape (channels.ts); anything else is warned of and dropped.
  listener = listenTo(dialect, url, [on(PRESENCE, receive)], {
    connected: () => {
      // What we held may be stale (announcements missed while cut off): start again from what the others say.
      for (const id of [...peers.keys()]) forget(id);
      connected = true;
      send({ p: self, t: 'hello' });
      announceAll();
    },
    lost: () => {
      connected = false;
    },
    warn: (error, text) => log.warn({ err: error }, `presence ${text}`),
  });
  // One process (SQLite) has every viewer in its own hub.
  if (!listener) return null;
  const own = listener;

  const heartbeat = setInterval(() => {
    send({ p: self, t: 'alive' });
    const cutoff = Date.now() - ttlMs;
    for (const [id, peer] of peers) if (peer.seen < cutoff) forget(id);
  }, heartbeatMs);
  heartbeat.unref();

  const end = async (goodbye: boolean) => {
    if (stopped) return;
    if (goodbye) send({ p: self, t: 'bye' });
    stopped = true;
    connected = false;
    clearInterval(heartbeat);
    peers.clear();
    await own.stop();
  };

  return {
    announce,
    viewers: (boardId) => [...peers.values()].flatMap((peer) => peer.boards.get(boardId) ?? []),
    stop: () => end(true),
    halt: () => end(false),
  };
}
