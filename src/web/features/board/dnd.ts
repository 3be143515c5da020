import { useEffect, useState, type RefObject } from 'react';
import { combine } from '@atlaskit/pragmatic-drag-and-drop/combine';
import { draggable, dropTargetForElements, monitorForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';

/**
 * Drag and drop of cards and areas with pragmatic-drag-and-drop's element
 * adapter: each card is draggable and a drop target (the edge nearest the
 * pointer decides before/after), each area is draggable by its header and a
 * drop target for areas (its nearest edge) and for cards (dropped on the area
 * itself: at the end). The board's monitor turns a drop into a move.
 */

export type Edge = 'top' | 'bottom' | 'left' | 'right';
export type Axis = 'vertical' | 'horizontal';

export interface CardDragData {
  [key: string]: unknown;
  type: 'card';
  cardId: number;
  areaId: number;
}
export interface AreaDragData {
  [key: string]: unknown;
  type: 'area';
  areaId: number;
}
export interface CardTargetData {
  [key: string | symbol]: unknown;
  type: 'card-target';
  cardId: number;
  areaId: number;
  edge: Edge;
}
export interface AreaTargetData {
  [key: string | symbol]: unknown;
  type: 'area-target';
  areaId: number;
  edge: Edge;
  /** The pointer is above the area's first card (a card dropped here goes first). */
  aboveCards: boolean;
}

const isCardDrag = (data: Record<string, unknown>): data is CardDragData => data.type === 'card';
const isAreaDrag = (data: Record<string, unknown>): data is AreaDragData => data.type === 'area';
export const isCardTarget = (data: Record<string | symbol, unknown>): data is CardTargetData => data.type === 'card-target';
export const isAreaTarget = (data: Record<string | symbol, unknown>): data is AreaTargetData => data.type === 'area-target';
export { isAreaDrag, isCardDrag };

function closestEdge(element: Element, clientX: number, clientY: number, axis: Axis): Edge {
  const rect = element.getBoundingClientRect();
  if (axis === 'horizontal') return clientX < rect.left + rect.width / 2 ? 'left' : 'right';
  return clientY < rect.top + rect.height / 2 ? 'top' : 'bottom';
}

/** A card tile: draggable (when allowed) and a place to drop other cards before or after. */
export function useCardDnd(ref: RefObject<HTMLElement | null>, cardId: number, areaId: number, enabled: boolean) {
  const [dragging, setDragging] = useState(false);
  const [edge, setEdge] = useState<Edge | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !enabled || cardId < 0) return;
    return combine(
      draggable({
        element,
        getInitialData: (): CardDragData => ({ type: 'card', cardId, areaId }),
        onDragStart: () => setDragging(true),
        onDrop: () => setDragging(false),
      }),
      dropTargetForElements({
        element,
        canDrop: ({ source }) => isCardDrag(source.data),
        getData: ({ input }): CardTargetData => ({
          type: 'card-target',
          cardId,
          areaId,
          edge: closestEdge(element, input.clientX, input.clientY, 'vertical'),
        }),
        onDrag: ({ self, source }) => {
          const next = source.data.cardId === cardId ? null : (self.data as CardTargetData).edge;
          setEdge((current) => (current === next ? current : next));
        },
        onDragLeave: () => setEdge(null),
        onDrop: () => setEdge(null),
      }),
    );
  }, [ref, cardId, areaId, enabled]);
  return { dragging, edge };
}

/** An area: draggable by its handle, a drop target for areas (nearest edge) and for cards (its end). */
export function useAreaDnd(
  ref: RefObject<HTMLElement | null>,
  handleRef: RefObject<HTMLElement | null>,
  listRef: RefObject<HTMLElement | null>,
  areaId: number,
  axis: Axis,
  enabled: boolean,
) {
  const [dragging, setDragging] = useState(false);
  const [areaEdge, setAreaEdge] = useState<Edge | null>(null);
  const [cardOver, setCardOver] = useState(false);
  useEffect(() => {
    const element = ref.current;
    const handle = handleRef.current;
    if (!element || !handle || !enabled) return;
    return combine(
      draggable({
        element,
        dragHandle: handle,
        getInitialData: (): AreaDragData => ({ type: 'area', areaId }),
        onDragStart: () => setDragging(true),
        onDrop: () => setDragging(false),
      }),
      dropTargetForElements({
        element,
        canDrop: ({ source }) => isCardDrag(source.data) || isAreaDrag(source.data),
        getData: ({ input }): AreaTargetData => {
          const first = listRef.current?.querySelector('[data-card-id]');
          return {
            type: 'area-target',
            areaId,
            edge: closestEdge(element, input.clientX, input.clientY, axis),
            aboveCards: first ? input.clientY < first.getBoundingClientRect().top : false,
          };
        },
        onDrag: ({ self, source, location }) => {
          if (isAreaDrag(source.data)) {
            const next = source.data.areaId === areaId ? null : (self.data as AreaTargetData).edge;
            setAreaEdge((current) => (current === next ? current : next));
          } else {
            // Highlighted only when the card is over the area itself, not over one of its cards.
            const innermost = location.current.dropTargets[0]?.element === element;
            setCardOver((current) => (current === innermost ? current : innermost));
          }
        },
        onDragLeave: () => {
          setAreaEdge(null);
          setCardOver(false);
        },
        onDrop: () => {
          setAreaEdge(null);
          setCardOver(false);
        },
      }),
    );
  }, [ref, handleRef, listRef, areaId, axis, enabled]);
  return { dragging, areaEdge, cardOver };
}

