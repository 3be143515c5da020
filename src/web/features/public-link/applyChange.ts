import type { PublicBoard, PublicChange } from '../../../shared/api/public-links.js';

type Area = PublicBoard['areas'][number];

const without = (areas: Area[], cardId: number) => areas.map((a) => ({ ...a, cards: a.cards.filter((c) => c.id !== cardId) }));

function insertAt<T>(list: T[], index: number, item: T): T[] {
  const at = Math.max(0, Math.min(index, list.length));
  return [...list.slice(0, at), item, ...list.slice(at)];
}

/** The public board after one live change (every change is safe to apply twice). */
export function applyPublicChange(board: PublicBoard, version: number, change: PublicChange): PublicBoard {
  const next = { ...board, version };
  switch (change.name) {
    case 'card.changed': {
      const { card, areaId, index } = change;
      if (board.areas.some((a) => a.cards.some((c) => c.id === card.id)))
        return { ...next, areas: board.areas.map((a) => ({ ...a, cards: a.cards.map((c) => (c.id === card.id ? card : c)) })) };
      return {
        ...next,
        areas: board.areas.map((a) => (a.id === areaId ? { ...a, cards: insertAt(a.cards, index, card) } : a)),
      };
    }
    case 'card.moved': {
      const card = board.areas.flatMap((a) => a.cards).find((c) => c.id === change.cardId);
      if (!card) return next;
      return {
        ...next,
        areas: without(board.areas, card.id).map((a) =>
          a.id === change.toAreaId ? { ...a, cards: insertAt(a.cards, change.newIndex, card) } : a,
        ),
      };
    }
    case 'card.removed':
      return { ...next, areas: without(board.areas, change.cardId) };
    case 'area.renamed':
      return { ...next, areas: board.areas.map((a) => (a.id === change.areaId ? { ...a, name: change.areaName } : a)) };
    case 'area.removed':
      return { ...next, areas: board.areas.filter((a) => a.id !== change.areaId) };
    case 'areas.reordered': {
      const order = new Map(change.areaIds.map((id, i) => [id, i]));
      return { ...next, areas: [...board.areas].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)) };
    }
    case 'board.changed':
      return { ...next, board: change.board };
  }
}
