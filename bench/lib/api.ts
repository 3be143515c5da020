import { randomBytes } from 'node:crypto';
import { createEmailVerificationToken } from 'better-auth/api';
import net from 'node:net';
import type { CardListItem } from '../../src/shared/api/cards.js';

export interface ApiResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${method} ${path} answered ${status}: ${JSON.stringify(body)}`);
  }
}

/**
 * A small HTTP client for seeding and checking through the public API (the
 * same requests a script would make). Every call has a time limit.
 */
export class Api {
  /** The API key the `/api/data/*` calls send; set by `signUp`. */
  key = '';
  userId = '';
  /** The session cookie (`name=value`) `signUp` signed in with, for a browser to use. */
  cookie = '';

  /** The kept-alive connection `post` writes to, opened on first use. */
  #socket: KeptAlive | null = null;

  constructor(readonly baseUrl: string) {}

  /**
   * A JSON POST to `/api/data/*` on one kept-alive connection, answering the
   * status and the parsed body (an `ApiError` for any other status than
   * `expect`). The request is written as bytes and the answer read by its
   * `content-length`, as autocannon does for the other scenarios: a timed
   * run of one call after another counts the client's own CPU, and Node's
   * `http` client took about 0.45 ms per call here (fetch 1.5 ms), more than
   * a quarter of a create.
   */
  async post(path: string, body: unknown, expect = 200): Promise<{ status: number; body: unknown }> {
    this.#socket ??= new KeptAlive(new URL(this.baseUrl));
    const { status, text } = await this.#socket.post(path, JSON.stringify(body), this.key);
    const answer: unknown = JSON.parse(text);
    if (status !== expect) throw new ApiError('POST', path, status, answer);
    return { status, body: answer };
  }

  /** Closes the connection `post` keeps. */
  close(): void {
    this.#socket?.close();
    this.#socket = null;
  }

  async request(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; expect?: number } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.key && path.startsWith('/api/data/')) headers['x-api-key'] = this.key;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    const expect = options.expect ?? 200;
    if (res.status !== expect) throw new ApiError(method, path, res.status, body);
    return { status: res.status, body, headers: res.headers };
  }

  /**
   * Signs up a fresh account, confirms its address (only a confirmed address
   * may make keys) with a link signed by the server's `authSecret`, and makes
   * a full-access API key for it.
   */
  async signUp(authSecret: string): Promise<void> {
    const origin = { origin: this.baseUrl };
    const email = `bench-${randomBytes(4).toString('hex')}@example.test`;
    const signUp = await this.request('POST', '/api/auth/sign-up/email', {
      body: { name: 'Bench', email, password: 'bench password 123' },
      headers: origin,
    });
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.split('=')[0]!.endsWith('session_token'));
    if (!cookie) throw new Error('sign-up set no session cookie');
    this.cookie = cookie;
    this.userId = (signUp.body as { user: { id: string } }).user.id;
    const token = await createEmailVerificationToken(authSecret, email, undefined, 3600, { userId: this.userId });
    await this.request('GET', `/api/auth/verify-email?token=${token}`);
    const key = await this.request('POST', '/api/auth/api-key/create', {
      body: { name: 'bench' },
      headers: { ...origin, cookie },
    });
    this.key = (key.body as { key: string }).key;
  }

  async createBoard(name: string): Promise<number> {
    const res = await this.request('POST', '/api/data/board', {
      body: { userId: this.userId, name, style: 'kanban', status: 'private' },
    });
    return (res.body as { board: { id: number } }).board.id;
  }

  async createArea(boardId: number, name: string): Promise<number> {
    const res = await this.request('POST', '/api/data/area', { body: { boardId, name } });
    return (res.body as { area: { id: number } }).area.id;
  }

  async createCard(areaId: number, name: string): Promise<number> {
    const res = await this.request('POST', '/api/data/card', { body: { areaId, name } });
    return (res.body as { card: { id: number } }).card.id;
  }

  /** Creates `count` cards at the bottom of the area, in order; answers their ids. */
  async createCards(areaId: number, count: number, prefix: string): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) ids.push(await this.createCard(areaId, `${prefix} ${i + 1}`));
    return ids;
  }

  async listCards(areaId: number): Promise<CardListItem[]> {
    const res = await this.request('GET', `/api/data/cards?areaId=${areaId}`);
    return (res.body as { cards: CardListItem[] }).cards;
  }
}

/** One HTTP/1.1 connection, one request at a time; answers must carry a `content-length` (Fastify's JSON replies do). */
class KeptAlive {
  readonly #socket: net.Socket;
  readonly #host: string;
  #received: Buffer = Buffer.alloc(0);
  #waiting: { resolve: (answer: { status: number; text: string }) => void; reject: (error: Error) => void } | null = null;

  constructor(url: URL) {
    this.#host = url.host;
    this.#socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.#socket.setTimeout(15_000, () => this.#socket.destroy(new Error('no answer in 15 s')));
    this.#socket.on('data', (chunk: Buffer) => this.#read(chunk));
    this.#socket.on('error', (error) => this.#fail(error));
    this.#socket.on('close', () => this.#fail(new Error('the server closed the connection')));
  }

  post(path: string, payload: string, key: string): Promise<{ status: number; text: string }> {
    if (this.#waiting) return Promise.reject(new Error('one request at a time'));
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.write(
        `POST ${path} HTTP/1.1\r\nhost: ${this.#host}\r\ncontent-type: application/json\r\nx-api-key: ${key}\r\n` +
          `content-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
      );
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #read(chunk: Buffer): void {
    this.#received = this.#received.length > 0 ? Buffer.concat([this.#received, chunk]) : chunk;
    const headEnd = this.#received.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.#received.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) return this.#fail(new Error(`an answer without content-length: ${head}`));
    const end = headEnd + 4 + Number(length[1]);
    if (this.#received.length < end) return;
    const text = this.#received.toString('utf8', headEnd + 4, end);
    this.#received = this.#received.subarray(end);
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.resolve({ status: Number(head.slice(9, 12)), text });
  }

  #fail(error: Error): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.reject(error);
  }
}
