import WebSocket from 'ws';
import type { PublicServerMessage } from '../src/shared/api/public-links.js';

/** A test viewer of a public link's socket that keeps every frame, raw and parsed. */
export class PublicViewerClient {
  readonly frames: string[] = [];
  readonly messages: PublicServerMessage[] = [];
  closed: { code: number; reason: string } | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const text = (raw as Buffer).toString('utf8');
      this.frames.push(text);
      this.messages.push(JSON.parse(text) as PublicServerMessage);
    });
    socket.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
  }

  /** Opens the socket; rejects with `HTTP <status>` when the upgrade is refused. */
  static connect(
    baseUrl: string,
    token: string,
    headers: Record<string, string> = {},
    options: WebSocket.ClientOptions = {},
  ): Promise<PublicViewerClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/public/${token}/realtime`, { headers, ...options });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new PublicViewerClient(socket)));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  /** Polls (bounded) for the first message not yet taken that matches, and takes it. */
  async next<T extends PublicServerMessage['type']>(
    type: T,
    match: (m: Extract<PublicServerMessage, { type: T }>) => boolean = () => true,
    timeoutMs = 3000,
  ): Promise<Extract<PublicServerMessage, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex((m) => m.type === type && match(m as Extract<PublicServerMessage, { type: T }>));
      if (index !== -1) return this.messages.splice(index, 1)[0] as Extract<PublicServerMessage, { type: T }>;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for ${type}`);
      if (Date.now() > deadline) throw new Error(`no ${type} within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Polls (bounded) until the server has closed the socket. */
  async waitClosed(timeoutMs = 3000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error(`socket still open after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.closed;
  }

  close(): void {
    this.socket.close();
  }
}
