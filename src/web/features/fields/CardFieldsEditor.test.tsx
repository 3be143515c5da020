import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { keys } from '../../api/queries';
import type { Field, FieldValue } from '../../api/types';
import { dropField, upsertField } from '../../api/cache';
import { cardListItem } from '../../test/fixtures';
import { renderApp, testQueryClient } from '../../test/render';
import { CardFieldsEditor, shownValue } from './CardFieldsEditor';

/** The card dialog's custom fields: each edited by its type, a change sent as `{fieldId: value | null}`. */

const field = (id: number, name: string, type: Field['type'], options: string[] = []): Field => ({
  id,
  boardId: 7,
  name,
  type,
  options,
  showOnCard: false,
  sort: id,
});
const FIELDS = [
  field(1, 'Points', 'number'),
  field(2, 'Size', 'select', ['S', 'L']),
  field(3, 'Approved', 'checkbox'),
  field(4, 'Spec', 'url'),
];

test('edits each field by its type, sends only valid values, and clears with an empty choice', async () => {
  const qc = testQueryClient();
  qc.setQueryData(keys.fields(7), FIELDS);
  const changes: Array<Record<string, FieldValue | null>> = [];
  const user = userEvent.setup();
  renderApp(<CardFieldsEditor boardId={7} values={{ 2: 'L' }} writeAccess onChange={(c) => changes.push(c)} />, { qc });

  const points = screen.getByRole('spinbutton', { name: 'Points' });
  await user.type(points, '2.5{Enter}');
  expect(changes).toEqual([{ 1: 2.5 }]);

  const size = screen.getByRole('combobox', { name: 'Size' });
  expect((size as HTMLSelectElement).value).toBe('L');
  await user.selectOptions(size, '');
  expect(changes[1]).toEqual({ 2: null });

  await user.click(screen.getByRole('checkbox', { name: 'Approved' }));
  expect(changes[2]).toEqual({ 3: true });

  const spec = screen.getByRole('textbox', { name: 'Spec' });
  await user.type(spec, 'ftp://x{Enter}');
  expect(changes).toHaveLength(3);
  expect(spec.getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByText('Enter an address starting with http:// or https://.')).toBeTruthy();
  await user.clear(spec);
  await user.type(spec, 'https://example.com{Enter}');
  await waitFor(() => expect(changes[3]).toEqual({ 4: 'https://example.com' }));
});

test('a reader sees the values but cannot change them; a board without fields shows nothing', () => {
  const qc = testQueryClient();
  qc.setQueryData(keys.fields(7), FIELDS);
  const { unmount } = renderApp(
    <CardFieldsEditor boardId={7} values={{ 1: 3 }} writeAccess={false} onChange={() => undefined} />,
    { qc },
  );
  const points = screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Points' });
  expect(points.value).toBe('3');
  expect(points.disabled).toBe(true);
  unmount();
  qc.setQueryData(keys.fields(8), []);
  const { container } = renderApp(<CardFieldsEditor boardId={8} values={{}} writeAccess onChange={() => undefined} />, { qc });
  expect(container.querySelector('.card-fields')).toBeNull();
});

test('the cache keeps fields in order and drops a removed field’s values from every card', () => {
  const qc = testQueryClient();
  qc.setQueryData(keys.fields(7), [FIELDS[0]!, FIELDS[1]!]);
  qc.setQueryData(keys.areas(7), [{ id: 1, board: 7, name: 'A', sort: 0, wipLimit: null }]);
  qc.setQueryData(keys.cards(1), [cardListItem({ id: 5, fields: { 1: 3, 2: 'S' } }), cardListItem({ id: 6 })]);
  upsertField(qc, 7, { ...FIELDS[1]!, sort: 0 });
  upsertField(qc, 7, { ...FIELDS[0]!, sort: 1 });
  expect(qc.getQueryData<Field[]>(keys.fields(7))!.map((f) => f.name)).toEqual(['Size', 'Points']);
  dropField(qc, 7, 1);
  expect(qc.getQueryData<Field[]>(keys.fields(7))!.map((f) => f.name)).toEqual(['Size']);
  expect(qc.getQueryData<Array<{ fields: object }>>(keys.cards(1))!.map((c) => c.fields)).toEqual([{ 2: 'S' }, {}]);
  expect(shownValue({ type: 'date' }, '2026-12-24T08:00:00.000Z')).toBe('2026-12-24');
  expect(shownValue({ type: 'checkbox' }, true)).toBe('✓');
});
