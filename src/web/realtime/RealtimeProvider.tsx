import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Viewer } from '../../shared/events.js';
import { confirmSession } from '../app/session';
import { RealtimeConnection, realtimeUrl, type ConnectionStatus } from './connection';

const RealtimeContext = createContext<RealtimeConnection | null>(null);

/** Opens the socket while someone is signed in; closes it on sign-out, here or wherever the session ended. */
export function RealtimeProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const [connection, setConnection] = useState<RealtimeConnection | null>(null);
  const qc = useQueryClient();
  useEffect(() => {
    const next = new RealtimeConnection(realtimeUrl(), () => confirmSession(qc, userId));
    // The socket is outside React: this effect opens and closes it, and the state hands it to the app.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setConnection(next);
    return () => next.close();
  }, [userId, qc]);
  return <RealtimeContext.Provider value={connection}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeConnection | null {
  return useContext(RealtimeContext);
}

export function useConnectionStatus(): ConnectionStatus {
  const connection = useRealtime();
  return useSyncExternalStore(
    (listener) => connection?.onStatus(listener) ?? (() => {}),
    () => connection?.status ?? 'connecting',
  );
}

const NONE: Viewer[] = [];

/** Who is on the board right now (me included), and which card each has open. */
export function useViewers(boardId: number): Viewer[] {
  const connection = useRealtime();
  return useSyncExternalStore(
    (listener) => connection?.onPresence(listener) ?? (() => {}),
    () => connection?.viewers(boardId) ?? NONE,
  );
}
