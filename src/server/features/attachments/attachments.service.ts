import type { Readable } from 'node:stream';
import type { Attachment, UploadedImage } from '../../../shared/api/attachments.js';
import type { Actor } from '../../auth/actor.js';
import { boardIdOf, missing, requireBoard } from '../../access/index.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { writeBoard } from '../../events/board-write.js';
import { fileStore, extensionOf, safeFilename, type OpenedFile, type SavedFile } from '../../files/store.js';
import { badRequest, notFound } from '../../http/errors.js';
import { recordActivity } from '../activity/activity.service.js';
import { writableBoard, writableCard } from '../cards/guards.js';
import * as repo from './attachments.repository.js';

/** A file part of a multipart request: its stream and what the client said about it. */
export interface IncomingFile {
  stream: Readable;
  filename: string;
  mimetype: string;
}

/** Media types served with their own `Content-Type`; anything else goes out as `application/octet-stream`. */
const SAFE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/zip',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
]);

/** The type a stored file is served with: its recorded type only when it cannot run as a page or script. */
export function servedType(filetype: string): string {
  return SAFE_TYPES.has(filetype) ? filetype : 'application/octet-stream';
}

/** A declared media type reduced to `type/subtype` in lower case, or `application/octet-stream`. */
export function normalizeType(declared: string | undefined): string {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return type.length <= 127 && /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type)
    ? type
    : 'application/octet-stream';
}

