import { useEffect, useRef } from 'react';
import { useQueries } from '@tanstack/react-query';
import { cardsQuery } from '../../api/queries';
import type { Area } from '../../api/types';

/**
 * The paint benchmark (bench/scenarios/paint.ts) and the browser tests
 * (e2e/browser.ts `openBoard`) set this window property before the page loads
 * to be told when a board is on screen; nobody else does, so the app neither
 * marks nor watches anything for them.
 */
export const PAINT_MARK_FLAG = '__tavlaPaintMark';
export const PAINT_MARK = 'tavla:cards-painted';

export const paintMarkWanted = (): boolean =>
  typeof window !== 'undefined' && (window as unknown as Record<string, unknown>)[PAINT_MARK_FLAG] === true;

/** Marks the moment every area's cards are on screen (`performance.mark`), once per board opened. */
export function PaintMark({ areas }: { areas: Area[] }) {
  const allCardsLoaded = useQueries({
    queries: areas.map((area) => ({ ...cardsQuery(area.id), notifyOnChangeProps: ['status' as const] })),
    combine: (results) => results.every((r) => r.status === 'success'),
  });
  const marked = useRef(false);
  useEffect(() => {
    if (!allCardsLoaded || marked.current) return;
    marked.current = true;
    requestAnimationFrame(() => setTimeout(() => performance.mark(PAINT_MARK), 0));
  }, [allCardsLoaded]);
  return null;
}
