import type { BoardFact, ChangeSubscriber, WrittenScope } from '../../events/subscribers.js';
import type { NotificationData } from '../../i18n/notifications.js';
import { newlyMentionedReaders } from '../mentions/mentions.service.js';
import { notify } from './notifications.service.js';

/**
 * Notifications follow board changes (registered in app.ts): each fact a
 * change tells becomes a notification for whom it concerns, written in the
 * change's own transaction (it exists exactly when the change does) and
 * pushed to their open connections after the commit. Never to the one who acted;
 * the service's own work (no actor) notifies nobody.
 */
export const notificationsOnChange: ChangeSubscriber = {
  written: async (scope, { facts }) => {
    if (!scope.actor) return;
    // Whom this change mentioned: they hear of it once, as a mention (the facts tell mentions first).
    const mentioned = new Set<string>();
    for (const fact of facts) await notifyOf(scope, fact, mentioned);
  },
};

async function notifyOf(scope: WrittenScope, fact: BoardFact, mentioned: Set<string>): Promise<void> {
  const actor = scope.actor!;
  const { board } = scope;
  const to = async (notification: NotificationData, cardId: number | null, recipients?: string[]): Promise<void> =>
    notify(scope, scope.deps, {
      ...notification,
      recipients: recipients ?? (await scope.audience()),
      boardId: board.id,
      cardId,
      actor,
    });
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
