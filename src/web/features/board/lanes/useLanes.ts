import { useCallback, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { fieldsQuery } from '../../../api/queries';
import { boardViewQuery, keepLanes } from './api';
import { laneByOf, type LaneBy } from './lanes';

export interface LanesChoice {
  /** `assignee`, `label`, `field:<id>`, or null for no lanes. */
  value: string | null;
  /** What the value groups by on this board; null for no lanes (or one the board does not offer, such as a removed field). */
  by: LaneBy | null;
  choose(next: string | null): void;
}

/**
 * The board's lanes: the address (`?lanes=`) wins; without it, the choice I
 * keep for this board (`/api/data/board-view`). Choosing changes both.
 */
export function useLanes(boardId: number): LanesChoice {
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const fromAddress = params.get('lanes');
  const stored = useQuery(boardViewQuery(boardId)).data?.lanes ?? null;
  const fields = useQuery(fieldsQuery(boardId)).data;
  const value = fromAddress ?? stored;
  const by = useMemo(() => laneByOf(value, fields), [value, fields]);
  const choose = useCallback(
    (next: string | null) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) updated.set('lanes', next);
          else updated.delete('lanes');
          return updated;
        },
        { replace: true },
      );
      void keepLanes(qc, boardId, next);
    },
    [qc, boardId, setParams],
  );
  return { value: by ? value : null, by, choose };
}
