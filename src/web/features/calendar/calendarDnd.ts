import { useEffect, useState, type RefObject } from 'react';
import { draggable, dropTargetForElements, monitorForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';

/**
 * Drag and drop on the calendar, beside the board's (dnd.ts): a card entry is
 * draggable, each day is a drop target, and the calendar's monitor turns a drop
 * into a new due date. Its own data types, so the board's monitor ignores it.
 */

interface CalendarCardDrag {
  [key: string]: unknown;
  type: 'calendar-card';
  cardId: number;
}
interface DayTarget {
  [key: string | symbol]: unknown;
  type: 'calendar-day';
  day: string;
}

const isCalendarCard = (data: Record<string, unknown>): data is CalendarCardDrag => data.type === 'calendar-card';
const isDayTarget = (data: Record<string | symbol, unknown>): data is DayTarget => data.type === 'calendar-day';

export function useCalendarCardDrag(ref: RefObject<HTMLElement | null>, cardId: number, enabled: boolean): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || !enabled || cardId < 0) return;
    return draggable({
      element,
      getInitialData: (): CalendarCardDrag => ({ type: 'calendar-card', cardId }),
      onDragStart: () => setDragging(true),
      onDrop: () => setDragging(false),
    });
  }, [ref, cardId, enabled]);
  return dragging;
}

/** A day: highlighted while a card is over it. */
export function useDayTarget(ref: RefObject<HTMLElement | null>, day: string, enabled: boolean): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || !enabled) return;
    return dropTargetForElements({
      element,
      canDrop: ({ source }) => isCalendarCard(source.data),
      getData: (): DayTarget => ({ type: 'calendar-day', day }),
      onDragEnter: () => setOver(true),
      onDragLeave: () => setOver(false),
      onDrop: () => setOver(false),
    });
  }, [ref, day, enabled]);
  return over;
}

/** The calendar's one monitor: a card dropped on a day. */
export function useCalendarDropMonitor(onDrop: (cardId: number, day: string) => void) {
  useEffect(
    () =>
      monitorForElements({
        canMonitor: ({ source }) => isCalendarCard(source.data),
        onDrop: ({ source, location }) => {
          const target = location.current.dropTargets.find((t) => isDayTarget(t.data));
          if (target && isDayTarget(target.data) && isCalendarCard(source.data)) onDrop(source.data.cardId, target.data.day);
        },
      }),
    [onDrop],
  );
}
