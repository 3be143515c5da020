import { statSync } from 'node:fs';
import { sql } from 'kysely';
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
import { dialectOf, type Cursor, type JsonFunctions } from '../../db/dialects/index.js';
import type { BoardRow } from '../../db/schema.js';
import { isStoredName, type UploadStore } from '../../files/store.js';
import { attachmentPath, imagePath } from './zip-names.js';

/** Rows read per query: memory holds one batch, however large the instance. */
export const BATCH = 500;
/**
 * Cards read per query. A card comes with everything on it (labels, people,
 * attachments, comments, history) and leaves with its rendered HTML, so fewer
 * at a time: a batch stays at a few hundred kB.
 */
export const CARD_BATCH = 100;

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
 * of `CARD_BATCH` (board order), then the map of pictures found on the way. Answers
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
      owner: { id: board.ownerId, name: owner?.name ?? '' },
      archivedAt: toIso(board.archivedAt),
    },
    members: members.map((m) => ({ id: m.id, name: m.name, permission: m.permission as 'read' | 'edit' })),
    labels,
  };
  const headJson = JSON.stringify(head);
  await write(`${headJson.slice(0, -1)},"areas":[`);

  const areas = await db.selectFrom('areas').selectAll().where('boardId', '=', board.id).orderBy('sort').orderBy('id').execute();
  for (const [i, area] of areas.entries()) {
    const shell: BoardFileArea = { id: area.id, name: area.name, sort: area.sort, archivedAt: toIso(area.archivedAt), cards: [] };
    const shellJson = JSON.stringify(shell);
    await write(`${i > 0 ? ',' : ''}${shellJson.slice(0, -2)}`);
    const reader = new CardReader<FileCardJson>(db, area.id, { extras: 'file' });
    try {
      for (let first = true; ; first = false) {
        const text = await nextCards(reader, pictures, options);
        if (text === null) break;
        await write(first ? text : `,${text}`);
        // Pictures are looked up between batches, when no batch is held.
        if (pictures.pending > BATCH) await pictures.resolve();
      }
    } finally {
      await reader.close();
    }
    await write(']}');
  }
  await pictures.resolve();
  await write(`],"images":${JSON.stringify(pictures.map())}}`);
  return pictures.files();
}

interface CardJsonBase {
  id: number;
  name: string;
  content: string;
  status: number;
  sort: number;
  dueDate: string | null;
  repeatEvery: string | null;
  archivedAt: string | null;
}

/** A card as the board file's query hands it over. */
export interface FileCardJson extends CardJsonBase {
  labels: string[];
  people: BoardFilePerson[];
  reminders: number[];
  attachments: Array<{
    id: number;
    filename: string;
    filetype: string;
    filesize: number;
    storedName: string | null;
    url: string | null;
    createdAt: string;
  }>;
  comments: Array<{
    id: number;
    userId: string | null;
    authorName: string | null;
    content: string;
    createdAt: string;
    userName: string | null;
  }>;
  activity: Array<{ type: string; actorId: string | null; data: string | null; createdAt: string; name: string | null }>;
}

/** A card as the CSV's query hands it over. */
export interface CsvCardJson extends CardJsonBase {
  labels: string[];
  people: string[];
  comments: number;
  attachments: number;
}

/**
 * Reads an area's cards in board order (sort, then id), `CARD_BATCH` at a
 * time. Each card comes as one JSON text with what hangs on it (labels,
 * people, reminders, attachments, comments, history) aggregated by the
 * database, so a batch is one round trip and its rows are plain strings
 * while they arrive; they are parsed once the batch is complete and turned
 * into output before anything else waits. (Objects held across waits survive
 * the young generation's collections and fill the old one; on PostgreSQL,
 * row objects that outlive the packets of their result even make V8
 * allocate every later row straight into the old generation.)
 *
 * Where the database keeps server-side cursors (PostgreSQL) one cursor sorts
 * the area once and hands it out batch by batch: PostgreSQL keeps `sort` out
 * of every index on purpose (moves rewrite it in place), so paging by key
 * would sort the whole area again for every batch. Elsewhere (SQLite) it
 * reads by key along the (areaId, sort) index.
 */
export class CardReader<T extends CardJsonBase> {
  private after: { sort: number; id: number } | null = null;
  private position = 0;
  private cursor: Cursor<{ id: number; sort: number; card: string }> | null | undefined;
  private done = false;

  constructor(
    private readonly db: Db,
    private readonly areaId: number,
    private readonly options: { visibleOnly?: boolean; extras: T extends FileCardJson ? 'file' : 'csv' },
  ) {}

