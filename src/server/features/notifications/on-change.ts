import type { BoardFact, ChangeSubscriber, WrittenScope } from '../../events/subscribers.js';
import type { NotificationData } from '../../i18n/notifications.js';
import { newlyMentionedReaders } from '../mentions/mentions.service.js';
import { assigneesOf } from './notifications.repository.js';
import { notify } from './notifications.service.js';

/**
 * Notifications follow board changes (registered in app.ts): each fact a
 * change tells becomes a notification for whom it concerns, written in the
 * change's own transaction (it exists exactly when the change does) and
 * pushed to their open connections after the commit. Never to the one who acted.
 * The service's own work (no actor) notifies only through the facts that are
 * its own (a reminder due, a webhook turned off): the one producer of
 * notifications is this subscriber.
 */
export const notificationsOnChange: ChangeSubscriber = {
  written: async (scope, { facts }) => {
    // Whom this change mentioned: they hear of it once, as a mention (the facts tell mentions first).
    const mentioned = new Set<string>();
    for (const fact of facts) await notifyOf(scope, fact, mentioned);
  },
  // These facts notify the board's audience but the one who acted: nobody, when nobody else joined it.
  quiet: (facts, { actor, audience }) => facts.every((name) => TO_AUDIENCE.has(name)) && audience.every((id) => id === actor?.id),
};

/** Facts whose notification goes to the board's audience (and never to the one who acted). */
const TO_AUDIENCE: ReadonlySet<string> = new Set(['card.made', 'card.status', 'card.moved']);

async function notifyOf(scope: WrittenScope, fact: BoardFact, mentioned: Set<string>): Promise<void> {
  const { board } = scope;
  const to = async (notification: NotificationData, cardId: number | null, recipients?: string[]): Promise<void> =>
    notify(scope, scope.deps, {
      ...notification,
      recipients: recipients ?? (await scope.audience()),
      boardId: board.id,
      cardId,
      actor: scope.actor,
    });
  switch (fact.name) {
    case 'card.due': {
      const { cardId, card, due } = fact.data;
      const audience = await scope.audience();
      const assignees = (await assigneesOf(scope.trx, cardId)).filter((id) => audience.includes(id));
      const params = { card, board: board.name, due };
      return to({ type: 'card_due', params }, cardId, assignees.length > 0 ? assignees : audience);
    }
    case 'webhook.disabled': {
      const { url, failures } = fact.data;
      return to({ type: 'webhook_disabled', params: { url, board: board.name, failures } }, null, [board.ownerId]);
    }
  }
  const actor = scope.actor;
  if (!actor) return;
  switch (fact.name) {
    case 'card.made': {
      const { cardId, card } = fact.data;
      return to({ type: 'card_created', params: { actor: actor.name, card, board: board.name } }, cardId);
    }
    case 'card.assigned': {
      const { cardId, card, assignees } = fact.data;
      return to({ type: 'card_assigned', params: { actor: actor.name, card } }, cardId, assignees);
    }
    case 'card.status': {
      const { cardId, card, done } = fact.data;
      return to({ type: 'card_status_changed', params: { actor: actor.name, card, done } }, cardId);
    }
    case 'card.moved': {
      const { cardId, card, from, to: into } = fact.data;
      return to({ type: 'card_moved', params: { actor: actor.name, card, from, to: into } }, cardId);
    }
    case 'text.mentioned': {
      const { cardId, card, commentId, before, after } = fact.data;
      const recipients = await newlyMentionedReaders({ audience: scope.audience, actor }, before, after);
      if (recipients.length === 0) return;
      for (const id of recipients) mentioned.add(id);
      const params = { actor: actor.name, card, boardId: board.id, cardId, ...(commentId === undefined ? {} : { commentId }) };
      return to({ type: 'mention', params }, cardId, recipients);
    }
    case 'comment.written': {
      const { cardId, card, excerpt } = fact.data;
      const recipients = (await scope.audience()).filter((id) => !mentioned.has(id));
      return to({ type: 'comment', params: { actor: actor.name, card, excerpt } }, cardId, recipients);
    }
    case 'member.granted':
      return to({ type: 'invitation', params: { actor: actor.name, board: board.name } }, null, [fact.data.userId]);
  }
}
