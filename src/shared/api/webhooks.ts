import { Type, type Static } from 'typebox';
import { BOARD_EVENT_NAMES } from '../events.js';
import { Id } from './common.js';

export const WebhookEventName = Type.Union(BOARD_EVENT_NAMES.map((name) => Type.Literal(name)));

export const WebhookCreate = Type.Object({
  boardId: Id,
  url: Type.String({ minLength: 1, maxLength: 2000, description: 'http:// or https://, no credentials' }),
  events: Type.Optional(
    Type.Array(WebhookEventName, { maxItems: BOARD_EVENT_NAMES.length, description: 'Absent or empty: every event' }),
  ),
});
export type WebhookCreate = Static<typeof WebhookCreate>;

export const Webhook = Type.Object({
  id: Type.Integer(),
  boardId: Type.Integer(),
  url: Type.String(),
  /** Empty: every event. */
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  createdAt: Type.String(),
});
export type Webhook = Static<typeof Webhook>;

/** Only the answer to creating a webhook carries its secret. */
export const WebhookWithSecret = Type.Object({ ...Webhook.properties, secret: Type.String() });
export type WebhookWithSecret = Static<typeof WebhookWithSecret>;

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);

export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  event: Type.String(),
  status: DeliveryStatus,
  responseStatus: Type.Union([Type.Integer(), Type.Null()]),
  attempts: Type.Integer(),
  createdAt: Type.String(),
  deliveredAt: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;
