import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, test } from 'vitest';
import type { CardListItem } from '../../api/types';
import { cardListItem } from '../../test/fixtures';
import { mockFetch, renderApp } from '../../test/render';
import { BoardFilter, type CardMatcher } from './BoardFilter';

/** The board filter: what it leaves on the board, and that the address keeps it. */

const ann = { id: 'u-ann', name: 'Ann Berg', image: null, type: 'human' };
const card = (id: number, name: string, fields: Partial<CardListItem> = {}): CardListItem =>
  cardListItem({ id, name, sort: id, ...fields });
const CARDS = [
  card(1, 'Fix the login bug', { labels: [{ id: 3, name: 'urgent' }], assignees: [ann], fields: { 9: 'High', 10: true } }),
  card(2, 'Write release notes', { status: 1, fields: { 9: 'Low' } }),
  card(3, 'Bug bash on Friday'),
];

/** The board as far as the filter goes: the cards its matcher lets through. */
function Board() {
  const [matches, setMatches] = useState<CardMatcher | null>(null);
  return (
    <>
      <BoardFilter boardId={7} onChange={(next) => setMatches(() => next)} />
      <ul aria-label="cards">
        {CARDS.filter((c) => !matches || matches(c)).map((c) => (
          <li key={c.id}>{c.name}</li>
        ))}
      </ul>
    </>
  );
}

const shown = () =>
  within(screen.getByRole('list', { name: 'cards' }))
    .queryAllByRole('listitem')
    .map((li) => li.textContent);
const address = () => screen.getByTestId('location').textContent;

beforeEach(() => {
  mockFetch(({ path }) => {
    if (path === '/api/data/labels') return { body: { labels: [{ id: 3, name: 'urgent' }] } };
    if (path === '/api/data/members') return { body: { members: [{ ...ann, permission: 'edit' }] } };
    if (path === '/api/data/fields')
      return {
        body: {
          fields: [
            { id: 9, boardId: 7, name: 'Priority', type: 'select', options: ['High', 'Low'], showOnCard: true, sort: 0 },
            { id: 10, boardId: 7, name: 'Signed off', type: 'checkbox', options: [], showOnCard: false, sort: 1 },
          ],
        },
      };
    return undefined;
  });
});

test('text leaves only the cards whose name holds it, in any case, and goes into the address', async () => {
  const user = userEvent.setup();
  renderApp(<Board />, { path: '/board/7' });
  expect(shown()).toHaveLength(3);

  await user.click(screen.getByRole('button', { name: 'Filter' }));
  await user.type(screen.getByRole('searchbox', { name: 'Name contains' }), 'bug');

  expect(shown()).toEqual(['Fix the login bug', 'Bug bash on Friday']);
  expect(address()).toBe('/board/7?q=bug');
});

test('parts combine: a label and a status leave only the cards that have both', async () => {
  const user = userEvent.setup();
  renderApp(<Board />, { path: '/board/7' });
  await user.click(screen.getByRole('button', { name: 'Filter' }));
  await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'open');
  expect(shown()).toEqual(['Fix the login bug', 'Bug bash on Friday']);

  await user.click(await screen.findByRole('checkbox', { name: 'urgent' }));
  expect(shown()).toEqual(['Fix the login bug']);
  expect(new URLSearchParams(address()?.split('?')[1])).toEqual(new URLSearchParams('labels=3&status=open'));
});

test('a filter in the address applies on arrival, and clearing it shows every card again', async () => {
  const user = userEvent.setup();
  renderApp(<Board />, { path: '/board/7?status=done&card=2' });
  expect(shown()).toEqual(['Write release notes']);

  await user.click(screen.getByRole('button', { name: /clear/i }));
  expect(shown()).toHaveLength(3);
  // Only the filter's own part of the address goes; the open card stays.
  expect(address()).toBe('/board/7?card=2');
});

test('a custom field leaves the cards with that value (or any value), and goes into the address', async () => {
  const user = userEvent.setup();
  renderApp(<Board />, { path: '/board/7' });
  await user.click(screen.getByRole('button', { name: 'Filter' }));
  await user.selectOptions(await screen.findByRole('combobox', { name: 'Custom field' }), 'Priority');
  expect(shown()).toEqual(['Fix the login bug', 'Write release notes']);
  expect(address()).toBe('/board/7?field=9');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Value' }), 'Low');
  expect(shown()).toEqual(['Write release notes']);
  expect(address()).toBe('/board/7?field=9&fvalue=Low');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Custom field' }), 'Signed off');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Value' }), 'Not ticked');
  expect(shown()).toEqual(['Write release notes', 'Bug bash on Friday']);
});