/**
 * Where a dropped card lands: its index in the target area's list counted
 * without the card itself (what the move request takes), or null when the drop
 * changes nothing. On a card, before it (top edge) or after it (bottom edge);
 * on the area itself, first when above its cards, else last.
 */
export function cardDropIndex(
  list: readonly { id: number }[],
  cardId: number,
  fromAreaId: number,
  target: CardTargetData | AreaTargetData,
): number | null {
  const without = list.filter((c) => c.id !== cardId);
  let index: number;
  if (isCardTarget(target)) {
    if (target.cardId === cardId) return null;
    index = without.findIndex((c) => c.id === target.cardId);
    if (index < 0) return null;
    if (target.edge === 'bottom') index += 1;
  } else {
    index = target.aboveCards ? 0 : without.length;
  }
  const current = list.findIndex((c) => c.id === cardId);
  return fromAreaId === target.areaId && current === index ? null : index;
}

/** The board's areas in their order after `areaId` is dropped on an edge of another; null when nothing changes. */
export function areaDropOrder<T extends { id: number }>(list: readonly T[], areaId: number, target: AreaTargetData): T[] | null {
  const moved = list.find((a) => a.id === areaId);
  if (!moved || target.areaId === areaId) return null;
  const without = list.filter((a) => a.id !== areaId);
  let index = without.findIndex((a) => a.id === target.areaId);
  if (index < 0) return null;
  if (target.edge === 'right' || target.edge === 'bottom') index += 1;
  const ordered = [...without.slice(0, index), moved, ...without.slice(index)];
  return ordered.every((a, i) => a.id === list[i]?.id) ? null : ordered;
}

/** The swimlanes a card was dragged from and dropped in (`data-lane-key`), when the board shows lanes. */
export interface LaneDrop {
  from: string;
  to: string;
}

export interface DropHandlers {
  moveCard(cardId: number, fromAreaId: number, target: CardTargetData | AreaTargetData, lanes: LaneDrop | null): void;
  moveArea(areaId: number, target: AreaTargetData): void;
}

/** The board's one monitor: a drop becomes a move; while dragging, the scroll containers follow the pointer. */
export function useBoardDropMonitor(handlers: DropHandlers, scrollRoot: RefObject<HTMLElement | null>) {
  useEffect(() => {
    let frame = 0;
    let pointer: { x: number; y: number } | null = null;
    const tick = () => {
      if (pointer && scrollRoot.current) autoScroll(scrollRoot.current, pointer.x, pointer.y);
      frame = requestAnimationFrame(tick);
    };
    return monitorForElements({
      canMonitor: ({ source }) => isCardDrag(source.data) || isAreaDrag(source.data),
      onDragStart: ({ location }) => {
        pointer = { x: location.current.input.clientX, y: location.current.input.clientY };
        frame = requestAnimationFrame(tick);
      },
      onDrag: ({ location }) => {
        pointer = { x: location.current.input.clientX, y: location.current.input.clientY };
      },
      onDrop: ({ source, location }) => {
        cancelAnimationFrame(frame);
        pointer = null;
        const target = location.current.dropTargets[0];
        if (!target) return;
        if (isCardDrag(source.data)) {
          if (isCardTarget(target.data) || isAreaTarget(target.data)) {
            const from = laneOf(source.element);
            const to = laneOf(target.element);
            handlers.moveCard(
              source.data.cardId,
              source.data.areaId,
              target.data,
              from !== null && to !== null ? { from, to } : null,
            );
          }
        } else if (isAreaDrag(source.data)) {
          const areaTarget = location.current.dropTargets.find((t) => isAreaTarget(t.data));
          if (areaTarget && isAreaTarget(areaTarget.data)) handlers.moveArea(source.data.areaId, areaTarget.data);
        }
      },
    });
  }, [handlers, scrollRoot]);
}

const laneOf = (element: Element): string | null => element.closest('[data-lane-key]')?.getAttribute('data-lane-key') ?? null;

const EDGE = 72;
const MAX_SPEED = 22;

function speed(distance: number): number {
  if (distance >= EDGE) return 0;
  const ratio = 1 - Math.max(0, distance) / EDGE;
  return Math.ceil(MAX_SPEED * ratio * ratio);
}

/**
 * Scrolls every scroll container under the pointer (the board, an area's card
 * list) when the pointer nears one of its edges; faster the nearer it is.
 */
function autoScroll(root: HTMLElement, x: number, y: number): void {
  const containers = [root, ...root.querySelectorAll<HTMLElement>('[data-autoscroll]')];
  for (const element of containers) {
    const rect = element.getBoundingClientRect();
    if (x < rect.left || x > rect.right || y < rect.top || y > rect.bottom) continue;
    if (element.scrollHeight > element.clientHeight) {
      const dy = speed(rect.bottom - y) - speed(y - rect.top);
      if (dy) element.scrollTop += dy;
    }
    if (element.scrollWidth > element.clientWidth) {
      const dx = speed(rect.right - x) - speed(x - rect.left);
      if (dx) element.scrollLeft += dx;
    }
  }
  // The page itself (the to-do layout grows past the window).
  const vy = speed(window.innerHeight - y) - speed(y);
  if (vy && document.scrollingElement && document.scrollingElement.scrollHeight > window.innerHeight) window.scrollBy(0, vy);
}
