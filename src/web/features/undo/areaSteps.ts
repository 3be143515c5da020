import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { attempt } from '../../api/optimistic';
import { keys } from '../../api/queries';
import type { Area, CardListItem } from '../../api/types';
import { archiveArea, renameArea, reorderAreas } from '../board/api';
import { changedBy, lastChangedBy, now } from './others';
import { undoStackOf, type Conflict, type Direction, type UndoStep } from './stack';

/**
 * The undo steps of area changes (added, renamed, reordered, archived). Each
 * reads the board's active areas from the server and compares the part it
 * changed with what this tab left there.
 */

/** The part of the board an area step compares: an area's presence or name, or the order of the areas. */
type State = boolean | string | number[] | null;
const same = (a: State, b: State) => JSON.stringify(a) === JSON.stringify(b);

const activeAreas = async (boardId: number) => (await api<{ areas: Area[] }>('/api/data/areas', { query: { boardId } })).areas;

function areaStep(
  boardId: number,
  item: string,
  read: (areas: Area[]) => State,
  state: State,
  /** Sends the request; answers the state it leaves, or undefined when refused. */
  run: (direction: Direction, areas: Area[]) => Promise<State | undefined>,
): UndoStep {
  let left = state;
  let mark = now();
  let current: Area[] = [];
  return {
    item,
    async check(): Promise<Conflict | null> {
      const other = changedBy(boardId, item, mark);
      current = await activeAreas(boardId);
      if (other) return { by: other };
      return same(read(current), left) ? null : { by: lastChangedBy(boardId, item) };
    },
    async run(direction) {
      const next = await run(direction, current);
      if (next === undefined) return false;
      left = next;
      mark = now();
      return true;
    },
  };
}

/** Brings an archived area back with its cards, into the board's cache. */
async function restoreArea(qc: QueryClient, boardId: number, areaId: number): Promise<boolean> {
  const done = await attempt(() => api('/api/data/archive', { method: 'POST', body: { type: 'area', id: areaId } }));
  if (done === undefined) return false;
  const cards = await api<{ cards: CardListItem[] }>('/api/data/cards', { query: { areaId } }).catch(() => null);
  if (cards) qc.setQueryData(keys.cards(areaId), cards.cards);
  await qc.invalidateQueries({ queryKey: keys.areas(boardId) });
  return true;
}

/** An area there (`archivedAfter` false: just added) or archived (true), one way and back. */
function presenceStep(qc: QueryClient, boardId: number, area: Area, archivedAfter: boolean): UndoStep {
  const here = (areas: Area[]) => areas.some((a) => a.id === area.id);
  return areaStep(boardId, `area:${area.id}`, here, !archivedAfter, async (direction, areas) => {
    const archive = direction === 'undo' ? !archivedAfter : archivedAfter;
    if (!archive) return (await restoreArea(qc, boardId, area.id)) ? true : undefined;
    const now = areas.find((a) => a.id === area.id) ?? area;
    return (await archiveArea(qc, now, { record: false })) ? false : undefined;
  });
}

export function recordAreaCreated(qc: QueryClient, area: Area): void {
  undoStackOf(area.board).record(presenceStep(qc, area.board, area, false));
}

/** Records an archived area; answers the step for the toast's Undo. */
export function recordAreaArchived(qc: QueryClient, area: Area): UndoStep {
  const step = presenceStep(qc, area.board, area, true);
  undoStackOf(area.board).record(step);
  return step;
}

export function recordAreaRenamed(qc: QueryClient, area: Area, before: string, after: string): void {
  const nameOf = (areas: Area[]) => areas.find((a) => a.id === area.id)?.name ?? null;
  undoStackOf(area.board).record(
    areaStep(area.board, `area:${area.id}`, nameOf, after, async (direction, areas) => {
      const now = areas.find((a) => a.id === area.id) ?? area;
      const name = direction === 'undo' ? before : after;
      return (await renameArea(qc, now, name, { record: false })) ? name : undefined;
    }),
  );
}

export function recordAreasReordered(qc: QueryClient, boardId: number, before: number[], after: number[]): void {
  const order = (areas: Area[]) => areas.map((a) => a.id);
  undoStackOf(boardId).record(
    areaStep(boardId, 'areas', order, after, async (direction, areas) => {
      const ids = direction === 'undo' ? before : after;
      const ordered = ids.map((id) => areas.find((a) => a.id === id)).filter((a): a is Area => a !== undefined);
      if (ordered.length !== areas.length) return undefined;
      return (await reorderAreas(qc, boardId, ordered, { record: false })) ? ids : undefined;
    }),
  );
}
