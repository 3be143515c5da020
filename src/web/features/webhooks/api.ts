import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BoardEventName } from '../../../shared/events.js';
import { api } from '../../api/client';
import type { Webhook, WebhookDelivery, WebhookWithSecret } from '../../api/types';

export type { Webhook };

export const webhookKeys = {
  list: (boardId: number) => ['webhooks', boardId] as const,
  deliveries: (webhookId: number) => ['webhook-deliveries', webhookId] as const,
};

export const webhooksQuery = (boardId: number) =>
  queryOptions({
    queryKey: webhookKeys.list(boardId),
    queryFn: async () => (await api<{ webhooks: Webhook[] }>('/api/data/webhook', { query: { boardId } })).webhooks,
  });

/** The last deliveries, newest first; asked again every few seconds while shown, so pending ones settle on screen. */
export const deliveriesQuery = (webhookId: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(webhookId),
    queryFn: async () =>
      (await api<{ deliveries: WebhookDelivery[] }>('/api/data/webhook-deliveries', { query: { id: webhookId } })).deliveries,
    refetchInterval: 3000,
  });

/**
 * The writes of the dialog. They throw, so the dialog can show a refusal
 * beside the control and stay open.
 */

/** Answers the new webhook with its signing secret, which the server shows only this once. */
export async function addWebhook(
  qc: QueryClient,
  boardId: number,
  url: string,
  events: BoardEventName[],
): Promise<WebhookWithSecret> {
  try {
    const { webhook } = await api<{ webhook: WebhookWithSecret }>('/api/data/webhook', {
      method: 'POST',
      body: { boardId, url, events },
    });
    return webhook;
  } finally {
    await qc.invalidateQueries({ queryKey: webhookKeys.list(boardId) });
  }
}

export async function deleteWebhook(qc: QueryClient, webhook: Webhook): Promise<void> {
  try {
    await api('/api/data/webhook', { method: 'DELETE', query: { id: webhook.id } });
  } finally {
    await qc.invalidateQueries({ queryKey: webhookKeys.list(webhook.boardId) });
  }
  qc.removeQueries({ queryKey: webhookKeys.deliveries(webhook.id) });
}

export async function redeliver(qc: QueryClient, webhookId: number, deliveryId: number): Promise<void> {
  try {
    await api('/api/data/webhook-redeliver', { method: 'POST', body: { deliveryId } });
  } finally {
    await qc.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) });
  }
}
