import type { FastifyInstance } from 'fastify';

/** A refusal from the HTTP API, carried to the agent in the API's own words. */
export class ToolError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

export type ApiCall = <T = Record<string, unknown>>(method: string, path: string, options?: CallOptions) => Promise<T>;

/**
 * The agent's API key calling the HTTP API in-process: every tool goes the
 * same road as a script would — the route's schema, the guard (read-only keys
 * refused on writes), the one policy, the write path, its events and
 * Idempotency-Key — so MCP cannot drift from the API or bypass a rule.
 */
export function apiCaller(app: FastifyInstance, apiKey: string): ApiCall {
  return async <T>(method: string, path: string, { query, body, idempotencyKey }: CallOptions = {}): Promise<T> => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) search.set(k, String(v));
    const qs = search.toString();
    const res = await app.inject({
      method: method as 'GET',
      url: `/api/data${path}${qs ? `?${qs}` : ''}`,
      headers: {
        'x-api-key': apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = res.body === '' ? {} : (JSON.parse(res.body) as Record<string, unknown>);
    if (res.statusCode >= 400) {
      throw new ToolError(res.statusCode, typeof parsed.error === 'string' ? parsed.error : `HTTP ${res.statusCode}`);
    }
    return parsed as T;
  };
}