  private query() {
    const json = dialectOf(this.db).json;
    const extras = this.options.extras === 'file' ? fileExtras(json) : csvExtras(json);
    const card = json.text(
      json.object({
        id: 'cards.id',
        name: 'cards.name',
        content: 'cards.content',
        status: 'cards.status',
        sort: 'cards.sort',
        dueDate: `cards.${q('dueDate')}`,
        repeatEvery: `cards.${q('repeatEvery')}`,
        archivedAt: `cards.${q('archivedAt')}`,
        ...extras,
      }),
    );
    return this.db
      .selectFrom('cards')
      .select(['cards.id', 'cards.sort', sql.raw<string>(card).as('card')])
      .where('cards.areaId', '=', this.areaId)
      .$if(this.options.visibleOnly === true, (qb) => qb.where('cards.archivedAt', 'is', null));
  }

  /** The next batch, or null after the last. */
  async next(): Promise<T[] | null> {
    if (this.done) return null;
    let rows: Array<{ id: number; sort: number; card: string }>;
    if (this.cursor === undefined) {
      this.cursor = dialectOf(this.db).cursor(this.db, this.query().orderBy('cards.sort').orderBy('cards.id'), CARD_BATCH);
    }
    if (this.cursor) {
      rows = await this.cursor.next();
    } else {
      const from = this.after;
      rows = await this.query()
        // `sort >= s` lets the (areaId, sort) index find where to go on; the rest skips the rows of equal sort already read.
        .$if(from !== null, (qb) =>
          qb
            .where('cards.sort', '>=', from!.sort)
            .where((eb) => eb.or([eb('cards.sort', '>', from!.sort), eb('cards.id', '>', from!.id)])),
        )
        .orderBy('cards.sort')
        .orderBy('cards.id')
        .limit(CARD_BATCH)
        .execute();
      const last = rows[rows.length - 1];
      if (last) this.after = { sort: last.sort, id: last.id };
    }
    const cards = rows.map((row) => {
      const card = JSON.parse(row.card) as T;
      // The row may live in the old generation (V8 pretenures where rows come from); pointing there, the
      // text would be kept through young collections and promoted too. Unhooked, it dies young.
      row.card = '';
      // A file says where a card stands (0, 1, 2…), not the stored key, which has gaps.
      card.sort = this.position++;
      return card;
    });
    if (rows.length < CARD_BATCH) await this.close();
    return cards.length > 0 ? cards : null;
  }

  async close(): Promise<void> {
    this.done = true;
    await this.cursor?.close();
  }
}

const q = (name: string) => `"${name}"`;

/** Labels, people, reminders, attachments, comments and history of a card. */
function fileExtras(json: JsonFunctions): Record<string, string> {
  return {
    labels: json.array(
      'l.name',
      'l.id',
      `card_labels cl JOIN labels l ON l.id = cl.${q('labelId')} WHERE cl.${q('cardId')} = cards.id`,
    ),
    people: json.array(
      json.object({ id: 'u.id', name: 'u.name' }),
      'ca.id',
      `card_assignees ca JOIN ${q('user')} u ON u.id = ca.${q('userId')} WHERE ca.${q('cardId')} = cards.id`,
    ),
    reminders: json.array(
      `r.${q('minutesBefore')}`,
      `r.${q('minutesBefore')}`,
      `card_reminders r WHERE r.${q('cardId')} = cards.id`,
    ),
    attachments: json.array(
      json.object({
        id: 'a.id',
        filename: 'a.filename',
        filetype: 'a.filetype',
        filesize: 'a.filesize',
        storedName: `a.${q('storedName')}`,
        url: 'a.url',
        createdAt: `a.${q('createdAt')}`,
      }),
      'a.id',
      `attachments a WHERE a.${q('cardId')} = cards.id`,
    ),
    comments: json.array(
      json.object({
        id: 'm.id',
        userId: `m.${q('userId')}`,
        authorName: `m.${q('authorName')}`,
        content: 'm.content',
        createdAt: `m.${q('createdAt')}`,
        userName: 'u.name',
      }),
      'm.id',
      `comments m LEFT JOIN ${q('user')} u ON u.id = m.${q('userId')} WHERE m.${q('cardId')} = cards.id`,
    ),
    activity: json.array(
      json.object({
        type: 'e.type',
        actorId: `e.${q('actorId')}`,
        data: 'e.data',
        createdAt: `e.${q('createdAt')}`,
        name: 'u.name',
      }),
      'e.id',
      `card_activity e LEFT JOIN ${q('user')} u ON u.id = e.${q('actorId')} WHERE e.${q('cardId')} = cards.id`,
    ),
  };
}

