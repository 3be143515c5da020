import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { CLOSE_CREDENTIAL_ENDED, type ClientMessage, type ServerMessage } from '../../shared/events.js';
import { credentialValidUntil, type Actor, type Credential } from '../auth/actor.js';
import { identify } from '../auth/identify.js';
import type { Db } from '../db/database.js';
import type { Deps } from '../deps.js';
import { isId } from '../../shared/api/common.js';
import { badRequest, forbidden } from '../http/errors.js';
import { holdConnectionSlots } from '../limits/connection-slots.js';
import type { Client, Hub } from './hub.js';
import { keepAlive } from './keep-alive.js';
import { realtimeMessages, socketOpened } from '../metrics/metrics.js';

export interface RealtimeOptions {
  /** How often a socket must answer a ping to stay connected. */
  heartbeatMs: number;
}

const MAX_FRAME_BYTES = 16 * 1024;
/** A socket whose unsent backlog grows past this is too slow to keep. */
const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;
const DROPPABLE_BACKLOG_BYTES = 1024 * 1024;
const BURST = 60;
const PER_SECOND = 20;

class SocketClient implements Client {
  constructor(
    readonly actor: Actor,
    private readonly socket: WebSocket,
  ) {}

  send(message: ServerMessage, droppable = false): void {
    if (droppable && this.socket.bufferedAmount > DROPPABLE_BACKLOG_BYTES) return;
    this.sendRaw(JSON.stringify(message));
  }

  sendRaw(json: string, droppable = false): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return false;
    if (droppable && this.socket.bufferedAmount > DROPPABLE_BACKLOG_BYTES) return false;
    if (this.socket.bufferedAmount > MAX_BACKLOG_BYTES) {
      this.socket.terminate();
      return false;
    }
    this.socket.send(json);
    realtimeMessages.inc({ audience: 'members' });
    return true;
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }
}

/** setTimeout's longest delay (about 24 days); a later expiry is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Closes the socket once its credential stops working without anyone acting:
 * a session at its expiry (read again then, as use over HTTP extends it).
 * Checks once at the start too, for a revocation that came while the upgrade
 * was under way. Revocations that someone makes arrive through `Hub.revoke`.
 */
function watchCredential(db: Db, credential: Credential, close: (reason: string) => void, log: FastifyBaseLogger): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const check = async (reason: string) => {
    let until: Date | null;
    try {
      until = await credentialValidUntil(db, credential);
    } catch (error) {
      log.warn({ err: error }, 'credential check failed');
      until = new Date(Date.now() + 60_000);
    }
    if (stopped) return;
    if (until === null) return close(reason);
    if (credential.kind === 'session') schedule(until);
  };
  const schedule = (until: Date) => {
    timer = setTimeout(() => void check('Session expired'), Math.min(MAX_TIMER_MS, Math.max(0, until.getTime() - Date.now())));
  };
  void check('Credential no longer valid');
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * `GET /api/realtime`: a WebSocket authenticated like the data routes before
 * the upgrade. Frames are JSON messages (`src/shared/events.ts`); a bad one
 * gets an `error` answer, an oversized one or a flood closes the connection.
 */
export async function realtimeRoutes(app: FastifyInstance, deps: Deps, hub: Hub, options: RealtimeOptions): Promise<void> {
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
  app.route({
    method: 'GET',
    url: '/api/realtime',
    schema: { hide: true },
    onRequest: async (request) => {
      const actor = await identify(request, deps, { socket: true });
      if (!actor) throw forbidden();
      request.actor = actor;
    },
    // After the caller is known: an account's sockets count against it, wherever they come from.
    preHandler: holdConnectionSlots(deps.limits, (request) => [
      ['sockets.address', request.ip],
      ['sockets.account', request.actor.id],
    ]),
    wsHandler: (socket, request) => {
      const client = new SocketClient(request.actor, socket);
      const counted = socketOpened('members');
      hub.connect(client);
      const credential = request.actor.credential;
      const unwatch = credential
        ? watchCredential(deps.database.db, credential, (reason) => socket.close(CLOSE_CREDENTIAL_ENDED, reason), request.log)
        : () => undefined;

      keepAlive(socket, options.heartbeatMs);

      let tokens = BURST;
      let refilled = Date.now();
      socket.on('message', (raw, isBinary) => {
        const now = Date.now();
        tokens = Math.min(BURST, tokens + ((now - refilled) / 1000) * PER_SECOND);
        refilled = now;
        if (--tokens < 0) return socket.close(1008, 'Too many messages');
        // ws hands a text frame over as one Buffer (its default binaryType).
        const message = isBinary ? null : parse((raw as Buffer).toString('utf8'));
        if (!message) return client.send({ type: 'error', error: 'Unknown or malformed message' });
        if (message.type === 'subscribe') void hub.subscribe(client, message.boardId, message.since);
        else if (message.type === 'unsubscribe') void hub.unsubscribe(client, message.boardId);
        else void hub.setPresence(client, message.boardId, message.cardId);
      });

      socket.on('close', () => {
        counted();
        unwatch();
        hub.disconnect(client);
      });
    },
    // A plain GET (no upgrade) gets an answer in the API's shape, not an empty 404.
    handler: () => {
      throw badRequest('Connect with a WebSocket upgrade');
    },
  });
}

function parse(text: string): ClientMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  if (!isId(m.boardId)) return null;
  switch (m.type) {
    case 'subscribe':
      if (m.since !== undefined && !(Number.isSafeInteger(m.since) && (m.since as number) >= 0)) return null;
      return { type: 'subscribe', boardId: m.boardId, ...(m.since === undefined ? {} : { since: m.since as number }) };
    case 'unsubscribe':
      return { type: 'unsubscribe', boardId: m.boardId };
    case 'presence':
      if (m.cardId !== null && !isId(m.cardId)) return null;
      return { type: 'presence', boardId: m.boardId, cardId: m.cardId };
    default:
      return null;
  }
}