const IMAGE_TYPES = [
  { type: 'image/png', ext: 'png', magic: (h: Buffer) => h.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')) },
  { type: 'image/jpeg', ext: 'jpg', magic: (h: Buffer) => h.subarray(0, 3).equals(Buffer.from('ffd8ff', 'hex')) },
  { type: 'image/gif', ext: 'gif', magic: (h: Buffer) => /^GIF8[79]a$/.test(h.subarray(0, 6).toString('latin1')) },
  {
    type: 'image/webp',
    ext: 'webp',
    magic: (h: Buffer) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP',
  },
] as const;

/** The picture type a file's first bytes show, or undefined. */
export function imageTypeOf(head: Buffer) {
  return IMAGE_TYPES.find((t) => t.magic(head));
}

export const IMAGE_SERVED_TYPES: ReadonlySet<string> = new Set(IMAGE_TYPES.map((t) => t.type));

interface AttachmentRow {
  id: number;
  filename: string;
  filetype: string;
  filesize: number;
  createdAt: Date | string;
}

export function presentAttachment(row: AttachmentRow): Attachment {
  return { id: row.id, filename: row.filename, filetype: row.filetype, filesize: row.filesize, createdAt: toIso(row.createdAt) };
}

/**
 * Checks, before a byte of the file is read, that the caller may attach a
 * file to this card, so a refused upload writes nothing. The write itself
 * checks again in its transaction.
 */
export async function checkCardUpload(deps: ServiceDeps, actor: Actor, cardId: number): Promise<number> {
  const boardId = await boardIdOf(deps.database.db, 'cards', cardId);
  const board = await writableBoard(deps, actor, boardId, 'Card');
  await writableCard(deps.database.db, board.id, cardId);
  return board.id;
}

/** Before an image upload: the caller may edit the board and it is not archived. */
export async function checkImageUpload(deps: ServiceDeps, actor: Actor, boardId: number): Promise<number> {
  return (await writableBoard(deps, actor, boardId, 'Board')).id;
}

function limitBytes(deps: ServiceDeps): number {
  return deps.config.maxUploadMb * 1024 * 1024;
}

/**
 * Stores the file (temporary file, then rename), then the row in one board
 * write; a write that fails removes the file again.
 */
export async function createAttachment(
  deps: ServiceDeps,
  actor: Actor,
  target: { boardId: number; cardId: number },
  file: IncomingFile,
): Promise<Attachment> {
  const store = fileStore(deps.config);
  const filename = safeFilename(file.filename);
  const saved = await store.save(file.stream, { limitBytes: limitBytes(deps), extension: () => extensionOf(filename) });
  try {
    return await writeBoard(deps, actor, { boardId: target.boardId, subject: 'Card' }, 'edit', async ({ trx, board, emit }) => {
      const card = await writableCard(trx, board.id, target.cardId);
      const row = await repo.insertAttachment(trx, {
        cardId: card.id,
        filename,
        filetype: normalizeType(file.mimetype),
        filesize: saved.size,
        storedName: saved.storedName,
        url: null,
        userId: actor.id,
        createdAt: nowIso(),
      });
      await recordActivity(trx, card.id, actor.id, 'attachment', { attachmentId: row.id, filename });
      const attachment = presentAttachment(row);
      emit('attachment.created', { cardId: card.id, attachment });
      return attachment;
    });
  } catch (error) {
    await store.remove([saved.storedName]);
    throw error;
  }
}

/** The attachment with its card's board, or 404 (also when the caller cannot read the board). */
async function readableAttachment(deps: ServiceDeps, actor: Actor, id: number) {
  const { db } = deps.database;
  const row = await repo.findAttachmentWithBoard(db, id);
  if (!row) throw missing('Attachment');
  await requireBoard(db, actor, row.boardId, 'read', { subject: 'Attachment' });
  return row;
}

export type Download = { kind: 'file'; file: OpenedFile; filename: string; contentType: string } | { kind: 'link'; url: string };

/** What GET /attachment sends: the stored file, or the address of a linked one. */
export async function downloadAttachment(deps: ServiceDeps, actor: Actor, id: number): Promise<Download> {
  const row = await readableAttachment(deps, actor, id);
  if (row.storedName === null) {
    if (row.url && /^https?:\/\//i.test(row.url)) return { kind: 'link', url: row.url };
    throw notFound('File not found');
  }
  const file = await fileStore(deps.config).open(row.storedName);
  if (!file) throw notFound('File not found');
  return { kind: 'file', file, filename: row.filename, contentType: servedType(row.filetype) };
}

/** Removes an attachment; its file goes after the commit unless something else still refers to it. */
export async function deleteAttachment(deps: ServiceDeps, actor: Actor, id: number): Promise<void> {
  const { boardId } = await readableAttachment(deps, actor, id);
  const store = fileStore(deps.config);
  await writeBoard(deps, actor, { boardId, subject: 'Attachment' }, 'edit', async ({ trx, board, emit, afterCommit }) => {
    const row = await repo.findAttachment(trx, id);
    if (!row) throw missing('Attachment');
    const card = await writableCard(trx, board.id, row.cardId);
    await repo.deleteAttachment(trx, row.id);
    await recordActivity(trx, card.id, actor.id, 'attachment', { attachmentId: row.id, filename: row.filename, removed: true });
    emit('attachment.deleted', { cardId: card.id, attachmentId: row.id });
    afterCommit(() => store.removeIfUnreferenced(deps.database.db, [row.storedName]));
  });
}

/** Stores a picture for a description or comment; only PNG, JPEG, GIF and WebP, told by their first bytes. */
export async function createImage(deps: ServiceDeps, actor: Actor, boardId: number, file: IncomingFile): Promise<UploadedImage> {
  const store = fileStore(deps.config);
  const saved: SavedFile = await store.save(file.stream, {
    limitBytes: limitBytes(deps),
    extension: (head) => {
      const type = imageTypeOf(head);
      if (!type) throw badRequest('body: file must be a PNG, JPEG, GIF or WebP picture');
      return type.ext;
    },
  });
  const type = imageTypeOf(saved.head)!;
  try {
    const id = await writeBoard(deps, actor, boardId, 'edit', async ({ trx, board }) =>
      repo.insertImage(trx, {
        boardId: board.id,
        storedName: saved.storedName,
        filetype: type.type,
        filesize: saved.size,
        userId: actor.id,
        createdAt: nowIso(),
      }),
    );
    return { url: `/api/data/image/${saved.storedName}`, id };
  } catch (error) {
    await store.remove([saved.storedName]);
    throw error;
  }
}

/** A pasted picture for someone who can read its board; 404 for everyone else and for unknown names. */
export async function openImage(
  deps: ServiceDeps,
  actor: Actor,
  storedName: string,
): Promise<{ file: OpenedFile; contentType: string }> {
  const { db } = deps.database;
  const row = await repo.findImage(db, storedName);
  if (!row) throw missing('Image');
  await requireBoard(db, actor, row.boardId, 'read', { subject: 'Image' });
  const file = await fileStore(deps.config).open(row.storedName);
  if (!file) throw missing('Image');
  return { file, contentType: IMAGE_SERVED_TYPES.has(row.filetype) ? row.filetype : 'application/octet-stream' };
}
