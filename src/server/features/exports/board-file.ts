import { stat } from 'node:fs/promises';
import { renderMarkdown } from '../../../shared/markdown.js';
import type {
  BoardFileActivity,
  BoardFileArea,
  BoardFileAttachment,
  BoardFileCard,
  BoardFileComment,
  BoardFileHead,
  BoardFilePerson,
} from '../../../shared/api/board-file.schema.js';
import type { Db } from '../../db/database.js';
import { toIso } from '../../db/dialect.js';
import type { AreaRow, BoardRow, CardRow } from '../../db/schema.js';
import { isStoredName, type UploadStore } from '../../files/store.js';
import { attachmentPath, imagePath } from './zip-names.js';

/** Rows read per query: memory holds one batch of cards with what hangs on them, however large the board. */
export const BATCH = 500;

export const BOARD_FILE_FORMAT = 'service.board';
export const BOARD_FILE_VERSION = 1;

export interface BoardFileOptions {
  /** The instance's public address: picture addresses written with it count as ours too. */
  baseUrl: string;
  /** Where this board's files go in the zip: `attachments` or `attachments/<id>-<name>`. */
  folder: string;
  serviceVersion: string;
  exportedAt: string;
  store: UploadStore;
}

/** A pasted picture the board file refers to, to be put into the zip at `path`. */
export interface ImageFile {
  storedName: string;
  path: string;
}

type Write = (text: string) => Promise<void>;

/**
 * Writes a board in the board file format (`service.board`, version 1) through
 * `write`, piece by piece: the head, then each area with its cards in batches
 * of `BATCH` (board order), then the map of pictures found on the way. Answers
 * the pictures to put into the zip; the attachments' zip paths follow from
 * their rows (`boardAttachments`), so nothing else is kept.
 */
export async function writeBoardFile(db: Db, board: BoardRow, options: BoardFileOptions, write: Write): Promise<ImageFile[]> {
  const pictures = new PictureFinder(db, board.id, options);
  const owner = await db.selectFrom('user').select(['id', 'name']).where('id', '=', board.ownerId).executeTakeFirst();
  const members = await db
    .selectFrom('board_members')
    .innerJoin('user', 'user.id', 'board_members.userId')
    .select(['user.id', 'user.name', 'board_members.permission'])
    .where('board_members.boardId', '=', board.id)
    .orderBy('board_members.id')
    .execute();
  const labels = await db.selectFrom('labels').select(['id', 'name']).where('boardId', '=', board.id).orderBy('id').execute();
  if (board.image) pictures.scan(board.image);

  const head: BoardFileHead = {
    format: BOARD_FILE_FORMAT,
    formatVersion: BOARD_FILE_VERSION,
    serviceVersion: options.serviceVersion,
    exportedAt: options.exportedAt,
    board: {
      id: board.id,
      name: board.name,
      style: board.style as BoardFileHead['board']['style'],
      status: board.status as BoardFileHead['board']['status'],
      color: board.color,
      image: board.image,
      owner: { id: board.ownerId, name: owner?.name ?? null },
      archivedAt: toIso(board.archivedAt),
    },
    members: members.map((m) => ({ id: m.id, name: m.name, permission: m.permission as 'read' | 'edit' })),
    labels,
  };
  const headJson = JSON.stringify(head);
  await write(`${headJson.slice(0, -1)},"areas":[`);

  const areas = await db
    .selectFrom('areas')
    .selectAll()
    .where('boardId', '=', board.id)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  for (const [i, area] of areas.entries()) {
    const shell: BoardFileArea = { id: area.id, name: area.name, sort: area.sort, archivedAt: toIso(area.archivedAt), cards: [] };
    const shellJson = JSON.stringify(shell);
    await write(`${i > 0 ? ',' : ''}${shellJson.slice(0, -2)}`);
    let first = true;
    for await (const rows of cardBatches(db, area)) {
      const cards = await presentCards(db, rows, pictures, options);
      await write((first ? '' : ',') + cards.map((c) => JSON.stringify(c)).join(','));
      first = false;
    }
    await write(']}');
  }
  await pictures.resolve();
  await write(`],"images":${JSON.stringify(pictures.map())}}`);
  return pictures.files();
}