/** What a CSV row needs beyond the card: label and people names, and how many comments and attachments. */
function csvExtras(json: JsonFunctions): Record<string, string> {
  return {
    labels: json.array(
      'l.name',
      'l.id',
      `card_labels cl JOIN labels l ON l.id = cl.${q('labelId')} WHERE cl.${q('cardId')} = cards.id`,
    ),
    people: json.array(
      'u.name',
      'ca.id',
      `card_assignees ca JOIN ${q('user')} u ON u.id = ca.${q('userId')} WHERE ca.${q('cardId')} = cards.id`,
    ),
    comments: `(SELECT count(*) FROM comments m WHERE m.${q('cardId')} = cards.id)`,
    attachments: `(SELECT count(*) FROM attachments a WHERE a.${q('cardId')} = cards.id)`,
  };
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

/** Whether a stored file is there to be exported (a quick stat; it runs between a batch's query and its text, where nothing may wait). */
export function fileExists(store: UploadStore, storedName: string | null): boolean {
  if (storedName === null || !isStoredName(storedName)) return false;
  try {
    return statSync(store.pathOf(storedName)).isFile();
  } catch {
    return false;
  }
}

function parseData(raw: string | null): unknown {
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** The next batch of an area's cards as JSON (comma-separated objects), or null after the last. */
async function nextCards(
  reader: CardReader<FileCardJson>,
  pictures: PictureFinder,
  options: BoardFileOptions,
): Promise<string | null> {
  const cards = await reader.next();
  if (cards === null) return null;
  // From here on nothing waits: the batch is text before anything else runs.
  return cards.map((card) => JSON.stringify(presentCard(card, pictures, options))).join(',');
}

/** One card of the board file. */
function presentCard(card: FileCardJson, pictures: PictureFinder, options: BoardFileOptions): BoardFileCard {
  pictures.scan(card.content);
  const attachments: BoardFileAttachment[] = card.attachments.map((a) => ({
    id: a.id,
    filename: a.filename,
    filetype: a.filetype,
    filesize: a.filesize,
    createdAt: toIso(a.createdAt),
    file: fileExists(options.store, a.storedName) ? attachmentPath(options.folder, a) : null,
    ...(a.storedName === null && a.url !== null ? { url: a.url } : {}),
  }));
  const comments: BoardFileComment[] = card.comments.map((c) => {
    pictures.scan(c.content);
    return {
      id: c.id,
      author: c.userId !== null && c.userName !== null ? { id: c.userId, name: c.userName } : { id: null, name: c.authorName },
      content: c.content,
      html: renderMarkdown(c.content),
      createdAt: toIso(c.createdAt),
    };
  });
  const activity: BoardFileActivity[] = card.activity.map((e) => ({
    type: e.type,
    actor: e.actorId !== null && e.name !== null ? { id: e.actorId, name: e.name } : null,
    data: parseData(e.data),
    createdAt: toIso(e.createdAt),
  }));
  return {
    id: card.id,
    name: card.name,
    content: card.content,
    html: renderMarkdown(card.content),
    done: card.status === 1,
    sort: card.sort,
    dueDate: toIso(card.dueDate),
    repeatEvery: card.repeatEvery as BoardFileCard['repeatEvery'],
    assignees: card.people,
    assignee: card.people[0] ?? null,
    labels: card.labels,
    archivedAt: toIso(card.archivedAt),
    reminders: card.reminders,
    attachments,
    comments,
    activity,
  };
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
  private waiting = new Map<string, string>();
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

  /** How many addresses wait to be looked up. */
  get pending(): number {
    return this.waiting.size;
  }

  scan(text: string): void {
    if (!text.includes('/api/data/image/')) return;
    for (const match of text.matchAll(this.pattern)) {
      const address = match[0];
      const storedName = match[1]!;
      if (this.addresses.has(address)) continue;
      const picture = this.known.get(storedName);
      if (picture === undefined) this.waiting.set(address, storedName);
      else if (picture !== null) this.addresses.set(address, picture.path);
    }
  }

  /** Looks up the names found since the last call: one query per batch. */
  async resolve(): Promise<void> {
    if (this.waiting.size === 0) return;
    const pending = this.waiting;
    this.waiting = new Map();
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
        else
          this.known.set(name, {
            path: fileExists(this.options.store, name) ? imagePath(this.options.folder, name) : null,
          });
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
