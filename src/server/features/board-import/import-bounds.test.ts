import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { expect, it } from 'vitest';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { importBoardFile } from '../../../../test/factories.js';
import { multipart } from '../../../../test/multipart.js';
import { fileStore } from '../../files/store.js';
import { rawZip } from '../../../../test/zip.js';
import { importBounds } from './import-bounds.js';
import { span, watchLoop, type Span } from '../../../../test/loop-watch.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface TrelloSize {
  lists: number;
  cards: number;
  checklists: number;
  checklistItems: number;
  labels: number;
  comments: number;
}

const LARGEST: TrelloSize = {
  lists: importBounds.areas,
  cards: importBounds.cards,
  checklists: importBounds.checklists,
  checklistItems: importBounds.checklistItems,
  labels: importBounds.labels,
  comments: importBounds.comments,
};

const ONE: TrelloSize = { lists: 1, cards: 1, checklists: 0, checklistItems: 0, labels: 0, comments: 0 };

/** A Trello export of the given size: cards spread over the lists, checklists and comments over the cards. */
function trelloExport(size: TrelloSize): Json {
  const lists = Array.from({ length: size.lists }, (_, i) => ({ id: `L${i}`, name: `List ${i}`, closed: false, pos: i }));
  const cards = Array.from({ length: size.cards }, (_, i) => ({
    id: `C${i}`,
    idList: `L${i % size.lists}`,
    name: `Card ${i}`,
    desc: `What card ${i} is about, in a sentence or two of plain text.`,
    closed: false,
    pos: size.cards - i,
    idLabels: size.labels > 0 ? [`B${i % size.labels}`] : [],
    due: null,
    dueComplete: false,
  }));
  const perChecklist = size.checklists > 0 ? Math.ceil(size.checklistItems / size.checklists) : 0;
  let itemsLeft = size.checklistItems;
  const checklists = Array.from({ length: size.checklists }, (_, i) => {
    const count = Math.min(perChecklist, itemsLeft);
    itemsLeft -= count;
    return {
      id: `K${i}`,
      idCard: `C${i % size.cards}`,
      name: `Checklist ${i}`,
      pos: i,
      checkItems: Array.from({ length: count }, (_, j) => ({
        name: `Item ${j}`,
        state: j % 2 ? 'complete' : 'incomplete',
        pos: j,
      })),
    };
  });
  const labels = Array.from({ length: size.labels }, (_, i) => ({ id: `B${i}`, name: `Label ${i}`, color: 'blue' }));
  const actions = Array.from({ length: size.comments }, (_, i) => ({
    type: 'commentCard',
    date: '2026-01-01T00:00:00.000Z',
    idMemberCreator: 'M1',
    data: { text: `Comment ${i}`, card: { id: `C${i % size.cards}`, name: `Card ${i % size.cards}` } },
    memberCreator: { id: 'M1', fullName: 'Someone Else', username: 'someone' },
  }));
  return { name: 'Large board', lists, cards, checklists, labels, actions, members: [] };
}

