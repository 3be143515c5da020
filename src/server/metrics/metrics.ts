import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';
import type { PoolLoad } from '../db/pool-load.js';
import { observeBatches } from '../events/group-commit.js';

/**
 * The process's Prometheus metrics (`GET /metrics`). Core and features count
 * into the few counters below; what a running app holds (its job queues, its
 * database pool) is read at each scrape from the sources `addMetricsSource`
 * registers. One registry per process: several apps in one process (tests)
 * add up.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });
const registers = [registry];

export const httpDuration = new client.Histogram({
  name: 'tavla_http_request_duration_seconds',
  help: 'HTTP requests by route template and status, and how long they took',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

export type Audience = 'members' | 'public';

export const realtimeSockets = new client.Gauge({
  name: 'tavla_realtime_sockets',
  help: 'Open realtime WebSockets: members (signed in) and public (public-link viewers)',
  labelNames: ['audience'] as const,
  registers,
});

export const realtimeMessages = new client.Counter({
  name: 'tavla_realtime_messages_sent_total',
  help: 'Messages (events, presence, answers) sent on realtime sockets',
  labelNames: ['audience'] as const,
  registers,
});

/** Counts a socket open until it closes. */
export function socketOpened(audience: Audience): () => void {
  realtimeSockets.inc({ audience });
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    realtimeSockets.dec({ audience });
  };
}

export const groupCommitBatches = new client.Histogram({
  name: 'tavla_group_commit_batch_size',
  help: 'Board writes that shared one transaction (group commit)',
  buckets: [1, 2, 4, 8, 16, 32, 48],
  registers,
});
observeBatches((size) => groupCommitBatches.observe(size));

export type WebhookOutcome = 'delivered' | 'slow' | 'retry' | 'failed';

export const webhookDeliveries = new client.Counter({
  name: 'tavla_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: delivered, slow (2xx but slower than WEBHOOK_SLOW_MS), retry, failed (given up)',
  labelNames: ['outcome'] as const,
  registers,
});

export const signInFailures = new client.Counter({
  name: 'tavla_signin_failures_total',
  help: 'Password sign-ins refused for a wrong address or password',
  registers,
});

export const signInLockouts = new client.Counter({
  name: 'tavla_signin_lockouts_total',
  help: 'Password sign-ins refused unchecked because the address is locked after failures',
  registers,
});

export interface QueueLoadSample {
  queue: string;
  depth: number;
  running: number;
  oldestAgeSeconds: number;
}

export interface MetricsSource {
  queues: () => Promise<QueueLoadSample[]>;
  pool: () => PoolLoad;
}

const sources = new Set<MetricsSource>();

/** An app's job runner and database, read at each scrape until the answer is called. */
export function addMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

// One read of the queues serves the three gauges of a scrape.
let queues: { at: number; loads: Promise<QueueLoadSample[]> } | null = null;
function queueLoads(): Promise<QueueLoadSample[]> {
  const now = Date.now();
  if (!queues || now - queues.at > 500) {
    queues = {
      at: now,
      loads: Promise.all([...sources].map((s) => s.queues().catch(() => []))).then((all) => all.flat()),
    };
  }
  return queues.loads;
}

function queueGauge(name: string, help: string, pick: (load: QueueLoadSample) => number, combine: 'sum' | 'max') {
  return new client.Gauge({
    name,
    help,
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      const values = new Map<string, number>();
      for (const load of await queueLoads()) {
        const before = values.get(load.queue) ?? 0;
        values.set(load.queue, combine === 'sum' ? before + pick(load) : Math.max(before, pick(load)));
      }
      for (const [queue, value] of values) this.set({ queue }, value);
    },
  });
}

queueGauge('tavla_jobs_waiting', 'Due jobs waiting for a slot, per queue', (l) => l.depth, 'sum');
queueGauge('tavla_jobs_running', 'Jobs being run now (by any process), per queue', (l) => l.running, 'max');
queueGauge(
  'tavla_jobs_oldest_age_seconds',
  'How long the oldest waiting job has been due, per queue',
  (l) => l.oldestAgeSeconds,
  'max',
);

new client.Gauge({
  name: 'tavla_db_connections',
  help: 'Database connections by state (PostgreSQL: the pool; SQLite: its one connection, in use while a transaction is open)',
  labelNames: ['state'] as const,
  registers,
  collect() {
    let inUse = 0;
    let idle = 0;
    for (const source of sources) {
      const load = source.pool();
      inUse += load.inUse;
      idle += load.idle;
    }
    this.set({ state: 'in_use' }, inUse);
    this.set({ state: 'idle' }, idle);
  },
});

new client.Gauge({
  name: 'tavla_db_pool_waiting',
  help: 'Queries waiting for a pooled connection (PostgreSQL; SQLite has no pool)',
  registers,
  collect() {
    let waiting = 0;
    for (const source of sources) waiting += source.pool().waiting ?? 0;
    this.set(waiting);
  },
});

/** The text a scrape gets, and its content type. */
export async function scrape(): Promise<{ text: string; contentType: string }> {
  return { text: await registry.metrics(), contentType: registry.contentType };
}

/** Whether an `Authorization` header carries the token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export interface MetricsServer {
  /** Where it listens, e.g. `http://127.0.0.1:9464`. */
  url: string;
  address: AddressInfo;
  close(): Promise<void>;
}

/**
 * `METRICS_PORT`: `/metrics` on a port of its own, on loopback unless
 * `METRICS_HOST` says otherwise; `METRICS_TOKEN`, when set, is asked for there too.
 */
export async function serveMetrics(options: { port: number; host: string; token: string | null }): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    if (options.token !== null && !bearerMatches(request.headers.authorization, options.token)) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('Unauthorized\n');
      return;
    }
    scrape().then(
      ({ text, contentType }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    address,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
