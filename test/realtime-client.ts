import WebSocket from 'ws';
import type { ServerMessage, Viewer as Person } from '../src/shared/events.js';
import { applyPresence } from '../src/shared/presence.js';

/** A board's viewers as a presence message left them (a `presence`, or a `presenceChange` applied). */
export interface PresenceList {
  boardId: number;
  viewers: Person[];
}

/** A test viewer on the realtime socket that keeps every message it receives. */
export class Viewer {
  readonly messages: ServerMessage[] = [];
  /** The viewers of a board after each presence message, in order (as the web app keeps them). */
  readonly presences: PresenceList[] = [];
  readonly #viewers = new Map<number, Person[]>();
  #waiters: Array<() => void> = [];
  closed: { code: number; reason: string } | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const message = JSON.parse((raw as Buffer).toString('utf8')) as ServerMessage;
      this.messages.push(message);
      if (message.type === 'presence' || message.type === 'presenceChange') {
        const viewers = applyPresence(this.#viewers.get(message.boardId), message);
        if (viewers) {
          this.#viewers.set(message.boardId, viewers);
          this.presences.push({ boardId: message.boardId, viewers });
        }
      }
      this.#wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.#wake();
    });
  }

  static connect(baseUrl: string, headers: Record<string, string>, options: WebSocket.ClientOptions = {}): Promise<Viewer> {
    const socket = new WebSocket(baseUrl.replace(/^http/, 'ws') + '/api/realtime', { headers, ...options });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new Viewer(socket)));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Waits for the first message (after those already taken) that matches. */
  async next<T extends ServerMessage['type']>(
    type: T,
    match: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true,
    timeoutMs = 3000,
  ): Promise<Extract<ServerMessage, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex((m) => m.type === type && match(m as Extract<ServerMessage, { type: T }>));
      if (index !== -1) return this.messages.splice(index, 1)[0] as Extract<ServerMessage, { type: T }>;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for ${type}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await this.#sleep(left);
    }
  }

  /** Until the next message or close, or `ms`. */
  #sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Waits for the first list of viewers that matches; it and those before it are taken (later waits see what came after). */
  async nextPresence(match: (p: PresenceList) => boolean, timeoutMs = 3000): Promise<PresenceList> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.presences.findIndex(match);
      if (index !== -1) return this.presences.splice(0, index + 1).at(-1)!;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for presence`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such presence within ${timeoutMs} ms; got ${JSON.stringify(this.presences)}`);
      await this.#sleep(left);
    }
  }

  /** The viewers of a board as the presence messages so far tell them. */
  viewersOf(boardId: number): Person[] | undefined {
    return this.#viewers.get(boardId);
  }

  /** Waits a moment and answers the messages of a type that arrived meanwhile. */
  async quiet<T extends ServerMessage['type']>(type: T, ms = 300): Promise<Array<Extract<ServerMessage, { type: T }>>> {
    await new Promise((r) => setTimeout(r, ms));
    return this.messages.filter((m) => m.type === type) as Array<Extract<ServerMessage, { type: T }>>;
  }

  waitClosed(timeoutMs = 3000): Promise<{ code: number; reason: string }> {
    return new Promise((resolve, reject) => {
      if (this.closed) return resolve(this.closed);
      const timer = setTimeout(() => reject(new Error('socket still open')), timeoutMs);
      this.socket.once('close', (code, reason) => {
        clearTimeout(timer);
        resolve({ code, reason: String(reason) });
      });
    });
  }

  close(): void {
    this.socket.close();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }
}
