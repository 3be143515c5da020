import type { FastifyInstance } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { CLIENT_IP_HEADER, type Auth } from './auth.js';

/** Hands `/api/auth/*` to better-auth, turning its `{message}` errors into our `{error}` shape. */
export function registerAuthRoutes(app: FastifyInstance, auth: Auth, baseUrl: string): void {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    async handler(request, reply) {
      const headers = fromNodeHeaders(request.headers);
      // Only the address Fastify determined counts, never one a client claims.
      headers.set(CLIENT_IP_HEADER, request.ip);
      const body = request.body === undefined ? undefined : JSON.stringify(request.body);
      if (body !== undefined) headers.set('content-type', 'application/json');
      const response = await auth.handler(new Request(new URL(request.url, baseUrl), { method: request.method, headers, body }));

      reply.status(response.status);
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);

      const text = await response.text();
      if (response.status >= 400) return reply.send({ error: errorMessage(text, response.status) });
      if (text === '') return reply.send();
      return reply.type(response.headers.get('content-type') ?? 'application/json').send(text);
    },
  });
}

function errorMessage(text: string, status: number): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown; code?: unknown };
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
    if (typeof parsed.code === 'string' && parsed.code) return parsed.code;
  } catch {
    // Not JSON: fall through to the status text.
  }
  return status === 429 ? 'Too many requests, try again later' : 'Request refused';
}
