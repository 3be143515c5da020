import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { tracingEnabled } from './tracing.js';

const tracer = trace.getTracer('tavla');
/** The request's span, kept on the request itself (it lives exactly as long). */
const SPAN = Symbol('span');
type Traced = { [SPAN]?: Span | undefined };

/**
 * One server span per request, named by its route template (never the raw
 * path: ids would multiply the names, and some paths carry a secret), the
 * parent of every span made while the request is handled. Registered first,
 * so that the hooks after it and the handler run inside its context: `done`
 * is called bound to that context, and everything the rest of the request
 * awaits descends from that call. An incoming `traceparent` is honoured.
 */
export function traceRequests(app: FastifyInstance): void {
  if (!tracingEnabled()) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const parent = propagation.extract(context.active(), request.headers);
    const span = tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, ...(route ? { 'http.route': route } : {}) },
      },
      parent,
    );
    (request as Traced)[SPAN] = span;
    context.bind(trace.setSpan(parent, span), done)();
  });
  const end = (request: Traced, status: number, aborted = false) => {
    const span = request[SPAN];
    if (!span) return;
    request[SPAN] = undefined;
    span.setAttribute('http.response.status_code', status);
    if (status >= 500 || aborted) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  app.addHook('onResponse', (request, reply, done) => {
    end(request as Traced, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    end(request as Traced, 499, true);
    done();
  });
}
