import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, test } from 'vitest';
import { Toasts } from '../../app/Toasts';
import type { Board, Card } from '../../api/types';
import { mockFetch, ME, renderApp, type Call } from '../../test/render';
import CardDialog from './CardDialog';
import { cardListItem } from '../../test/fixtures';

/** The card dialog: editing a card's name and description, as the server is asked and as the page shows it. */

const BOARD: Board = {
  id: 7,
  user: ME.user.id,
  name: 'Launch',
  style: 'kanban',
  image: null,
  color: null,
  status: 'private',
  archivedAt: null,
};

const CARD: Card = {
  ...cardListItem({ id: 42, area: 3, name: 'Write the plan' }),
  boardId: 7,
  html: '',
  reminders: [],
  archivedAt: null,
};

let server: ReturnType<typeof mockFetch>;
/** What the server does with a card update: stores it (or refuses with `refuse`). */
let refuse: { status: number; error: string } | null;
let stored: Card;

beforeEach(() => {
  refuse = null;
  stored = { ...CARD };
  server = mockFetch((call: Call) => {
    const { method, path } = call;
    if (path === '/api/data/card' && method === 'GET') return { body: { card: stored } };
    if (path === '/api/data/card' && method === 'PUT') {
      if (refuse) return { status: refuse.status, body: { error: refuse.error } };
      const { cardID: _id, ...change } = call.body as Partial<Card> & { cardID: number };
      stored = { ...stored, ...change, html: change.content === undefined ? stored.html : `<p>${change.content}</p>` };
      return { body: { card: stored, next: null } };
    }
    if (path === '/api/data/areas') return { body: { areas: [{ id: 3, board: 7, name: 'To do', sort: 0 }] } };
    if (path === '/api/data/labels') return { body: { labels: [] } };
    if (path === '/api/data/comment') return { body: { comments: [] } };
    if (path === '/api/data/card-activity') return { body: { activity: [] } };
    if (path === '/api/data/invite') return { body: { members: [], pending: [] } };
    if (path === '/api/data/notifications') return { body: { success: true } };
    return undefined;
  });
});

function open() {
  return renderApp(
    <>
      <CardDialog cardId={42} board={BOARD} writeAccess viewers={undefined} onMove={() => {}} onClose={() => {}} />
      <Toasts />
    </>,
    { path: '/board/7?card=42' },
  );
}

const cardUpdates = () => server.writes().filter((c) => c.method === 'PUT' && c.path === '/api/data/card');

test('a new name is sent for this card alone and shows as the title', async () => {
  const user = userEvent.setup();
  open();
  const dialog = await screen.findByRole('dialog');
  expect(await within(dialog).findByText('Write the plan')).toBeInTheDocument();

  await user.click(within(dialog).getByRole('button', { name: 'Rename the card' }));
  const name = within(dialog).getByRole('textbox', { name: 'Card name' });
  await user.clear(name);
  await user.type(name, 'Write the launch plan{Enter}');

  expect(within(dialog).getByTestId('card-title')).toHaveTextContent('Write the launch plan');
  await waitFor(() => expect(cardUpdates()).toHaveLength(1));
  expect(cardUpdates()[0]!.body).toEqual({ cardID: 42, name: 'Write the launch plan' });
});

test('a description written and saved is sent as Markdown and shows rendered', async () => {
  const user = userEvent.setup();
  open();
  const dialog = await screen.findByRole('dialog');
  await user.click(await within(dialog).findByRole('button', { name: /Add a description/ }));
  await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Ask **legal** first');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));

  await waitFor(() => expect(cardUpdates()).toHaveLength(1));
  expect(cardUpdates()[0]!.body).toEqual({ cardID: 42, content: 'Ask **legal** first' });
  // Rendered, with the emphasis as emphasis.
  expect(await within(dialog).findByText('legal', { selector: 'strong' })).toBeInTheDocument();
  expect(within(dialog).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
});

test('a refused rename puts the old name back and says why', async () => {
  refuse = { status: 409, error: 'conflict' };
  const user = userEvent.setup();
  open();
  const dialog = await screen.findByRole('dialog');
  await within(dialog).findByText('Write the plan');

  await user.click(within(dialog).getByRole('button', { name: 'Rename the card' }));
  const name = within(dialog).getByRole('textbox', { name: 'Card name' });
  await user.clear(name);
  await user.type(name, 'Something else{Enter}');

  await waitFor(() => expect(within(dialog).getByTestId('card-title')).toHaveTextContent('Write the plan'));
  expect(await screen.findByText(/^Not saved:/)).toBeInTheDocument();
  expect(stored.name).toBe('Write the plan');
});

test('an unchanged name asks the server for nothing', async () => {
  const user = userEvent.setup();
  open();
  const dialog = await screen.findByRole('dialog');
  await within(dialog).findByText('Write the plan');
  await user.click(within(dialog).getByRole('button', { name: 'Rename the card' }));
  await user.type(within(dialog).getByRole('textbox', { name: 'Card name' }), '{Enter}');
  expect(within(dialog).getByTestId('card-title')).toHaveTextContent('Write the plan');
  expect(cardUpdates()).toHaveLength(0);
});
