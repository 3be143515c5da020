// The API's shapes, from the schemas the server validates and answers with.
export type { Area } from '../../shared/api/areas.js';
export type { Attachment, UploadedImage } from '../../shared/api/attachments.js';
export type { Board } from '../../shared/api/boards.js';
export type { BoardImportResult, ImportReport } from '../../shared/api/board-import.js';
export type { Card, CardListItem, CardUpdate } from '../../shared/api/cards.js';
export type { Comment } from '../../shared/api/comments.js';
export type { InviteList, Member, PendingInvite, Permission } from '../../shared/api/sharing.js';

export type BoardStyle = 'kanban' | 'todo';
export type BoardStatus = 'private' | 'public';
export type RepeatEvery = 'day' | 'week' | 'twoWeeks' | 'month' | 'year';

export interface Label {
  id: number;
  name: string;
}

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  image: string | null;
  role?: string | null;
  language?: string | null;
  /** False until someone proved to receive mail at the address. */
  emailVerified?: boolean;
}

export interface Session {
  user: SessionUser;
  session: { id: string; expiresAt: string };
}

export interface ActivityEntry {
  type: string;
  actor: { id: string; name: string; image: string | null; type: string } | null;
  data: Record<string, unknown> | null;
  createdAt: string;
}

export interface Person {
  id: string;
  name: string;
  image: string | null;
}
