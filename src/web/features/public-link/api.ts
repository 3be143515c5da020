import { api } from '../../api/client';
import type { PublicBoard, PublicLinkState } from '../../../shared/api/public-links.js';

export type { PublicBoard, PublicLinkState };

/** How often an open public view whose socket cannot connect asks whether the board changed (or the link was revoked). */
export const POLL_MS = 10_000;

export const publicLinkKey = (boardId: number) => ['public-link', boardId] as const;

export const readPublicLink = (boardId: number) => api<PublicLinkState>('/api/data/public-link', { query: { boardId } });
export const createPublicLink = (boardId: number) =>
  api<PublicLinkState>('/api/data/public-link', { method: 'POST', body: { boardId } });
export const revokePublicLink = (boardId: number) =>
  api<PublicLinkState>('/api/data/public-link', { method: 'DELETE', query: { boardId } });

export const fetchPublicBoard = (token: string) => api<PublicBoard>(`/api/public/${encodeURIComponent(token)}`);
export const fetchPublicVersion = (token: string) => api<{ version: number }>(`/api/public/${encodeURIComponent(token)}/version`);
