import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BoardFromTemplate, TemplateSummary } from '../../../shared/api/templates.js';
import { api } from '../../api/client';
import { attempt } from '../../api/optimistic';
import { keys } from '../../api/queries';
import type { Board } from '../../api/types';

export type { TemplateSummary };

const templatesKey = ['templates'] as const;

/** The built-in templates, then the account's own. */
export const templatesQuery = queryOptions({
  queryKey: templatesKey,
  queryFn: async () => (await api<{ templates: TemplateSummary[] }>('/api/data/templates')).templates,
});

export async function saveTemplate(qc: QueryClient, boardId: number, name: string): Promise<TemplateSummary | undefined> {
  const result = await attempt(() =>
    api<{ template: TemplateSummary }>('/api/data/template', { method: 'POST', body: { boardId, name } }),
  );
  if (result) void qc.invalidateQueries({ queryKey: templatesKey });
  return result?.template;
}

export async function deleteTemplate(qc: QueryClient, id: number): Promise<boolean> {
  const result = await attempt(() => api('/api/data/template', { method: 'DELETE', query: { id } }));
  if (result === undefined) return false;
  qc.setQueryData<TemplateSummary[]>(templatesKey, (old) => old?.filter((t) => t.id !== id));
  return true;
}

export async function boardFromTemplate(qc: QueryClient, input: BoardFromTemplate): Promise<Board | undefined> {
  const result = await attempt(() => api<{ board: Board }>('/api/data/board-from-template', { method: 'POST', body: input }));
  if (!result) return undefined;
  qc.setQueryData<Board[]>(keys.boards('owned'), (old) =>
    old && !old.some((b) => b.id === result.board.id) ? [...old, result.board] : old,
  );
  return result.board;
}
