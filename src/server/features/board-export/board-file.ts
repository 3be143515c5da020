import { renderMarkdown } from '../../../shared/markdown.js';
import type {
  BoardFileActivity,
  BoardFileArea,
  BoardFileAttachment,
  BoardFileCard,
  BoardFileComment,
  BoardFileHead,
} from '../../../shared/api/board-file.schema.js';
import type { Db } from '../../db/database.js';
import { toIso } from '../../db/dialect.js';
import type { BoardRow } from '../../db/schema.js';
import type { FileStore } from '../../files/store.js';
import { boardLabels } from '../labels/labels.service.js';
import { boardFields } from '../fields/fields.service.js';
import { listMembers } from '../sharing/sharing.repository.js';
import { CardReader, type FileCardJson } from './card-reader.repository.js';
import { BATCH, areasInOrder, boardImagesNamed, findAccount } from './board-export.repository.js';
import { attachmentPath, imagePath } from './zip-paths.js';

export const BOARD_FILE_FORMAT = 'service.board';
export const BOARD_FILE_VERSION = 1;

export interface BoardFileOptions {
  /** The instance's public address: picture addresses written with it count as ours too. */
  baseUrl: string;
  /** Where this board's files go in the zip: `attachments` or `attachments/<id>-<name>`. */
  folder: string;
  serviceVersion: string;
  exportedAt: string;
  store: FileStore;
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
  const owner = await findAccount(db, board.ownerId);
  const members = await listMembers(db, board.id);
  const labels = await boardLabels(db, board.id);
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
    fields: (await boardFields(db, board.id)).map(({ id, name, type, options, showOnCard }) => ({
      id,
      name,
      type,
      options,
      showOnCard,
    })),
  };
  const headJson = JSON.stringify(head);
  await write(`${headJson.slice(0, -1)},"areas":[`);

  const areas = await areasInOrder(db, board.id);
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
  // Which attachments' files are there: a stat each on disk, requests (several at once) to a bucket.
  const stored = cards.flatMap((card) => card.attachments.flatMap((a) => (a.storedName === null ? [] : [a.storedName])));
  const present = stored.length === 0 ? new Set<string>() : await options.store.existing(stored);
  // From here on nothing waits: the batch is text before anything else runs.
  return cards.map((card) => JSON.stringify(presentCard(card, present, pictures, options))).join(',');
}

/** One card of the board file. */
function presentCard(
  card: FileCardJson,
  present: ReadonlySet<string>,
  pictures: PictureFinder,
  options: BoardFileOptions,
): BoardFileCard {
  pictures.scan(card.content);
  const attachments: BoardFileAttachment[] = card.attachments.map((a) => ({
    id: a.id,
    filename: a.filename,
    filetype: a.filetype,
    filesize: a.filesize,
    createdAt: toIso(a.createdAt),
    file: a.storedName !== null && present.has(a.storedName) ? attachmentPath(options.folder, a) : null,
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
    fields: Object.fromEntries(card.fields.map((f) => [String(f.id), JSON.parse(f.value) as string | number | boolean])),
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
      const rows = await boardImagesNamed(this.db, this.boardId, chunk);
      const found = new Set(rows.map((r) => r.storedName));
      const present = found.size === 0 ? found : await this.options.store.existing([...found]);
      for (const name of chunk) {
        if (!found.has(name)) this.known.set(name, null);
        else this.known.set(name, { path: present.has(name) ? imagePath(this.options.folder, name) : null });
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