/** A board file of ours with `areas` areas, `cards` cards spread over them, and so many labels and comments. */
function boardFile(size: { areas: number; cards: number; labels: number; comments: number }): Json {
  const areas = Array.from({ length: size.areas }, (_, i) => ({
    id: i + 1,
    name: `Area ${i}`,
    sort: i,
    archivedAt: null,
    cards: [] as Json[],
  }));
  for (let i = 0; i < size.cards; i++) {
    areas[i % size.areas]!.cards.push({
      id: i + 1,
      name: `Card ${i}`,
      content: '',
      done: false,
      sort: i,
      dueDate: null,
      assignees: [],
      assignee: null,
      labels: [],
      archivedAt: null,
      reminders: [],
      attachments: [],
      comments: [],
      activity: [],
    });
  }
  const cards = areas.flatMap((a) => a.cards);
  for (let i = 0; i < size.comments; i++) {
    cards[i % cards.length].comments.push({
      id: i + 1,
      author: { id: null, name: 'Someone' },
      content: `Comment ${i}`,
      html: '',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  }
  return {
    format: 'service.board',
    formatVersion: 1,
    serviceVersion: '0.1.0',
    exportedAt: '2026-01-01T00:00:00.000Z',
    board: {
      id: 1,
      name: 'Imported',
      style: 'kanban',
      status: 'private',
      color: null,
      image: null,
      owner: { id: 'x', name: 'X' },
      archivedAt: null,
    },
    members: [],
    labels: Array.from({ length: size.labels }, (_, i) => ({ id: i + 1, name: `Label ${i % 10}` })),
    areas,
    images: {},
  };
}

const importFile = (t: TestContext, user: TestUser, data: Buffer | string, filename: string) =>
  importBoardFile(t, user, data, filename);

async function counts(t: TestContext) {
  const out: Record<string, number> = {};
  for (const table of ['boards', 'areas', 'cards', 'labels', 'comments', 'board_events'] as const)
    out[table] = Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return out;
}

/** An import request over HTTP whose body is started and then held open: the import runs until `destroy()`. */
function heldImport(base: string, user: TestUser): ClientRequest {
  const boundary = '----tavlaheld';
  const req = httpRequest(`${base}/api/data/board-import`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': user.key },
  });
  req.on('error', () => undefined);
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="t.json"\r\n\r\n{"name":`);
  req.flushHeaders();
  return req;
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`not reached within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

eachDialect('import bounds', (t) => {
  let owner: TestUser;

  it('sets up an importer', async () => {
    owner = await t.signUp('Importer');
  });

  const trelloOver: Array<[keyof TrelloSize, string]> = [
    ['lists', 'lists'],
    ['cards', 'cards'],
    ['checklists', 'checklists'],
    ['checklistItems', 'checklist items'],
    ['labels', 'labels'],
    ['comments', 'comments'],
  ];
  it.each(trelloOver)(
    'refuses a Trello export with one too many %s (400 naming the limit), creating nothing',
    async (key, name) => {
      const small: TrelloSize = { lists: 2, cards: 2, checklists: 1, checklistItems: 1, labels: 1, comments: 1 };
      const size = { ...small, [key]: LARGEST[key] + 1 };
      if (key === 'checklistItems') size.checklists = 1;
      const before = await counts(t);
      const res = await importFile(t, owner, JSON.stringify(trelloExport(size)), 'trello.json');
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        error: `The Trello export holds more than ${LARGEST[key].toLocaleString('en')} ${name} (the import limit)`,
      });
      expect(await counts(t)).toEqual(before);
    },
  );

  const ownOver: Array<['areas' | 'cards' | 'labels' | 'comments', number]> = [
    ['areas', importBounds.areas],
    ['cards', importBounds.cards],
    ['labels', importBounds.labels],
    ['comments', importBounds.comments],
  ];
  it.each(ownOver)('refuses a board zip with one too many %s (400 naming the limit), creating nothing', async (key, limit) => {
    const size = { areas: 2, cards: 2, labels: 1, comments: 1, [key]: limit + 1 };
    const before = await counts(t);
    const zip = rawZip([{ name: '1-imported.json', data: JSON.stringify(boardFile(size)) }]);
    const res = await importFile(t, owner, zip, 'board.zip');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      error: `The board file holds more than ${limit.toLocaleString('en')} ${key} (the import limit)`,
    });
    expect(await counts(t)).toEqual(before);
  });

  it('imports a board zip at its bounds', async () => {
    const zip = rawZip([
      {
        name: '1-imported.json',
        data: JSON.stringify(boardFile({ areas: 20, cards: 400, labels: importBounds.labels, comments: 800 })),
      },
    ]);
    const res = await importFile(t, owner, zip, 'board.zip');
    expect(res.statusCode, res.body).toBe(200);
  });

  it('runs IMPORTS_PER_INSTANCE (2) imports at once: a third answers 429 and creates nothing', async () => {
    const base = await t.listen();
    const [a, b, c] = [await t.signUp(), await t.signUp(), await t.signUp()];
    const before = await counts(t);
    const held = [heldImport(base, a), heldImport(base, b)];
    try {
      // Both are under way once each has begun writing its upload to a temporary file.
      const tmp = fileStore(t.config).scratchDir;
      await until(
        () => Promise.resolve(existsSync(tmp) ? readdirSync(tmp).filter((n) => n.endsWith('.import.part')).length : 0),
        (n) => n === 2,
      );
      const refused = await importFile(t, c, JSON.stringify(trelloExport(ONE)), 'trello.json');
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json()).toEqual({ error: 'Too many imports are running; try again later' });
      expect(refused.headers['retry-after']).toBe('10');
      expect(await counts(t)).toEqual(before);
    } finally {
      for (const req of held) req.destroy();
    }
    // The slots come back once the held imports have stopped.
    const accepted = await until(
      () => importFile(t, c, JSON.stringify(trelloExport(ONE)), 'trello.json'),
      (res) => res.statusCode !== 429,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('keeps answering /api/health within 200 ms while the largest allowed Trello import runs', async () => {
    const base = await t.listen();
    const body = multipart([
      { name: 'file', filename: 'trello.json', type: 'application/json', data: JSON.stringify(trelloExport(LARGEST)) },
    ]);
    const watch = watchLoop('/api/health');
    let finished = false;
    const importing = fetch(`${base}/api/data/board-import`, {
      method: 'POST',
      headers: { ...body.headers, 'x-api-key': owner.key },
      body: new Uint8Array(body.payload),
    }).finally(() => {
      finished = true;
    });
    /** Each answer: its status and its round trip. */
    const answers: Array<{ status: number } & Span> = [];
    while (!finished) {
      const end = span();
      const res = await fetch(`${base}/api/health`);
      await res.arrayBuffer();
      answers.push({ status: res.status, ...end() });
    }
    const res = await importing;
    const loop = watch.stop();
    const result: Json = await res.json();
    expect(res.status, JSON.stringify(result)).toBe(200);
    expect(result.report.imported).toMatchObject({
      areas: LARGEST.lists,
      cards: LARGEST.cards,
      comments: LARGEST.comments,
      checklistItems: LARGEST.checklistItems,
    });
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const slowest = (spans: Span[]) =>
      (['own', 'onCpu', 'onClock'] as const).map((k) => Math.round(Math.max(...spans.map((x) => x[k]))));
    const [client, server, turn] = [slowest(answers), slowest(loop.answers), slowest([loop.longestTurn])];
    console.info(
      `health during the largest import (${t.dialect}): ${answers.length} answers; ms without CPU waits / on a CPU / on the clock: ` +
        `slowest answer ${client.join(' / ')}, in the server ${server.join(' / ')}, longest loop turn ${turn.join(' / ')}; ` +
        `event-loop delay max ${Math.round(loop.delayMax)} ms, longest garbage collection ${Math.round(loop.longestGc)} ms`,
    );
    // The client and the server share this thread: an answer's round trip is the loop's delay before
    // the request is read, the server's handling, and the client's own turn. Each is counted without
    // the time the process's threads waited for a CPU: that is the machine's load (other test files
    // on two cores), which no service decides, not the import's; but never less than the time the
    // loop's thread spent on a CPU, so no waiting subtracted can hide work of the import's.
    expect(loop.answers.length).toBe(answers.length);
    const late = (spans: Span[]) => spans.filter((x) => x.own >= 200);
    expect(late(answers)).toEqual([]);
    expect(late(loop.answers)).toEqual([]);
    expect(late([loop.longestTurn])).toEqual([]);
  }, 300_000);
});
