import { crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { multipart } from '../../../../test/multipart.js';

/**
 * Test helpers for the export tests: read a zip answer back, and build zips
 * by hand (names, modes and sizes that archiver would never write: `..`,
 * absolute paths, symbolic links, bombs, lying headers).
 */

export interface ZipContent {
  /** Entry names in the order they are stored. */
  names: string[];
  files: Map<string, Buffer>;
  /** Unix mode bits per entry (from the external attributes). */
  modes: Map<string, number>;
}

export async function readZip(buffer: Buffer): Promise<ZipContent> {
  const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true });
  const names: string[] = [];
  const files = new Map<string, Buffer>();
  const modes = new Map<string, number>();
  for await (const entry of zip.eachEntry()) {
    names.push(entry.fileName);
    modes.set(entry.fileName, entry.externalFileAttributes >>> 16);
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  zip.close();
  return { names, files, modes };
}

export interface RawEntry {
  name: string;
  data: Buffer | string;
  /** deflate (default) or store. */
  store?: boolean;
  /** Unix mode, e.g. 0o120777 for a symbolic link; default a plain file. */
  mode?: number;
  /** The uncompressed size the headers claim (default: the true one). */
  declaredSize?: number;
}

/** A zip written byte by byte, exactly as described. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.from(entry.data);
    const body = entry.store ? data : deflateRawSync(data);
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(data);
    const size = entry.declaredSize ?? data.length;
    const method = entry.store ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    central.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** What the fixture needs of the test harness (kept structural: this file is not a test file). */
export interface Client {
  inject(
    as: unknown,
    options: {
      method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
      url: string;
      payload?: object;
      headers?: Record<string, string>;
    },
  ): Promise<{ statusCode: number; body: string; json<T = unknown>(): T }>;
  createBoard(user: never, fields?: Record<string, unknown>): Promise<{ id: number }>;
}
export interface Person {
  id: string;
  name: string;
  key: string;
}

async function call<T = unknown>(
  t: Client,
  as: Person,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
): Promise<T> {
  const res = await t.inject(as, { method, url, ...(payload ? { payload } : {}) });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

type Labelled = { label: { id: number } };

export const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);
export const REPORT = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));

/**
 * A board with a bit of everything: a shared member, three areas (one
 * archived), cards with Markdown, a checklist, labels, two assignees,
 * reminders, a repeat, a due date, an archived card, a comment, two
 * attachments and a pasted picture used in a description and a comment (the
 * second by its full address).
 */
export async function richBoard(t: Client, owner: Person, member: Person, baseUrl: string) {
  const board = await t.createBoard(owner as never, {
    name: 'Ünïcode Board!',
    style: 'kanban',
    status: 'private',
    color: '#A0b1C2',
  });
  await call(t, owner, 'POST', '/api/data/invite', { boardId: board.id, userId: member.id, permission: 'edit' });
  const area = async (name: string) =>
    (await call<{ area: { id: number } }>(t, owner, 'POST', '/api/data/area', { boardId: board.id, name })).area;
  const todo = await area('Todo');
  const doing = await area('Doing');
  const old = await area('Old');

  const upload = multipart([
    { name: 'boardId', value: String(board.id) },
    { name: 'file', filename: 'diagram.png', type: 'image/png', data: PNG },
  ]);
  const imageRes = await t.inject(owner, { method: 'POST', url: '/api/data/image', ...upload });
  if (imageRes.statusCode !== 200) throw new Error(`image: ${imageRes.body}`);
  const image = imageRes.json<{ url: string }>().url;

  const card = async (areaId: number, name: string, fields: object = {}) =>
    (await call<{ card: { id: number } }>(t, owner, 'POST', '/api/data/card', { areaId, name, ...fields })).card;
  const spec = await card(todo.id, 'Write spec', {
    content: `Steps\n- [x] outline\n- [ ] draft\n\n![diagram](${image})`,
    dueDate: '2026-08-01T09:30:00.000Z',
  });
  const formula = await card(todo.id, '=SUM(A1)', {
    content: 'line one\nline two, "quoted"; done',
    dueDate: '2026-09-02T18:05:00Z',
  });
  const gone = await card(todo.id, 'Gone');
  const dash = await card(doing.id, '-dash');
  const inside = await card(old.id, 'Inside old');

  const urgent = (await call<Labelled>(t, owner, 'POST', '/api/data/labels', { boardId: board.id, name: 'urgent' })).label;
  const docs = (await call<Labelled>(t, owner, 'POST', '/api/data/labels', { boardId: board.id, name: 'Docs' })).label;
  await call(t, owner, 'PUT', '/api/data/card', {
    cardID: spec.id,
    labelIds: [urgent.id, docs.id],
    assignees: [member.id, owner.id],
    reminders: [1440, 60],
    status: 1,
  });
  await call(t, owner, 'PUT', '/api/data/card', { cardID: formula.id, repeatEvery: 'week', labelIds: [urgent.id] });
  await call(t, member, 'POST', '/api/data/comment', { cardId: spec.id, content: `Looks good ![pic](${baseUrl}${image})` });

  const attach = async (cardId: number, filename: string, data: Buffer, type: string) => {
    const body = multipart([
      { name: 'cardId', value: String(cardId) },
      { name: 'file', filename, type, data },
    ]);
    const res = await t.inject(owner, { method: 'POST', url: '/api/data/attachment', ...body });
    if (res.statusCode !== 200) throw new Error(`attachment: ${res.body}`);
    return res.json<{ attachment: { id: number } }>().attachment;
  };
  const report = await attach(spec.id, 'Q1: report?.pdf', REPORT, 'application/pdf');
  const lost = await attach(dash.id, 'lost.txt', Buffer.from('soon gone'), 'text/plain');

  await call(t, owner, 'DELETE', '/api/data/card', { cardID: gone.id });
  await call(t, owner, 'DELETE', `/api/data/area?id=${old.id}&boardId=${board.id}`);
  return {
    board,
    areas: { todo, doing, old },
    cards: { spec, formula, gone, dash, inside },
    image,
    attachments: { report, lost },
  };
}

export { multipart };
