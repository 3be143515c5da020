import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { CLOSE_LINK_GONE, type PublicServerMessage } from '../../../shared/api/public-links.js';
import { applyPublicChange } from './applyChange';
import { fetchPublicBoard, fetchPublicVersion, POLL_MS, type PublicBoard } from './api';

const gone = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);
const RETRY_MAX_MS = 30_000;

/**
 * The board a public link shows, kept live by the link's socket: changes are
 * applied as they come, a `reload` reads the board again, and a revoked link
 * shows as gone at once. Only while the socket cannot connect does the page
 * poll the board's version (slowly), as before.
 */
export function usePublicBoard(token: string) {
  const client = useQueryClient();
  const key = ['public-board', token] as const;
  const [live, setLive] = useState(false);
  const [closed, setClosed] = useState(false);
  const board = useQuery({ queryKey: key, queryFn: () => fetchPublicBoard(token), staleTime: Infinity });
  const version = useQuery({
    queryKey: [...key, 'version'],
    queryFn: () => fetchPublicVersion(token),
    enabled: !live && !closed && board.isSuccess,
    refetchInterval: (query) => (gone(query.state.error) ? false : POLL_MS),
    staleTime: 0,
  });

  const polled = version.data?.version;
  useEffect(() => {
    const held = client.getQueryData<PublicBoard>(['public-board', token]);
    if (polled !== undefined && held && polled !== held.version)
      void client.invalidateQueries({ queryKey: ['public-board', token], exact: true });
  }, [polled, token, client]);

  useEffect(() => {
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = 1000;
    let stopped = false;
    const reread = () => void client.invalidateQueries({ queryKey: ['public-board', token], exact: true });
    const connect = () => {
      const protocol = location.protocol === 'https:' ? 'wss' : 'ws';
      socket = new WebSocket(`${protocol}://${location.host}/api/public/${encodeURIComponent(token)}/realtime`);
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as PublicServerMessage;
        const held = client.getQueryData<PublicBoard>(['public-board', token]);
        if (message.type === 'ready') {
          delay = 1000;
          setLive(true);
          if (held?.version !== message.version) reread();
        } else if (message.type === 'reload') {
          if (!held || held.version < message.version) reread();
        } else if (held && held.version < message.version) {
          client.setQueryData(['public-board', token], applyPublicChange(held, message.version, message.change));
        }
      };
      socket.onclose = (event) => {
        setLive(false);
        if (stopped) return;
        if (event.code === CLOSE_LINK_GONE) return setClosed(true);
        // Refused at the upgrade (the link may be gone) or dropped: the version poll finds out meanwhile.
        retry = setTimeout(connect, delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, [token, client]);

  return { board, isGone: closed || gone(board.error) || gone(version.error) };
}
