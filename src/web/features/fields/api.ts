import type { QueryClient } from '@tanstack/react-query';
import { dropField, upsertField } from '../../api/cache';
import { api } from '../../api/client';
import { attempt } from '../../api/optimistic';
import type { Field, FieldType } from '../../api/types';

/** The board's custom field writes; the answer (and the realtime echo) updates the cached list. */

export async function addField(
  qc: QueryClient,
  boardId: number,
  input: { name: string; type: FieldType; options?: string[]; showOnCard: boolean },
): Promise<Field | undefined> {
  const result = await attempt(() => api<{ field: Field }>('/api/data/field', { method: 'POST', body: { boardId, ...input } }));
  if (result) upsertField(qc, boardId, result.field);
  return result?.field;
}

export async function changeField(
  qc: QueryClient,
  field: Field,
  change: { name?: string; options?: string[]; showOnCard?: boolean; sort?: number },
): Promise<Field | undefined> {
  const result = await attempt(() =>
    api<{ field: Field }>('/api/data/field', { method: 'PUT', body: { id: field.id, ...change } }),
  );
  if (result) upsertField(qc, field.boardId, result.field);
  return result?.field;
}

export async function removeField(qc: QueryClient, field: Field): Promise<boolean> {
  const result = await attempt(() => api('/api/data/field', { method: 'DELETE', query: { id: field.id } }));
  if (result !== undefined) dropField(qc, field.boardId, field.id);
  return result !== undefined;
}
