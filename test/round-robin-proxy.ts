import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * A load balancer of the plainest kind, in front of several server processes
 * on 127.0.0.1: each HTTP request and each WebSocket upgrade goes to the next
 * process in turn, with no sticky sessions. A process that refuses the
 * connection (it is down) is skipped; a request under way when its process
 * dies gets a 502, never a second attempt, since it may have been applied.
 */
export class RoundRobinProxy {
  /** How many requests and upgrades each backend was given. */
  readonly handled = new Map<string, number>();
  /** How many WebSocket upgrades each backend was given. */
  readonly upgraded = new Map<string, number>();
  /** How many requests failed because their backend failed them (died, reset the connection) after taking them. */
  readonly failed = new Map<string, number>();
  #backends: URL[] = [];
  #next = 0;
  readonly #agent = new http.Agent({ keepAlive: true });
  readonly #tunnels = new Set<Duplex>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  /** Listens on a free port of 127.0.0.1; the backends can be given later (they may need the proxy's address first). */
  static async start(backends: string[] = []): Promise<RoundRobinProxy> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const proxy = new RoundRobinProxy(server, `http://127.0.0.1:${port}`);
    proxy.setBackends(backends);
    server.on('request', (req, res) => proxy.#request(req, res));
    server.on('upgrade', (req, socket, head) => proxy.#upgrade(req, socket, head));
    return proxy;
  }

  setBackends(urls: string[]): void {
    this.#backends = urls.map((u) => new URL(u));
  }

  /** The backends in turn, starting with the next one: the order to try them for one request. */
  #turn(): URL[] {
    const n = this.#backends.length;
    const first = this.#next++ % Math.max(1, n);
    return Array.from({ length: n }, (_, i) => this.#backends[(first + i) % n]!);
  }

  #count(backend: URL): void {
    this.handled.set(backend.origin, (this.handled.get(backend.origin) ?? 0) + 1);
  }

  #failed(backend: URL): void {
    this.failed.set(backend.origin, (this.failed.get(backend.origin) ?? 0) + 1);
  }

  #request(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const order = this.#turn();
      const attempt = (i: number) => {
        const backend = order[i];
        if (!backend) return fail(res, 502);
        const upstream = http.request(
          {
            host: backend.hostname,
            port: backend.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
            agent: this.#agent,
          },
          (answer) => {
            this.#count(backend);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('error', () => {
              this.#failed(backend);
              res.destroy();
            });
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          // Refused: that process is down and never saw the request, so the next one may take it.
          if (error.code === 'ECONNREFUSED') return attempt(i + 1);
          this.#failed(backend);
          fail(res, 502);
        });
        upstream.end(body);
      };
      attempt(0);
    });
  }

  #upgrade(req: http.IncomingMessage, client: Duplex, head: Buffer): void {
    const order = this.#turn();
    this.#tunnels.add(client);
    client.on('close', () => this.#tunnels.delete(client));
    client.on('error', () => client.destroy());
    const attempt = (i: number) => {
      const backend = order[i];
      if (!backend) return client.destroy();
      const upstream = net.connect(Number(backend.port), backend.hostname);
      let connected = false;
      upstream.on('connect', () => {
        connected = true;
        this.#count(backend);
        this.upgraded.set(backend.origin, (this.upgraded.get(backend.origin) ?? 0) + 1);
        const lines = [`${req.method} ${req.url} HTTP/1.1`];
        for (let k = 0; k < req.rawHeaders.length; k += 2) lines.push(`${req.rawHeaders[k]}: ${req.rawHeaders[k + 1]}`);
        upstream.write(lines.join('\r\n') + '\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (!connected && error.code === 'ECONNREFUSED') return attempt(i + 1);
        client.destroy();
      });
      // The process went away: so does the viewer's connection, which then reconnects through the proxy.
      upstream.on('close', () => connected && client.destroy());
      client.on('close', () => upstream.destroy());
    };
    attempt(0);
  }

  async close(): Promise<void> {
    for (const tunnel of this.#tunnels) tunnel.destroy();
    this.server.closeAllConnections();
    this.#agent.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function fail(res: http.ServerResponse, status: number): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: 'Bad gateway' }));
}
