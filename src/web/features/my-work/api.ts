import { queryOptions } from '@tanstack/react-query';
import type { MyWork } from '../../../shared/api/my-work.js';
import { api } from '../../api/client';

export interface MyWorkFilter {
  boardId: number | null;
  label: string | null;
}

/** The browser's IANA time zone: the server counts "today" and "this week" in it. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export const myWorkKey = ['myWork'] as const;

export const myWorkQuery = (filter: MyWorkFilter) =>
  queryOptions({
    queryKey: [...myWorkKey, filter.boardId, filter.label] as const,
    queryFn: () =>
      api<MyWork>('/api/data/my-work', {
        query: {
          tz: browserTimeZone(),
          ...(filter.boardId ? { boardId: filter.boardId } : {}),
          ...(filter.label ? { label: filter.label } : {}),
        },
      }),
    // Board events and notifications refetch it; a fresh answer also moves cards across midnight.
    staleTime: 0,
  });
