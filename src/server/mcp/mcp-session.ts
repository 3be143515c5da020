import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { serviceVersion } from '../version.js';
import { apiCaller, ToolError } from './api-call.js';
import { tools } from './tools.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: false, strict: false }));
const validators = new Map<string, ValidateFunction>(tools.map((t) => [t.name, ajv.compile(t.input)]));

/** Answers one MCP request (stateless): a server and a transport of its own, closed with the connection. */
export async function serveMcp(
  app: FastifyInstance,
  actor: Actor,
  key: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const server = mcpServer(app, actor, key);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
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
