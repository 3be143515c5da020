import { describe, expect, test } from 'vitest';
import { areaDropOrder, cardDropIndex, type AreaTargetData, type CardTargetData } from './dnd';

/** Where a dropped card or area lands, as the move request will ask for it. */

const cards = (...ids: number[]) => ids.map((id) => ({ id }));
const onCard = (areaId: number, cardId: number, edge: 'top' | 'bottom'): CardTargetData => ({
  type: 'card-target',
  areaId,
  cardId,
  edge,
});
const onArea = (areaId: number, aboveCards: boolean): AreaTargetData => ({
  type: 'area-target',
  areaId,
  edge: 'top',
  aboveCards,
});

describe('a card dropped', () => {
  test('on the upper half of a card in another area takes that card’s place; on the lower half, the place after it', () => {
    const target = cards(10, 11, 12, 13, 14);
    expect(cardDropIndex(target, 1, 100, onCard(200, 13, 'top'))).toBe(3);
    expect(cardDropIndex(target, 1, 100, onCard(200, 13, 'bottom'))).toBe(4);
    expect(cardDropIndex(target, 1, 100, onCard(200, 10, 'top'))).toBe(0);
  });

  test('further down its own area lands before the card it was dropped on, counted without itself', () => {
    // 1 2 3 4: the first dropped on the top of the fourth ends as 2 3 1 4.
    expect(cardDropIndex(cards(1, 2, 3, 4), 1, 100, onCard(100, 4, 'top'))).toBe(2);
    // …and on its bottom, last.
    expect(cardDropIndex(cards(1, 2, 3, 4), 1, 100, onCard(100, 4, 'bottom'))).toBe(3);
  });

  test('further up its own area lands before the card it was dropped on', () => {
    expect(cardDropIndex(cards(1, 2, 3, 4), 4, 100, onCard(100, 2, 'top'))).toBe(1);
  });

  test('on the area itself goes first when above its cards, else last', () => {
    expect(cardDropIndex(cards(10, 11, 12), 1, 100, onArea(200, true))).toBe(0);
    expect(cardDropIndex(cards(10, 11, 12), 1, 100, onArea(200, false))).toBe(3);
    expect(cardDropIndex([], 1, 100, onArea(200, false))).toBe(0);
  });

  test('where it already is, or on itself, moves nothing', () => {
    expect(cardDropIndex(cards(1, 2, 3), 2, 100, onCard(100, 2, 'top'))).toBeNull();
    expect(cardDropIndex(cards(1, 2, 3), 2, 100, onCard(100, 3, 'top'))).toBeNull();
    expect(cardDropIndex(cards(1, 2, 3), 2, 100, onCard(100, 1, 'bottom'))).toBeNull();
    expect(cardDropIndex(cards(1, 2, 3), 3, 100, onArea(100, false))).toBeNull();
  });

  test('on a card that is no longer listed moves nothing', () => {
    expect(cardDropIndex(cards(10, 11), 1, 100, onCard(200, 99, 'top'))).toBeNull();
  });
});

describe('an area dropped', () => {
  const areas = cards(1, 2, 3, 4);
  const ids = (list: { id: number }[] | null) => list?.map((a) => a.id) ?? null;
  const edge = (areaId: number, side: 'left' | 'right'): AreaTargetData => ({
    type: 'area-target',
    areaId,
    edge: side,
    aboveCards: false,
  });

  test('on the right edge of another goes after it, on the left edge before it', () => {
    expect(ids(areaDropOrder(areas, 1, edge(3, 'right')))).toEqual([2, 3, 1, 4]);
    expect(ids(areaDropOrder(areas, 1, edge(3, 'left')))).toEqual([2, 1, 3, 4]);
    expect(ids(areaDropOrder(areas, 4, edge(1, 'left')))).toEqual([4, 1, 2, 3]);
  });

  test('where it already is, or on itself, changes nothing', () => {
    expect(areaDropOrder(areas, 2, edge(1, 'right'))).toBeNull();
    expect(areaDropOrder(areas, 2, edge(3, 'left'))).toBeNull();
    expect(areaDropOrder(areas, 2, edge(2, 'right'))).toBeNull();
  });
});
