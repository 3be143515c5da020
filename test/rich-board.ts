import { multipart } from './multipart.js';

/** A board with everything an export carries, made through the API (the export, import and restore tests start from it). */

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
