import { randomBytes } from 'node:crypto';
import http from 'node:http';
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

  /** One kept-alive connection for `post`: what a script that makes many calls in a row would hold. */
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(readonly baseUrl: string) {}

  /**
   * A JSON POST to `/api/data/*` on one kept-alive connection, answering the
   * status and the parsed body (an `ApiError` for any other status than `expect`). Leaner than fetch, which spends about 1.5 ms
   * of CPU per call on this machine: as much as the server's own work for a
   * create, so a run timed through it measured the client as much as the server.
   */
  post(path: string, body: unknown, expect = 200): Promise<{ status: number; body: unknown }> {
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        this.baseUrl + path,
        {
          method: 'POST',
          agent: this.#agent,
          timeout: 15_000,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-api-key': this.key },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const answer: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (status === expect) resolve({ status, body: answer });
            else reject(new ApiError('POST', path, status, answer));
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`POST ${path}: no answer in 15 s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Closes the connection `post` keeps. */
  close(): void {
    this.#agent.destroy();
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

  /** Signs up a fresh account and makes a full-access API key for it. */
  async signUp(): Promise<void> {
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
    this.userId = (signUp.body as { user: { id: string } }).user.id;
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
