import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isForeignOrigin, resolveActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { serviceVersion } from '../version.js';
import { apiCaller, ToolError } from './api-call.js';
import { tools } from './tools.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: false, strict: false }));
const validators = new Map<string, ValidateFunction>(tools.map((t) => [t.name, ajv.compile(t.input)]));

/** The API key of an MCP request: `Authorization: Bearer <key>` or `X-API-Key`; cookies never count here. */
function apiKeyOf(request: FastifyRequest): string | null {
  const auth = request.headers.authorization;
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim() || null;
  const header = request.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key || null;
}

/**
 * An MCP server (Streamable HTTP, stateless: every request stands alone, so
 * any process behind a load balancer can answer it) whose tools call the
 * HTTP API as the key's account.
 */
export function registerMcp(app: FastifyInstance, deps: Deps): void {
  const baseOrigin = new URL(deps.config.baseUrl).origin;

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    schema: {
      tags: ['Agents'],
      summary:
        'MCP server (Streamable HTTP, JSON-RPC) for AI agents: Authorization: Bearer <API key> or X-API-Key; tools list_boards, get_board, search_cards, get_card, create_card, update_card, move_card, archive_card, claim_card, add_comment, create_area, set_labels, assign, list_notifications, mark_notifications_read',
    },
    async handler(request, reply) {
      // A browser page elsewhere must not drive the agent endpoint (DNS rebinding, forged requests).
      if (request.headers.origin !== undefined && isForeignOrigin(request, baseOrigin)) {
        return reply.status(403).send({ error: 'Cross-site request refused' });
      }
      const key = apiKeyOf(request);
      if (!key) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ error: 'An API key is required: Authorization: Bearer <key> or X-API-Key' });
      }
      request.headers['x-api-key'] = key;
      const actor = await resolveActor(request, deps.database.db, deps.auth);
      if (!actor) return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'Invalid API key' });

      const server = mcpServer(app, actor, key);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
}

function mcpServer(app: FastifyInstance, actor: Actor, key: string): Server {
  const server = new Server(
    { name: 'tavla', version: serviceVersion },
    {
      capabilities: { tools: {} },
      instructions:
        'Tavla boards: boards hold areas (lists) in order, areas hold cards in order. Start with list_boards, then get_board. ' +
        'Writes take an optional idempotencyKey: reuse it when retrying so the change happens once. ' +
        'Several agents share work safely with claim_card.',
    },
  );
  const offered = tools.filter((t) => t.readOnly || !actor.readOnly);
  const ctx = { call: apiCaller(app, key), userId: actor.id };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: offered.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.input,
      annotations: { readOnlyHint: t.readOnly, idempotentHint: t.readOnly },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const found = tools.find((t) => t.name === request.params.name);
    if (!found) return failure(`Unknown tool: ${request.params.name}`);
    if (!found.readOnly && actor.readOnly) return failure('This API key is read-only');
    const args = request.params.arguments ?? {};
    const validate = validators.get(found.name)!;
    if (!validate(args)) {
      const first = validate.errors?.[0];
      const field =
        first?.instancePath.replace(/^\//, '').replace(/\//g, '.') ||
        (first?.params as { missingProperty?: string })?.missingProperty;
      return failure(
        `${field ?? 'arguments'} ${first?.keyword === 'required' ? 'is required' : (first?.message ?? 'is invalid')}`,
      );
    }
    try {
      const result = await found.run(args, ctx);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    } catch (error) {
      if (error instanceof ToolError) return failure(error.message);
      app.log.error({ err: error, tool: found.name }, 'MCP tool failed');
      return failure('Internal server error');
    }
  });
  return server;
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
