import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** Checks `X-Tavla-Signature` the way a receiver should: HMAC-SHA256 of "<t>.<raw body>", compared in constant time. */
export function verifySignature(secret: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

/**
 * A real HTTP receiver on 127.0.0.1 for the tests: it records every request
 * and answers with `status()`, after `delayMs`, or (with `hold`) only once
 * the test calls `release()`. It counts the requests it has not answered yet.
 */
export class Receiver {
  readonly received: Received[] = [];
  status: (request: Received) => number = () => 200;
  delayMs = 0;
  hold = false;
  /** Requests being answered now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  readonly #held: Array<() => void> = [];
  readonly #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        receiver.received.push(request);
        receiver.inFlight++;
        receiver.maxInFlight = Math.max(receiver.maxInFlight, receiver.inFlight);
        const answer = () => {
          receiver.inFlight--;
          res.writeHead(receiver.status(request)).end('ok');
        };
        if (receiver.hold) receiver.#held.push(answer);
        else if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
  }

  /** Answers the held requests (all, or the first `count`), oldest first. */
  release(count = this.#held.length): void {
    for (const answer of this.#held.splice(0, count)) answer();
  }

  bodies(): Array<Record<string, unknown>> {
    return this.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  }

  close(): Promise<void> {
    this.hold = false;
    this.release();
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
