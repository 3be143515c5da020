import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.js';
import { account, healthy, start, stop, type ServerProcess } from '../../../test/processes.js';
import { querySpans, startTracing, tracingEnabled } from './tracing.js';

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, string | number>;
}

/** An OTLP/HTTP receiver on loopback: what an OpenTelemetry collector would be given, as JSON. */
async function otlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close: () => Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      if (request.url === '/v1/traces') {
        const sent = JSON.parse(body.toString('utf8')) as {
          resourceSpans: Array<{
            scopeSpans: Array<{ spans: Array<Omit<ReceivedSpan, 'attributes'> & { attributes?: Attr[] }> }>;
          }>;
        };
        for (const resource of sent.resourceSpans)
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans) spans.push({ ...span, attributes: attributesOf(span.attributes ?? []) });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

type Attr = { key: string; value: { stringValue?: string; intValue?: string | number } };
const attributesOf = (list: Attr[]) =>
  Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? Number(value.intValue)]));

async function until<T>(what: string, find: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('tracing off', () => {
  it('loads no SDK and times no query when no OTLP endpoint is set', async () => {
    const stop = await startTracing({}, 'test');
    expect(tracingEnabled()).toBe(false);
    expect(querySpans('sqlite')).toBeUndefined();
    await stop();
  });
});

for (const dialect of dialects) {
  describe(`traces to an OTLP endpoint [${dialect}]`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('sends each request as a trace with its SQL spans, and jobs and realtime deliveries as traces', async () => {
      const receiver = await otlpReceiver();
      cleanups.push(receiver.close);
      const database: TestDatabase = await createTestDatabase(dialect);
      cleanups.push(() => database.drop());
      const server: ServerProcess = await start(database.url, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'tavla-test',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
      cleanups.push(() => stop(server));
      await healthy(server.url);
      const { key, userId } = await account(server.url);

      // A caller's own trace continues through Tavla (W3C traceparent).
      const traceId = randomBytes(16).toString('hex');
      const made = await fetch(`${server.url}/api/data/board`, {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
        },
        body: JSON.stringify({ userId, name: 'Traced', style: 'kanban', status: 'private' }),
      });
      expect(made.status).toBe(200);
      const { board } = (await made.json()) as { board: { id: number } };

      const request = await until('request span', () =>
        receiver.spans.find((s) => s.traceId === traceId && s.name === 'POST /api/data/board'),
      );
      expect(request.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.route': '/api/data/board',
        'http.response.status_code': 200,
      });
      // Every span of the trace descends from the request's; among them the statements that made the board.
      const sql = await until('SQL spans', () => {
        const inTrace = receiver.spans.filter((s) => s.traceId === traceId && s.attributes['db.query.text']);
        return inTrace.some((s) => /insert into "boards"/i.test(String(s.attributes['db.query.text']))) ? inTrace : undefined;
      });
      const ids = new Set(receiver.spans.filter((s) => s.traceId === traceId).map((s) => s.spanId));
      for (const span of sql) {
        expect(span.attributes['db.system.name']).toBe(dialect === 'postgres' ? 'postgresql' : 'sqlite');
        expect(ids.has(span.parentSpanId ?? '')).toBe(true);
        // Placeholders only: the board's name is a value, never part of a statement's text.
        expect(String(span.attributes['db.query.text'])).not.toContain('Traced');
      }

      // The recurring jobs run when the process starts: each a trace of its own, with its queries.
      const job = await until('job span', () => receiver.spans.find((s) => s.name.startsWith('job ')));
      await until('a job query', () =>
        receiver.spans.find((s) => s.traceId === job.traceId && s.parentSpanId === job.spanId && s.attributes['db.query.text']),
      );

      // The write went to the board's realtime viewers (none yet) in a span of the request's trace.
      const delivery = await until('realtime delivery span', () =>
        receiver.spans.find((s) => s.name === 'realtime deliver' && s.attributes['tavla.board.id'] === board.id),
      );
      expect(delivery.traceId).toBe(traceId);
      expect(delivery.attributes['tavla.board.version']).toBeGreaterThan(0);
    }, 60_000);
  });
}
