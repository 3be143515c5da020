import WebSocket from 'ws';
import type { ServerMessage } from '../src/shared/events.js';

/** A test viewer on the realtime socket that keeps every message it receives. */
export class Viewer {
  readonly messages: ServerMessage[] = [];
  #waiters: Array<() => void> = [];
  closed: { code: number; reason: string } | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      this.messages.push(JSON.parse((raw as Buffer).toString('utf8')) as ServerMessage);
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
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
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
