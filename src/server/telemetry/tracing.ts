import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { LogEvent } from 'kysely';

/**
 * Traces (OpenTelemetry), on only when `OTEL_EXPORTER_OTLP_ENDPOINT` (or its
 * traces-only twin) is set. Off, nothing of the SDK is loaded and every helper
 * here returns before creating anything, so tracing costs a boolean test.
 *
 * Spans are made here rather than by the SDK's module-patching
 * instrumentations: the server runs as one bundle (scripts/build-server.mjs),
 * in which `pg` and `fastify` are never `require`d by name, so there is
 * nothing for a require hook to patch. Each seam is ours instead: one hook for
 * requests (telemetry/http.ts), Kysely's query log for SQL on both databases,
 * the job runner and the realtime hub.
 */
const tracer = trace.getTracer('tavla');
let enabled = false;

export function tracingEnabled(): boolean {
  return enabled;
}

/** Starts the SDK when an OTLP endpoint is configured; answers how to flush and stop it. */
export async function startTracing(env: NodeJS.ProcessEnv, version: string): Promise<() => Promise<void>> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return () => Promise.resolve();
  const { startSdk } = await import('./sdk.js');
  const stop = startSdk(env.OTEL_SERVICE_NAME || 'tavla', version);
  enabled = true;
  return async () => {
    enabled = false;
    await stop();
  };
}

/** Runs `work` as the active span `name` (its child spans nest under it), or just runs it when tracing is off. */
export function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  if (!enabled) return work();
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Kysely's `log` option that records each query as a client span under the
 * active one, or undefined when tracing is off (Kysely then times nothing).
 * Only the statement's text with its placeholders is kept, never a value.
 */
export function querySpans(system: string): ((event: LogEvent) => void) | undefined {
  if (!enabled) return undefined;
  return (event) => {
    const end = Date.now();
    const text = event.query.sql;
    const span = tracer.startSpan(text.trimStart().split(/\s/, 1)[0]!.toUpperCase(), {
      kind: SpanKind.CLIENT,
      startTime: end - event.queryDurationMillis,
      attributes: { 'db.system.name': system, 'db.query.text': text },
    });
    if (event.level === 'error') {
      span.recordException(event.error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(end);
  };
}
