import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { Viewer } from '../../shared/events.js';
import { RealtimeConnection, realtimeUrl, type ConnectionStatus } from './connection';

const RealtimeContext = createContext<RealtimeConnection | null>(null);

/** Opens the socket while someone is signed in; closes it on sign-out. */
export function RealtimeProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const [connection, setConnection] = useState<RealtimeConnection | null>(null);
  useEffect(() => {
    const next = new RealtimeConnection(realtimeUrl());
    setConnection(next);
    return () => next.close();
  }, [userId]);
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
