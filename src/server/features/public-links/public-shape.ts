import type { Card, CardListItem } from '../../../shared/api/cards.js';
import { publicImagePath, type PublicBoard, type PublicCard, type PublicChange } from '../../../shared/api/public-links.js';
import type { BoardEvent, BoardEventMap } from '../../../shared/events.js';

/**
 * What a public viewer may see of boards and cards, shared by the first load
 * (`publicBoard`) and the live changes (`publicChange`) so that both agree.
 */

/** Pasted pictures as rendered (`/api/data/image/<name>`), which need an account; quoted, as markdown-it writes attributes. */
const OWN_IMAGE = /(["'])\/api\/data\/image\/([0-9a-f]{32}(?:\.[a-z0-9]{1,10})?)(?=["'])/g;

/** Points the board's pasted pictures at the public link's own image route. */
export function publicHtml(html: string, token: string): string {
  return html.replace(OWN_IMAGE, (_all, quote: string, name: string) => quote + publicImagePath(token, name));
}

/** A card without anyone on it: no assignees, no author, no reminders. */
export function publicCard(card: CardListItem & { html: string }, token: string): PublicCard {
  return {
    id: card.id,
    name: card.name,
    html: publicHtml(card.html, token),
    status: card.status,
    dueDate: card.dueDate,
    labels: card.labels,
    checklist: card.checklist,
    fields: card.fields,
  };
}

export function publicBoardInfo(board: Pick<PublicBoard['board'], 'name' | 'style' | 'color' | 'image'>): PublicBoard['board'] {
  return {
    name: board.name,
    style: board.style,
    color: board.color,
    // An uploaded cover is served to accounts only; an outside picture anyone can load.
    image: board.image && /^https?:\/\//i.test(board.image) ? board.image : null,
  };
}

/**
 * How an event reaches a public viewer: a change it applies, `reload` when
 * it cannot be reshaped safely (the page reads the board again), `gone` when
 * the board no longer opens through a link, or null when nothing public
 * changed (comments, attachments, members, people).
 */
export type PublicDelivery = { change: (token: string) => PublicChange } | 'reload' | 'gone' | null;

export function publicDelivery(event: BoardEvent): PublicDelivery {
  const data = event.data;
  const as = <K extends keyof BoardEventMap>(_name: K) => data as BoardEventMap[K];
  switch (event.name) {
    case 'card.created':
    case 'card.updated':
    case 'card.restored': {
      const card: Card = as('card.updated').card;
      if (card.archivedAt !== null) return { change: () => ({ name: 'card.removed', cardId: card.id }) };
      return {
        change: (token) => ({ name: 'card.changed', areaId: card.area, index: card.sort, card: publicCard(card, token) }),
      };
    }
    case 'card.moved': {
      const { cardId, toAreaId, newIndex } = as('card.moved');
      return { change: () => ({ name: 'card.moved', cardId, toAreaId, newIndex }) };
    }
    case 'card.archived':
    case 'card.deleted':
      return { change: () => ({ name: 'card.removed', cardId: as('card.deleted').cardId }) };
    case 'area.updated': {
      const { area } = as('area.updated');
      return { change: () => ({ name: 'area.renamed', areaId: area.id, areaName: area.name }) };
    }
    case 'area.archived':
    case 'area.deleted':
      return { change: () => ({ name: 'area.removed', areaId: as('area.deleted').areaId }) };
    case 'areas.reordered': {
      const areaIds = as('areas.reordered').areas.map((a) => a.id);
      return { change: () => ({ name: 'areas.reordered', areaIds }) };
    }
    case 'board.updated': {
      const board = publicBoardInfo(as('board.updated').board);
      return { change: () => ({ name: 'board.changed', board }) };
    }
    case 'board.archived':
    case 'board.deleted':
      return 'gone';
    // Where a new or restored area goes, or which cards a renamed label is on, the page reads again.
    case 'area.created':
    case 'area.restored':
    case 'labels.changed':
    case 'field.created':
    case 'field.updated':
    case 'field.deleted':
    case 'board.created':
    case 'board.restored':
      return 'reload';
    case 'member.added':
    case 'member.updated':
    case 'member.removed':
    case 'person.updated':
    case 'attachment.created':
    case 'attachment.deleted':
    case 'comment.created':
    case 'comment.updated':
    case 'comment.deleted':
      return null;
  }
}
