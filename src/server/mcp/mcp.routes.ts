import type { FastifyInstance } from 'fastify';
import { identify, presentedKey } from '../auth/identify.js';
import { isForeignOrigin } from '../auth/origin.js';
import type { Deps } from '../deps.js';

/**
 * The MCP SDK, the tool schemas and their compiled validators load on the first
 * authenticated MCP request: they weigh several MiB of heap, and most
 * instances never serve an agent.
 */
let session: Promise<typeof import('./mcp-session.js')> | undefined;
const loadSession = () => (session ??= import('./mcp-session.js'));

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
      // A browser page elsewhere must not drive the agent endpoint (DNS rebinding, forged requests);
      // MCP clients send no Origin, so only BASE_URL's own passes.
      if (isForeignOrigin(request, baseOrigin)) {
        return reply.status(403).send({ error: 'Cross-site request refused' });
      }
      // The key goes on to the tools, which call the HTTP API with it.
      const key = presentedKey(request, { bearer: true });
      if (!key) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ error: 'An API key is required: Authorization: Bearer <key> or X-API-Key' });
      }
      const actor = await identify(request, deps, { accept: 'key' });
      if (!actor) return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'Invalid API key' });

      const { serveMcp } = await loadSession();
      await serveMcp(app, actor, key, request, reply);
    },
  });
}