/** An area's cards in board order (sort, then id), `BATCH` at a time, by key: no offset scans. */
export async function* cardBatches(
  db: Db,
  area: Pick<AreaRow, 'id'>,
  options: { visibleOnly?: boolean } = {},
): AsyncGenerator<CardRow[]> {
  let after: { sort: number; id: number } | null = null;
  for (;;) {
    const from = after;
    const rows = await db
      .selectFrom('cards')
      .selectAll()
      .where('areaId', '=', area.id)
      .$if(options.visibleOnly === true, (q) => q.where('archivedAt', 'is', null))
      .$if(from !== null, (q) =>
        q.where((eb) => eb.or([eb('sort', '>', from!.sort), eb.and([eb('sort', '=', from!.sort), eb('id', '>', from!.id)])])),
      )
      .orderBy('sort')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length > 0) yield rows;
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1]!;
    after = { sort: last.sort, id: last.id };
  }
}

/** Every attachment on the board's cards (archived ones too), by id, `BATCH` at a time. */
export async function* boardAttachments(db: Db, boardId: number) {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('attachments')
      .innerJoin('cards', 'cards.id', 'attachments.cardId')
      .select(['attachments.id', 'attachments.filename', 'attachments.storedName', 'attachments.createdAt'])
      .where('cards.boardId', '=', boardId)
      .where('attachments.id', '>', after)
      .orderBy('attachments.id')
      .limit(BATCH)
      .execute();
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** Every picture uploaded to the board, by id, `BATCH` at a time. */
export async function* boardImages(db: Db, boardId: number) {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('images')
      .select(['id', 'storedName', 'createdAt'])
      .where('boardId', '=', boardId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** Whether a stored file is there to be exported. */
export async function fileExists(store: UploadStore, storedName: string | null): Promise<boolean> {
  if (storedName === null || !isStoredName(storedName)) return false;
  try {
    return (await stat(store.pathOf(storedName))).isFile();
  } catch {
    return false;
  }
}

function group<T extends { cardId: number }>(rows: T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.cardId);
    if (list) list.push(row);
    else map.set(row.cardId, [row]);
  }
  return map;
}

function parseData(raw: string | null): unknown {
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** One batch of cards with their labels, people, reminders, attachments, comments and history: one query each. */
async function presentCards(db: Db, rows: CardRow[], pictures: PictureFinder, options: BoardFileOptions): Promise<BoardFileCard[]> {
  const ids = rows.map((r) => r.id);
  const labels = group(
    await db
      .selectFrom('card_labels')
      .innerJoin('labels', 'labels.id', 'card_labels.labelId')
      .select(['card_labels.cardId', 'labels.name'])
      .where('card_labels.cardId', 'in', ids)
      .orderBy('labels.id')
      .execute(),
  );
  const people = group(
    await db
      .selectFrom('card_assignees')
      .innerJoin('user', 'user.id', 'card_assignees.userId')
      .select(['card_assignees.cardId', 'user.id', 'user.name'])
      .where('card_assignees.cardId', 'in', ids)
      .orderBy('card_assignees.id')
      .execute(),
  );
  const reminders = group(
    await db
      .selectFrom('card_reminders')
      .select(['cardId', 'minutesBefore'])
      .where('cardId', 'in', ids)
      .orderBy('minutesBefore')
      .execute(),
  );
  const attachments = group(
    await db
      .selectFrom('attachments')
      .select(['id', 'cardId', 'filename', 'filetype', 'filesize', 'storedName', 'url', 'createdAt'])
      .where('cardId', 'in', ids)
      .orderBy('id')
      .execute(),
  );
  const comments = group(
    await db
      .selectFrom('comments')
      .leftJoin('user', 'user.id', 'comments.userId')
      .select([
        'comments.id',
        'comments.cardId',
        'comments.userId',
        'comments.authorName',
        'comments.content',
        'comments.createdAt',
        'user.name as userName',
      ])
      .where('comments.cardId', 'in', ids)
      .orderBy('comments.id')
      .execute(),
  );
  const activity = group(
    await db
      .selectFrom('card_activity')
      .leftJoin('user', 'user.id', 'card_activity.actorId')
      .select(['card_activity.cardId', 'card_activity.type', 'card_activity.actorId', 'card_activity.data', 'card_activity.createdAt', 'user.name'])
      .where('card_activity.cardId', 'in', ids)
      .orderBy('card_activity.id')
      .execute(),
  );

  const cards: BoardFileCard[] = [];
  for (const row of rows) {
    pictures.scan(row.content);
    const assignees: BoardFilePerson[] = (people.get(row.id) ?? []).map((p) => ({ id: p.id, name: p.name }));
    const cardAttachments: BoardFileAttachment[] = [];
    for (const a of attachments.get(row.id) ?? []) {
      const file = (await fileExists(options.store, a.storedName)) ? attachmentPath(options.folder, a) : null;
      cardAttachments.push({
        id: a.id,
        filename: a.filename,
        filetype: a.filetype,
        filesize: a.filesize,
        createdAt: toIso(a.createdAt),
        file,
        ...(a.storedName === null && a.url !== null ? { url: a.url } : {}),
      });
    }
    const cardComments: BoardFileComment[] = (comments.get(row.id) ?? []).map((c) => {
      pictures.scan(c.content);
      return {
        id: c.id,
        author:
          c.userId !== null && c.userName !== null ? { id: c.userId, name: c.userName } : { id: null, name: c.authorName },
        content: c.content,
        html: renderMarkdown(c.content),
        createdAt: toIso(c.createdAt),
      };
    });
    const history: BoardFileActivity[] = (activity.get(row.id) ?? []).map((e) => ({
      type: e.type,
      actor: e.actorId !== null && e.name !== null ? { id: e.actorId, name: e.name } : null,
      data: parseData(e.data),
      createdAt: toIso(e.createdAt),
    }));
    cards.push({
      id: row.id,
      name: row.name,
      content: row.content,
      html: renderMarkdown(row.content),
      done: row.status === 1,
      sort: row.sort,
      dueDate: toIso(row.dueDate),
      repeatEvery: row.repeatEvery as BoardFileCard['repeatEvery'],
      assignees,
      assignee: assignees[0] ?? null,
      labels: (labels.get(row.id) ?? []).map((l) => l.name),
      archivedAt: toIso(row.archivedAt),
      reminders: (reminders.get(row.id) ?? []).map((r) => r.minutesBefore),
      attachments: cardAttachments,
      comments: cardComments,
      activity: history,
    });
  }
  await pictures.resolve();
  return cards;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Finds the addresses of pictures uploaded to this board (relative, or with
 * the instance's address in front) in descriptions, comments and the cover,
 * and maps each to its path in the zip. A picture of another board, or an
 * unknown name, is left alone: the zip carries only this board's files.
 */
class PictureFinder {
  private readonly pattern: RegExp;
  /** address as written → stored name, not looked up yet */
  private pending = new Map<string, string>();
  /** stored name → its zip path (null when the file is missing), or null when it is not one of this board's pictures */
  private readonly known = new Map<string, { path: string | null } | null>();
  private readonly addresses = new Map<string, string | null>();

  constructor(
    private readonly db: Db,
    private readonly boardId: number,
    private readonly options: BoardFileOptions,
  ) {
    this.pattern = new RegExp(
      `(?:${escapeRegExp(options.baseUrl)})?/api/data/image/([0-9a-f]{32}(?:\\.[a-z0-9]{1,10})?)(?![0-9a-z])`,
      'g',
    );
  }

  scan(text: string): void {
    if (!text.includes('/api/data/image/')) return;
    for (const match of text.matchAll(this.pattern)) {
      const address = match[0];
      const storedName = match[1]!;
      if (this.addresses.has(address)) continue;
      const picture = this.known.get(storedName);
      if (picture === undefined) this.pending.set(address, storedName);
      else if (picture !== null) this.addresses.set(address, picture.path);
    }
  }

  /** Looks up the names found since the last call: one query per batch. */
  async resolve(): Promise<void> {
    if (this.pending.size === 0) return;
    const pending = this.pending;
    this.pending = new Map();
    const names = [...new Set(pending.values())].filter((n) => !this.known.has(n));
    for (let i = 0; i < names.length; i += BATCH) {
      const chunk = names.slice(i, i + BATCH);
      const rows = await this.db
        .selectFrom('images')
        .select('storedName')
        .where('boardId', '=', this.boardId)
        .where('storedName', 'in', chunk)
        .execute();
      const found = new Set(rows.map((r) => r.storedName));
      for (const name of chunk) {
        if (!found.has(name)) this.known.set(name, null);
        else this.known.set(name, { path: (await fileExists(this.options.store, name)) ? imagePath(this.options.folder, name) : null });
      }
    }
    for (const [address, storedName] of pending) {
      const picture = this.known.get(storedName);
      if (picture) this.addresses.set(address, picture.path);
    }
  }

  map(): Record<string, string | null> {
    return Object.fromEntries(this.addresses);
  }

  files(): ImageFile[] {
    const files: ImageFile[] = [];
    for (const [storedName, picture] of this.known) if (picture?.path) files.push({ storedName, path: picture.path });
    return files;
  }
}
