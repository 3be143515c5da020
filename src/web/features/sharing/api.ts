import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { boardsQuery, keys, membersQuery } from '../../api/queries';
import type { InviteList, Member, Permission } from '../../api/types';

/**
 * The sharing writes of the dialog. Unlike the app-wide mutations these
 * throw, so the dialog can show the refusal beside the control (and stay open).
 */

export type Invitee = { userId: string } | { mail: string };

export async function inviteTo(qc: QueryClient, boardId: number, who: Invitee, permission: Permission): Promise<void> {
  try {
    await api('/api/data/invite', { method: 'POST', body: { boardId, ...who, permission } });
  } finally {
    await qc.invalidateQueries({ queryKey: keys.members(boardId) });
  }
}

export async function changePermission(qc: QueryClient, boardId: number, userId: string, permission: Permission): Promise<void> {
  const key = keys.members(boardId);
  const before = qc.getQueryData<InviteList>(key);
  qc.setQueryData<InviteList>(key, (old) =>
    old ? { ...old, members: old.members.map((m) => (m.id === userId ? { ...m, permission } : m)) } : old,
  );
  try {
    await api('/api/data/invite', { method: 'POST', body: { boardId, userId, permission } });
  } catch (error) {
    qc.setQueryData(key, before);
    throw error;
  } finally {
    await qc.invalidateQueries({ queryKey: key });
  }
}

export async function revoke(qc: QueryClient, boardId: number, who: Invitee): Promise<void> {
  try {
    await api('/api/data/invite', { method: 'DELETE', query: { boardId, ...who } });
  } finally {
    await qc.invalidateQueries({ queryKey: keys.members(boardId) });
  }
}

/** A member of another board of mine, without the permission they hold there. */
export type KnownPerson = Pick<Member, 'id' | 'name' | 'image'>;

/**
 * People the owner already shares a board with (members of their other boards):
 * there is no directory of accounts, so these are the only names one can pick.
 */
export function useKnownPeople(boardId: number): KnownPerson[] {
  const owned = useQuery(boardsQuery('owned'));
  const others = (owned.data ?? []).filter((b) => b.id !== boardId);
  return useQueries({
    queries: others.map((b) => ({ ...membersQuery(b.id), staleTime: 60_000 })),
    combine: (results) => {
      const people = new Map<string, KnownPerson>();
      for (const result of results) {
        for (const m of result.data?.members ?? []) {
          if (!people.has(m.id)) people.set(m.id, { id: m.id, name: m.name, image: m.image });
        }
      }
      return [...people.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
  });
}
