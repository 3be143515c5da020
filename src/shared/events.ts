import type { Area } from './api/areas.js';
import type { Attachment } from './api/attachments.js';
import type { Board } from './api/boards.js';
import type { Card, CardListItem } from './api/cards.js';
import type { Comment } from './api/comments.js';
import type { Field, FieldValue } from './api/fields.js';
import type { Member } from './api/sharing.js';

/**
 * Every change to a board, by name, with the data a viewer needs to apply it
 * without a refetch (the shapes the HTTP API answers with). The server emits
 * these and the web app applies them; both compile against this map.
 */
export interface BoardEventMap {
  'board.created': { board: Board };
  'board.updated': { board: Board };
  'board.archived': { board: Board };
  'board.restored': { board: Board };
  /** `memberIds`: who had the board on their dashboard. */
  'board.deleted': { boardId: number; memberIds: string[] };
  'area.created': { area: Area };
  'area.updated': { area: Area };
  'area.archived': { areaId: number };
  'area.restored': { area: Area; cards: CardListItem[] };
  'area.deleted': { areaId: number };
  'areas.reordered': { areas: Area[] };
  'card.created': { card: Card };
  /** `fields`: the custom field values this change set (null: cleared), by field id; present when it set any. */
  'card.updated': { card: Card; fields?: Record<string, FieldValue | null> };
  /** The card's own fields do not change in a move: a viewer moves the card it has to `newIndex` of `toAreaId`. */
  'card.moved': { cardId: number; fromAreaId: number; toAreaId: number; newIndex: number };
  'card.archived': { cardId: number; areaId: number };
  'card.restored': { card: Card };
  'card.deleted': { cardId: number; areaId: number };
  'labels.changed': { labels: Array<{ id: number; name: string }> };
  'field.created': { field: Field };
  /** Renamed, new options, another place or `showOnCard`; a reorder tells each field whose place changed. */
  'field.updated': { field: Field };
  /** The field and every card's value for it are gone. */
  'field.deleted': { fieldId: number };
  'member.added': { member: Member };
  'member.updated': { member: Member };
  'member.removed': { userId: string };
  /** Someone on the board changed their name or picture. */
  'person.updated': { person: { id: string; name: string; image: string | null } };
  'attachment.created': { cardId: number; attachment: Attachment };
  'attachment.deleted': { cardId: number; attachmentId: number };
  'comment.created': { cardId: number; comment: Comment };
  'comment.updated': { cardId: number; comment: Comment };
  'comment.deleted': { cardId: number; commentId: number };
}

export type BoardEventName = keyof BoardEventMap;

/** Every event name at run time (webhook filters are checked against it); the type below keeps it complete. */
export const BOARD_EVENT_NAMES = [
  'board.created',
  'board.updated',
  'board.archived',
  'board.restored',
  'board.deleted',
  'area.created',
  'area.updated',
  'area.archived',
  'area.restored',
  'area.deleted',
  'areas.reordered',
  'card.created',
  'card.updated',
  'card.moved',
  'card.archived',
  'card.restored',
  'card.deleted',
  'labels.changed',
  'field.created',
  'field.updated',
  'field.deleted',
  'member.added',
  'member.updated',
  'member.removed',
  'person.updated',
  'attachment.created',
  'attachment.deleted',
  'comment.created',
  'comment.updated',
  'comment.deleted',
] as const satisfies readonly BoardEventName[];
// Fails to compile when an event is added to the map and not to the list.
const everyEventListed: Exclude<BoardEventName, (typeof BOARD_EVENT_NAMES)[number]> extends never ? true : never = true;
void everyEventListed;

export interface BoardEvent<K extends BoardEventName = BoardEventName> {
  boardId: number;
  version: number;
  name: K;
  actor: { id: string; name: string } | null;
  data: BoardEventMap[K];
  createdAt: string;
}

/** A viewer of a board, as presence messages list them. */
export interface Viewer {
  id: string;
  name: string;
  image: string | null;
  /** The card the viewer has open, if any. */
  cardId: number | null;
}

export type ClientMessage =
  | { type: 'subscribe'; boardId: number; since?: number }
  | { type: 'unsubscribe'; boardId: number }
  | { type: 'presence'; boardId: number; cardId: number | null };

export type ServerMessage =
  | { type: 'subscribed'; boardId: number; version: number }
  | ({ type: 'event' } & BoardEvent)
  | { type: 'resync'; boardId: number }
  | { type: 'error'; boardId?: number; error: string }
  | { type: 'revoked'; boardId: number }
  /** Everyone viewing the board: the first after `subscribed`, and whenever that is shorter than the change. */
  | { type: 'presence'; boardId: number; viewers: Viewer[] }
  /**
   * What changed in the board's viewers since the last presence message:
   * `viewers` joined or changed (whole entries, replacing those with the same
   * `id`), `left` the ids of those gone. Only ever follows a `presence`.
   */
  | { type: 'presenceChange'; boardId: number; viewers: Viewer[]; left: string[] }
  /** A board of the account's dashboard changed: shared with it, renamed, archived, removed. */
  | { type: 'dashboard'; boardId: number; name: BoardEventName; data: unknown }
  | { type: 'notification'; notification: unknown };

/**
 * The close code of a socket whose credential stopped working (signed out,
 * session expired, API key deleted, password changed, account banned or
 * removed): reconnecting with the same credential is pointless.
 */
export const CLOSE_CREDENTIAL_ENDED = 4401;
