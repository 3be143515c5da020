import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { MarkdownView } from './Description';
import { mentionBeingTyped, MentionTextarea } from './MentionTextarea';
import { mockFetch, renderApp } from '../../test/render';

/** The @-autocomplete of the comment and description editors: what it offers, what it inserts, by keyboard and pointer. */

const PEOPLE = [
  { id: 'u-elo', name: 'Élodie Martin', image: null },
  { id: 'u-eli', name: 'Eli Stone', image: null },
];

function Editor({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <MentionTextarea boardId={7} aria-label="Comment" value={value} onValueChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

function serve() {
  return mockFetch(({ path, search }) => {
    if (path !== '/api/data/mentionable') return undefined;
    const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    return { body: { people: PEOPLE.filter((p) => fold(p.name).startsWith(fold(search.get('q') ?? ''))) } };
  });
}

test('finds the mention being typed before the caret, and nothing inside words or addresses', () => {
  expect(mentionBeingTyped('hi @el', 6)).toEqual({ start: 3, query: 'el' });
  expect(mentionBeingTyped('@', 1)).toEqual({ start: 0, query: '' });
  expect(mentionBeingTyped('mail ann@example', 16)).toBeNull();
  expect(mentionBeingTyped('hi @el and more', 15)).toBeNull();
  expect(mentionBeingTyped('hi @[Eli](u-eli) ', 17)).toBeNull();
});

test('typing @ offers the board’s people; arrows choose, Enter inserts the mention form', async () => {
  const { calls } = serve();
  const user = userEvent.setup();
  renderApp(<Editor />);
  const box = screen.getByRole('textbox', { name: 'Comment' });
  await user.type(box, 'Thanks @el');
  const list = await screen.findByRole('listbox');
  expect(list).toBeTruthy();
  expect(screen.getAllByRole('option').map((o) => o.querySelector('.mention-name')!.textContent)).toEqual([
    'Élodie Martin',
    'Eli Stone',
  ]);
  expect(calls.at(-1)!.search.get('boardId')).toBe('7');
  expect(calls.at(-1)!.search.get('q')).toBe('el');
  expect(box.getAttribute('aria-controls')).toBe(list.id);
  expect(screen.getByRole('option', { selected: true }).querySelector('.mention-name')!.textContent).toBe('Élodie Martin');
  await user.keyboard('{ArrowDown}');
  expect(screen.getByRole('option', { selected: true }).querySelector('.mention-name')!.textContent).toBe('Eli Stone');
  expect(box.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { selected: true }).id);
  await user.keyboard('{Enter}');
  expect(screen.getByTestId('value').textContent).toBe('Thanks @[Eli Stone](u-eli) ');
  expect(screen.queryByRole('listbox')).toBeNull();
  // The rest goes on as typed text.
  await user.keyboard('and @élo');
  await screen.findByRole('listbox');
  await user.keyboard('{Tab}');
  expect(screen.getByTestId('value').textContent).toBe('Thanks @[Eli Stone](u-eli) and @[Élodie Martin](u-elo) ');
});

test('Escape closes the list without inserting; a click on a person inserts them', async () => {
  serve();
  const user = userEvent.setup();
  renderApp(<Editor />);
  const box = screen.getByRole('textbox', { name: 'Comment' });
  await user.type(box, '@e');
  await screen.findByRole('listbox');
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('listbox')).toBeNull();
  await user.keyboard('{Enter}');
  expect(screen.getByTestId('value').textContent).toBe('@e\n');
  await user.type(box, '@eli');
  await user.click(await screen.findByRole('option', { name: 'Eli Stone' }));
  expect(screen.getByTestId('value').textContent).toBe('@e\n@[Eli Stone](u-eli) ');
  // No one matching: no list.
  await user.type(box, '@zz');
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
});

test('a rendered mention shows as a chip, never the raw form', () => {
  renderApp(<MarkdownView content={'Ask @[Eli Stone](u-eli) today'} interactive={false} />);
  const chip = document.querySelector('span.mention')!;
  expect(chip.textContent).toBe('@Eli Stone');
  expect(chip.getAttribute('data-user-id')).toBe('u-eli');
  expect(document.body.textContent).not.toContain('](u-eli)');
});
