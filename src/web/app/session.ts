import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys, sessionQuery } from '../api/queries';
import type { Session, SessionUser } from '../api/types';

export function useSession() {
  return useQuery(sessionQuery);
}

/** The signed-in account; only inside the signed-in part of the app. */
export function useUser(): SessionUser {
  const { data } = useSession();
  if (!data) throw new Error('useUser outside a session');
  return data.user;
}

/** After sign-in or sign-up: the session as the server now sees it. */
export async function refreshSession(qc: QueryClient): Promise<Session | null> {
  return qc.fetchQuery({ ...sessionQuery, staleTime: 0 });
}

export async function signOut(qc: QueryClient): Promise<void> {
  try {
    await api('/api/auth/sign-out', { method: 'POST', body: {} });
  } finally {
    forgetSession(qc);
  }
}

/** Drops everything the signed-out account had loaded; the app goes to sign-in. */
export function forgetSession(qc: QueryClient): void {
  qc.clear();
  qc.setQueryData(keys.session, null);
}

/**
 * Asks the server whether this account is still signed in (the realtime socket
 * was closed for a session that ended); when not, forgets the session.
 */
export async function confirmSession(qc: QueryClient, userId: string): Promise<boolean> {
  const session = await qc.fetchQuery({ ...sessionQuery, staleTime: 0 });
  if (session?.user.id === userId) return true;
  forgetSession(qc);
  return false;
}

export function useSignOut() {
  const qc = useQueryClient();
  return () => signOut(qc);
}
