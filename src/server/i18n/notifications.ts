import type { Language } from '../config.js';
import { formatDate, texts } from './messages.js';

/**
 * What each notification type records: the words of the moment (names as
 * they were then), never a sentence, so that each reader gets the sentence in
 * their own language when they read it.
 */
export interface NotificationParams {
  card_created: { actor: string; card: string; board: string };
  card_moved: { actor: string; card: string; from: string; to: string };
  card_status_changed: { actor: string; card: string; done: boolean };
  card_assigned: { actor: string; card: string };
  comment: { actor: string; card: string; excerpt: string };
  /** Someone was mentioned in a card's description, or in one of its comments (`commentId`). */
  mention: { actor: string; card: string; boardId: number; cardId: number; commentId?: number };
  /** `due` is the ISO instant; each reader sees it written their way. */
  card_due: { card: string; board: string; due: string };
  invitation: { actor: string; board: string };
  webhook_disabled: { url: string; board: string; failures: number };
}

export type NotificationType = keyof NotificationParams;

/** A notification's type with its parameters, checked together by the compiler. */
export type NotificationData = { [K in NotificationType]: { type: K; params: NotificationParams[K] } }[NotificationType];

/** A kind ending in `?` may also be left out. */
type FieldKind = 'string' | 'number' | 'boolean' | 'number?';

/** The shape of each type's parameters, for checking what comes back from the database. */
const FIELDS: { [K in NotificationType]: Record<keyof NotificationParams[K], FieldKind> } = {
  card_created: { actor: 'string', card: 'string', board: 'string' },
  card_moved: { actor: 'string', card: 'string', from: 'string', to: 'string' },
  card_status_changed: { actor: 'string', card: 'string', done: 'boolean' },
  card_assigned: { actor: 'string', card: 'string' },
  comment: { actor: 'string', card: 'string', excerpt: 'string' },
  mention: { actor: 'string', card: 'string', boardId: 'number', cardId: 'number', commentId: 'number?' },
  card_due: { card: 'string', board: 'string', due: 'string' },
  invitation: { actor: 'string', board: 'string' },
  webhook_disabled: { url: 'string', board: 'string', failures: 'number' },
};

export const NOTIFICATION_TYPES = Object.keys(FIELDS) as NotificationType[];

const isType = (type: string): type is NotificationType => Object.hasOwn(FIELDS, type);

/** The sentence for a notification in one language. */
export function renderNotification(data: NotificationData, language: Language): string {
  const t = texts[language];
  switch (data.type) {
    case 'card_created':
      return t.cardCreated(data.params);
    case 'card_moved':
      return t.cardMoved(data.params);
    case 'card_status_changed':
      return data.params.done ? t.cardDone(data.params) : t.cardReopened(data.params);
    case 'card_assigned':
      return t.cardAssigned(data.params);
    case 'comment':
      return t.comment(data.params);
    case 'mention':
      return data.params.commentId === undefined ? t.mentionInCard(data.params) : t.mentionInComment(data.params);
    case 'card_due': {
      const { card, board, due } = data.params;
      return t.cardDue({ card, board, when: formatDate(due, language) });
    }
    case 'invitation':
      return t.invitation(data.params);
    case 'webhook_disabled':
      return t.webhookDisabled(data.params);
  }
}

/**
 * A stored type and its parameters (JSON text) as data, or null when they do
 * not make one: a type this version does not know, a row written before
 * notifications kept their parameters, or parameters of the wrong shape.
 */
export function readNotification(type: string, params: string | null): NotificationData | null {
  if (params === null || !isType(type)) return null;
  let value: unknown;
  try {
    value = JSON.parse(params);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const fields = FIELDS[type] as Record<string, FieldKind>;
  for (const [name, kind] of Object.entries(fields)) {
    const field = (value as Record<string, unknown>)[name];
    if (kind.endsWith('?') ? field !== undefined && typeof field !== kind.slice(0, -1) : typeof field !== kind) return null;
  }
  return { type, params: value } as NotificationData;
}

/**
 * A stored notification's sentence in the reader's language; the text stored
 * beside it (written in the instance language when the notification was made)
 * when its parameters cannot be read, or when no reader's language is known.
 */
export function notificationText(
  row: { type: string; params: string | null; message: string },
  language: Language | null,
): string {
  if (language === null) return row.message;
  const data = readNotification(row.type, row.params);
  return data ? renderNotification(data, language) : row.message;
}
