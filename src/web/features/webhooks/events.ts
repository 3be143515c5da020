import type { BoardEventName } from '../../../shared/events.js';

export type EventGroup = 'board' | 'areas' | 'cards' | 'comments' | 'people';

/**
 * The events a webhook can pick, grouped as the picker shows them.
 * `board.created` is left out: it happens before a board can have a webhook.
 */
export const EVENT_GROUPS = [
  {
    group: 'board',
    events: [
      'board.updated',
      'board.archived',
      'board.restored',
      'board.deleted',
      'labels.changed',
      'field.created',
      'field.updated',
      'field.deleted',
    ],
  },
  {
    group: 'areas',
    events: ['area.created', 'area.updated', 'area.archived', 'area.restored', 'area.deleted', 'areas.reordered'],
  },
  {
    group: 'cards',
    events: ['card.created', 'card.updated', 'card.moved', 'card.archived', 'card.restored', 'card.deleted'],
  },
  {
    group: 'comments',
    events: ['comment.created', 'comment.updated', 'comment.deleted', 'attachment.created', 'attachment.deleted'],
  },
  { group: 'people', events: ['member.added', 'member.updated', 'member.removed', 'person.updated'] },
] as const satisfies ReadonlyArray<{ group: EventGroup; events: readonly BoardEventName[] }>;

export type WebhookEventName = (typeof EVENT_GROUPS)[number]['events'][number];

// A new board event that nobody placed in a group fails to compile here.
type Unplaced = Exclude<BoardEventName, WebhookEventName | 'board.created'>;
const everyEventPlaced: [Unplaced] extends [never] ? true : Unplaced = true;
void everyEventPlaced;

/** The i18n key part of an event's human name (i18next reads dots as nesting). */
export const eventKey = (event: string) => event.replace('.', '_') as EventKey;
type KeyOf<E> = E extends `${infer A}.${infer B}` ? `${A}_${B}` : never;
export type EventKey = KeyOf<BoardEventName>;
