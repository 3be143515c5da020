import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, Id, Success, errorResponses } from '../../../shared/api/common.js';
import { Webhook, WebhookCreate, WebhookDelivery, WebhookWithSecret } from '../../../shared/api/webhooks.js';
import type { Deps } from '../../deps.js';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, redeliver } from './webhooks.service.js';

const tags = ['Webhooks'];
const writeErrors = { ...errorResponses, 409: ErrorBody };

/** Outgoing webhooks of a board; everything here is for the board's owner only. */
export function webhookRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/webhook',
    {
      config: { secretAnswer: true },
      schema: {
        tags,
        summary:
          "Add a webhook to a board: every board event (or those named in `events`) is POSTed to `url`, signed with the answer's " +
          '`secret`, which is shown this once. Loopback, private, link-local and metadata addresses are refused (400) unless ' +
          'WEBHOOK_ALLOW_PRIVATE is set',
        body: WebhookCreate,
        response: { 200: Type.Object({ webhook: WebhookWithSecret }), ...writeErrors },
      },
    },
    async (request) => ({ webhook: await createWebhook(deps, request.actor, request.body) }),
  );

  r.get(
    '/webhook',
    {
      schema: {
        tags,
        summary: "A board's webhooks, without their secrets",
        querystring: Type.Object({ boardId: Id }),
        response: { 200: Type.Object({ webhooks: Type.Array(Webhook) }), ...errorResponses },
      },
    },
    async (request) => ({ webhooks: await listWebhooks(deps, request.actor, request.query.boardId) }),
  );

  r.delete(
    '/webhook',
    {
      schema: {
        tags,
        summary: 'Remove a webhook and its deliveries',
        querystring: Type.Object({ id: Id }),
        response: { 200: Success, ...writeErrors },
      },
    },
    async (request) => {
      await deleteWebhook(deps, request.actor, request.query.id);
      return { success: true };
    },
  );

  r.get(
    '/webhook-deliveries',
    {
      schema: {
        tags,
        summary: "A webhook's last 50 deliveries, newest first",
        querystring: Type.Object({ id: Id }),
        response: { 200: Type.Object({ deliveries: Type.Array(WebhookDelivery) }), ...errorResponses },
      },
    },
    async (request) => ({ deliveries: await listDeliveries(deps, request.actor, request.query.id) }),
  );

  r.post(
    '/webhook-redeliver',
    {
      schema: {
        tags,
        summary:
          "Send a delivery's event again, as a new delivery (409 when the webhook is inactive or the event is no longer kept)",
        body: Type.Object({ deliveryId: Id }),
        response: { 200: Type.Object({ delivery: WebhookDelivery }), ...writeErrors },
      },
    },
    async (request) => ({ delivery: await redeliver(deps, request.actor, request.body.deliveryId) }),
  );
}
