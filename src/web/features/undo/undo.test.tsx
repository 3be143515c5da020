import { describe, expect, test } from 'vitest';
import { keys } from '../../api/queries';
import type { Area, Card, Label } from '../../api/types';
import { cardListItem } from '../../test/fixtures';
import { mockFetch, testQueryClient, type Call } from '../../test/render';
import type { BoardEvent } from '../../../shared/events.js';
import { updateCard } from '../card/api';
import { undoLast, redoLast } from './actions';
import { noteBoardEvent } from './others';
import { undoStackOf } from './stack';
import { editsText, historyKey } from './useUndoKeys';
import { setUndoUser } from './who';

/**
 * A card edit made through the app goes on the board's history; undo sends the
 * inverse through the card's normal PUT, unless someone else changed the card since.
 */

let nextBoard = 100;

function setup(server: Partial<Card> = {}) {
  const boardId = nextBoard++;
  const areaId = boardId * 10;
  const qc = testQueryClient();
  const urgent: Label = { id: 7, name: 'urgent' };
  const card = {
    ...cardListItem({ id: boardId * 100, area: areaId, name: 'Old name' }),
    boardId,
    html: '',
    reminders: [],
    archivedAt: null,
  } as Card;
  qc.setQueryData<Area[]>(keys.areas(boardId), [{ id: areaId, board: boardId, name: 'To do', sort: 0, wipLimit: null }]);
  qc.setQueryData(keys.cards(areaId), [card]);
  qc.setQueryData<Label[]>(keys.labels(boardId), [urgent]);
  // What the server holds: each PUT is applied to it; `server` overrides what the GET answers (someone else's change).
  let held: Card = { ...card };
  const fetch = mockFetch((call: Call) => {
    if (call.path === '/api/data/card' && call.method === 'PUT') {
      const body = call.body as Record<string, unknown>;
      const labelIds = body.labelIds as number[] | undefined;
      held = {
        ...held,
        ...(typeof body.name === 'string' ? { name: body.name } : {}),
        ...(labelIds ? { labels: labelIds.map((id) => (id === 7 ? urgent : { id, name: 'urgent' })) } : {}),
        ...(body.fields ? { fields: cleaned({ ...held.fields, ...(body.fields as Record<string, unknown>) }) } : {}),
      };
      return { body: { card: held, next: null } };
    }
    if (call.path === '/api/data/card') return { body: { card: { ...held, ...server } } };
    if (call.path === '/api/data/labels' && call.method === 'POST') return { body: { label: { id: 8, name: 'urgent' } } };
    if (call.path === '/api/data/board-history') {
      return {
        body: {
          entries: [
            {
              version: 9,
              at: '',
              actor: { id: 'u-ben', name: 'Ben Builder' },
              name: 'card.updated',
              summary: server.name ?? null,
            },
          ],
        },
      };
    }
    return undefined;
  });
  return { qc, boardId, card, fetch, held: () => held };
}

function cleaned(fields: Record<string, unknown>): Card['fields'] {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null)) as Card['fields'];
}

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT').map((c) => c.body);

describe('undo of a card edit', () => {
  test('sends the old values back through the normal update, and redo sends the new ones again', async () => {
    const { qc, boardId, card, fetch } = setup();
    await updateCard(qc, boardId, card, { name: 'New name', labelIds: [7], fields: { '3': 'x' } });
    expect((await undoLast(boardId)).kind).toBe('done');
    expect(puts(fetch.calls).at(-1)).toEqual({ cardID: card.id, name: 'Old name', labelIds: [], fields: { '3': null } });
    expect((await redoLast(boardId)).kind).toBe('done');
    expect(puts(fetch.calls).at(-1)).toEqual({ cardID: card.id, name: 'New name', labelIds: [7], fields: { '3': 'x' } });
    expect(puts(fetch.calls)).toHaveLength(3);
  });

  test('a label nobody wears any more is made again by its name', async () => {
    const { qc, boardId, card, fetch } = setup();
    await updateCard(qc, boardId, card, { labelIds: [7] });
    await undoLast(boardId);
    qc.setQueryData<Label[]>(keys.labels(boardId), []); // the label went with its last card
    await redoLast(boardId);
    expect(fetch.calls.some((c) => c.path === '/api/data/labels' && c.method === 'POST')).toBe(true);
    expect(puts(fetch.calls).at(-1)).toEqual({ cardID: card.id, labelIds: [8] });
  });

  test('a value someone else changed since is not overwritten; the board history names them when the stream did not', async () => {
    setUndoUser('u-me');
    const { qc, boardId, card, fetch } = setup({ name: 'Their name' });
    await updateCard(qc, boardId, card, { name: 'New name' });
    const outcome = await undoLast(boardId);
    expect(outcome).toMatchObject({ kind: 'conflict', by: 'Ben Builder' });
    expect(puts(fetch.calls)).toHaveLength(1);
    expect(undoStackOf(boardId).sizes).toEqual({ undo: 0, redo: 0 });
  });

  test('any change by someone else that the stream reported stops it, even of another part of the card', async () => {
    const { qc, boardId, card, fetch, held } = setup();
    await updateCard(qc, boardId, card, { name: 'New name' });
    const event = {
      boardId,
      version: 5,
      name: 'card.updated',
      actor: { id: 'u-cleo', name: 'Cleo' },
      data: { card: { ...held(), dueDate: '2030-01-01T00:00:00.000Z' } },
      createdAt: '',
    } as BoardEvent;
    noteBoardEvent({ ...event, actor: { id: 'u-me', name: 'Me' } }, 'u-me'); // my own echo: no matter
    expect((await undoLast(boardId)).kind).toBe('done');
    await redoLast(boardId);
    noteBoardEvent(event, 'u-me');
    expect(await undoLast(boardId)).toMatchObject({ kind: 'conflict', by: 'Cleo' });
    expect(puts(fetch.calls)).toHaveLength(3);
  });
});

describe('the undo keys', () => {
  const press = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) =>
    historyKey({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

  test('Ctrl or ⌘ with Z undoes; with Shift, or Ctrl+Y, redoes; nothing else does', () => {
    expect(press('z', { ctrlKey: true })).toBe('undo');
    expect(press('z', { metaKey: true })).toBe('undo');
    expect(press('Z', { ctrlKey: true, shiftKey: true })).toBe('redo');
    expect(press('z', { metaKey: true, shiftKey: true })).toBe('redo');
    expect(press('y', { ctrlKey: true })).toBe('redo');
    expect(press('z')).toBeNull();
    expect(press('z', { ctrlKey: true, altKey: true })).toBeNull();
    expect(press('x', { ctrlKey: true })).toBeNull();
  });

  test('are left to the browser in text fields and editors', () => {
    const input = document.createElement('input');
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const editor = document.createElement('div');
    editor.setAttribute('contenteditable', 'true');
    const inEditor = document.createElement('span');
    editor.append(inEditor);
    document.body.append(editor);
    expect(editsText(inEditor)).toBe(true);
    expect(editsText(input)).toBe(true);
    expect(editsText(document.createElement('textarea'))).toBe(true);
    expect(editsText(checkbox)).toBe(false);
    expect(editsText(document.createElement('button'))).toBe(false);
    expect(editsText(document.body)).toBe(false);
    editor.remove();
  });
});
