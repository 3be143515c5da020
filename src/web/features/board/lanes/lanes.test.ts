import { expect, test } from 'vitest';
import type { Field, Person } from '../../../api/types';
import { cardListItem } from '../../../test/fixtures';
import { areaGrouper, groupArea, laneByOf, laneKeysOf, laneList, lanePatch, NONE, type LaneBy } from './lanes';

/** Grouping a board's cards into swimlanes, and what a drop to another lane changes. */

const ana: Person = { id: 'u-ana', name: 'Ana', image: null, type: 'human' };
const ben: Person = { id: 'u-ben', name: 'ben', image: null, type: 'human' };
const cy: Person = { id: 'u-cy', name: 'Cy', image: null, type: 'human' };
const priority: Field = {
  id: 9,
  boardId: 1,
  name: 'Priority',
  type: 'select',
  options: ['High', 'Low'],
  showOnCard: false,
  sort: 0,
};
const notes: Field = { ...priority, id: 10, name: 'Notes', type: 'text', options: [] };
const byAssignee: LaneBy = { by: 'assignee' };
const byLabel: LaneBy = { by: 'label' };
const byPriority: LaneBy = { by: 'field', field: priority };
const sources = { people: [ana], labels: [{ id: 2, name: 'Bug' }], language: 'en', noneName: 'None' };

test('a lanes value is the grouping the board offers, else none', () => {
  expect(laneByOf('assignee', [])).toEqual(byAssignee);
  expect(laneByOf('label', undefined)).toEqual(byLabel);
  expect(laneByOf('field:9', [priority, notes])).toEqual(byPriority);
  // A text field, a field of no board, a field list not yet loaded, nonsense: no lanes.
  expect(laneByOf('field:10', [priority, notes])).toBeNull();
  expect(laneByOf('field:11', [priority])).toBeNull();
  expect(laneByOf('field:9', undefined)).toBeNull();
  for (const value of [null, undefined, '', 'status', 'field:', 'Assignee']) expect(laneByOf(value, [priority])).toBeNull();
});

test('a card is in the lane of each assignee or label it has, of its option, or in "none"', () => {
  const both = cardListItem({ id: 1, assignees: [ben, ana], labels: [{ id: 2, name: 'Bug' }], fields: { '9': 'Low' } });
  const bare = cardListItem({ id: 2 });
  expect(laneKeysOf(both, byAssignee)).toEqual(['p:u-ben', 'p:u-ana']);
  expect(laneKeysOf(both, byLabel)).toEqual(['l:2']);
  expect(laneKeysOf(both, byPriority)).toEqual(['o:Low']);
  expect(laneKeysOf(bare, byAssignee)).toEqual([NONE]);
  expect(laneKeysOf(bare, byLabel)).toEqual([NONE]);
  expect(laneKeysOf(bare, byPriority)).toEqual([NONE]);
  // A value that is no option (any more) counts as none.
  expect(laneKeysOf(cardListItem({ id: 3, fields: { '9': 'Gone' } }), byPriority)).toEqual([NONE]);
});

test('an area groups its cards by lane in the area’s order, a card with two assignees in both', () => {
  const cards = [
    cardListItem({ id: 1, assignees: [ana] }),
    cardListItem({ id: 2 }),
    cardListItem({ id: 3, assignees: [ben, ana] }),
    cardListItem({ id: 4, assignees: [ben] }),
  ];
  const groups = groupArea(cards, byAssignee);
  expect([...groups].map(([key, list]) => [key, list.map((c) => c.id)])).toEqual([
    ['p:u-ana', [1, 3]],
    [NONE, [2]],
    ['p:u-ben', [3, 4]],
  ]);
});

test('grouping is remembered per list and follows the board filter', () => {
  const cards = [cardListItem({ id: 1, labels: [{ id: 2, name: 'Bug' }] }), cardListItem({ id: 2, name: 'Other' })];
  const group = areaGrouper(byLabel, (card) => card.name !== 'Other');
  const first = group(cards);
  expect(group(cards)).toBe(first);
  expect([...first.keys()]).toEqual(['l:2']);
  // A changed list (a new array from the cache) is grouped again.
  expect(group([...cards])).not.toBe(first);
});

test('lanes: people by name with those found on cards, labels and options in the board’s order, "none" last', () => {
  const cards = [[cardListItem({ id: 1, assignees: [cy, ben], labels: [{ id: 5, name: 'Later' }] })], undefined];
  expect(laneList(byAssignee, sources, cards).map((l) => l.name)).toEqual(['Ana', 'ben', 'Cy', 'None']);
  expect(laneList(byLabel, sources, cards).map((l) => l.key)).toEqual(['l:2', 'l:5', NONE]);
  expect(laneList(byPriority, sources, cards).map((l) => [l.key, l.name])).toEqual([
    ['o:High', 'High'],
    ['o:Low', 'Low'],
    [NONE, 'None'],
  ]);
});

test('a drop to another lane replaces that lane’s value, "none" clears, from "none" adds', () => {
  const people = laneList(byAssignee, { ...sources, people: [ana, ben, cy] }, []);
  const card = cardListItem({ id: 1, assignees: [ana, ben] });
  expect(lanePatch(card, byAssignee, 'p:u-ana', 'p:u-cy', people)).toEqual({ assignees: [cy, ben] });
  // To a lane the card is also in: the one it left goes, no duplicate.
  expect(lanePatch(card, byAssignee, 'p:u-ana', 'p:u-ben', people)).toEqual({ assignees: [ben] });
  expect(lanePatch(card, byAssignee, 'p:u-ana', NONE, people)).toEqual({ assignees: [] });
  expect(lanePatch(cardListItem({ id: 2 }), byAssignee, NONE, 'p:u-cy', people)).toEqual({ assignees: [cy] });
  expect(lanePatch(card, byAssignee, 'p:u-ana', 'p:u-ana', people)).toBeNull();
  expect(lanePatch(card, byAssignee, 'p:u-ana', 'p:unknown', people)).toBeNull();

  const labels = laneList(
    byLabel,
    {
      ...sources,
      labels: [
        { id: 2, name: 'Bug' },
        { id: 3, name: 'UX' },
      ],
    },
    [],
  );
  const labelled = cardListItem({ id: 3, labels: [{ id: 2, name: 'Bug' }] });
  expect(lanePatch(labelled, byLabel, 'l:2', 'l:3', labels)).toEqual({ labelIds: [3] });
  expect(lanePatch(labelled, byLabel, 'l:2', NONE, labels)).toEqual({ labelIds: [] });
  expect(lanePatch(cardListItem({ id: 4 }), byLabel, NONE, 'l:2', labels)).toEqual({ labelIds: [2] });

  const options = laneList(byPriority, sources, []);
  expect(lanePatch(cardListItem({ id: 5 }), byPriority, NONE, 'o:High', options)).toEqual({ fields: { '9': 'High' } });
  expect(lanePatch(cardListItem({ id: 5, fields: { '9': 'High' } }), byPriority, 'o:High', NONE, options)).toEqual({
    fields: { '9': null },
  });
});
