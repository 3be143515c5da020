import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

/**
 * Every failure leaves as `{error}`: client mistakes with a message that names
 * the problem, anything unexpected as a bare 500 (the detail goes to the log only).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.status)
        .headers(error.headers)
        .send({ ...error.details, error: error.message });
    }
    if (error.validation) {
      return reply.status(400).send({ error: validationMessage(error) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, wrong content type, body too large.
      const message =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type; send application/json'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'Request body too large'
            : status === 400
              ? 'Malformed request body'
              : error.message;
      return reply.status(status).send({ error: message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error' });
  });

  // Every path and its methods, so that a wrong method answers 405, not 404.
  const paths = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = paths.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    paths.set(route.url, set);
  });

  app.setNotFoundHandler((request, reply) => {
    const allowed = paths.get(pathOf(request.url));
    if (allowed) {
      return reply
        .status(405)
        .header('allow', [...allowed].join(', '))
        .send({ error: 'Method not allowed' });
    }
    return reply.status(404).send({ error: 'Not found' });
  });
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const part = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'request');
  const params: Record<string, unknown> = first.params;
  const field =
    typeof params.missingProperty === 'string'
      ? params.missingProperty
      : first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'required') return `${part}: ${field} is required`;
  return field ? `${part}: ${field} ${first.message ?? 'is invalid'}` : `${part} ${first.message ?? 'is invalid'}`;
}
