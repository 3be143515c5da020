import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import yauzl from 'yauzl';
import { openDatabase, type Db } from '../../src/server/db/database.js';
import type { LoadResult } from '../lib/load.js';
import { check, type Budget, type Scenario } from '../lib/scenario.js';

const BOARDS = 20;
const AREAS_PER_BOARD = 5;
const CARDS_PER_AREA = 1_000;
const CARDS = BOARDS * AREAS_PER_BOARD * CARDS_PER_AREA;
const ATTACHMENTS = 1_000;
const ATTACHMENT_BYTES = 16 * 1024;
/** The target for the server's peak memory during a full export. */
const PEAK_RSS_TARGET_MB = 300;

interface ExportSeed {
  pid: number;
  /** Resident memory of the server before the export started, in MB. */
  rssBeforeMb: number | null;
  zipFile: string;
  tempDir: string;
}

interface ExportFigures {
  firstByteMs: number;
  bytes: number;
  /** Highest resident memory sampled (every 50 ms) during the export, in MB. */
  peakRssMb: number | null;
  /** VmHWM after the export: the process's peak since it started, in MB. */
  hwmMb: number | null;
}

/** What `run` measured, beside the LoadResult the runner prints. */
const figures = new WeakMap<LoadResult, ExportFigures>();

const firstByte: Budget = {
  label: 'time to first byte',
  kind: 'max',
  limit: 1_000,
  unit: 'ms',
  measure: (r) => figures.get(r)?.firstByteMs ?? Number.POSITIVE_INFINITY,
};
const exportTime: Budget = { label: 'export time', kind: 'max', limit: 120_000, unit: 'ms', measure: (r) => r.latency.max };

/**
 * A full instance export (GET /api/data/export) of an instance with 100,000
 * cards and 1,000 attachments. The data is written straight into the
 * server's database and upload folder (through HTTP it would take far
 * longer than the export); the export is then read to its end, timed, and
 * the server's memory is sampled while it runs.
 */
export const exportScenario: Scenario<ExportSeed> = {
  name: 'export',
  summary: `GET /api/data/export of ${CARDS.toLocaleString('en-US')} cards and ${ATTACHMENTS.toLocaleString('en-US')} attachments`,
  defaults: { connections: 1, seconds: 120 },
  budgets: [firstByte, exportTime],

  async seed({ api, baseUrl, log }) {
    const server = findServer(baseUrl);
    const dataDir = server.env.DATA_DIR!;
    const url = server.env.DATABASE_URL ?? `sqlite://${path.join(dataDir, 'tavla.db')}`;
    const database = openDatabase(url);
    try {
      await seedInstance(database.db, api.userId, dataDir, log);
      // What autovacuum would have done by now on a live instance: without statistics the planner scans whole tables.
      if (database.dialect.name === 'postgres') await sql`ANALYZE`.execute(database.db);
    } finally {
      await database.close();
    }
    const tempDir = mkdtempSync(path.join(os.tmpdir(), 'tavla-bench-export-'));
    return { pid: server.pid, rssBeforeMb: rssMb(server.pid, 'VmRSS'), zipFile: path.join(tempDir, 'export.zip'), tempDir };
  },

  async run({ api, baseUrl, seconds, log }, seed) {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(seed.pid, 'VmRSS') ?? 0)), 50);
    const startUs = Number(process.hrtime.bigint() / 1000n);
    const started = performance.now();
    try {
      const res = await fetch(`${baseUrl}/api/data/export`, {
        headers: { 'x-api-key': api.key },
        signal: AbortSignal.timeout(seconds * 1000),
      });
      if (!res.body) throw new Error(`the export answered ${res.status} without a body`);
      let firstByteMs = -1;
      let bytes = 0;
      const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
      body.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
      });
      await pipeline(body, createWriteStream(seed.zipFile));
      const totalMs = performance.now() - started;
      const hwmMb = rssMb(seed.pid, 'VmHWM');
      log(
        `export: ${res.status}, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${(totalMs / 1000).toFixed(1)} s, first byte after ${firstByteMs.toFixed(0)} ms`,
      );
      log(
        `server memory: ${seed.rssBeforeMb?.toFixed(0) ?? 'n/a'} MB before the export, peak ${peak.toFixed(0)} MB sampled during it, ` +
          `VmHWM ${hwmMb?.toFixed(0) ?? 'n/a'} MB; target < ${PEAK_RSS_TARGET_MB} MB: ${(hwmMb ?? peak) < PEAK_RSS_TARGET_MB ? 'PASS' : 'MISS'}`,
      );
      const result: LoadResult = {
        connections: 1,
        seconds: totalMs / 1000,
        total: 1,
        requestsPerSecond: 1000 / totalMs,
        latency: { mean: totalMs, p50: totalMs, p90: totalMs, p99: totalMs, max: totalMs },
        non2xx: res.status >= 200 && res.status < 300 ? 0 : 1,
        statusCodes: { [String(res.status)]: 1 },
        errors: 0,
        timeouts: 0,
        window: { startUs, endUs: Number(process.hrtime.bigint() / 1000n) },
      };
      figures.set(result, { firstByteMs, bytes, peakRssMb: peak, hwmMb });
      return result;
    } finally {
      clearInterval(sampler);
    }
  },

  async verify(_ctx, seed, result) {
    try {
      const got = figures.get(result);
      const { names, cards } = await readExport(seed.zipFile);
      const boardFiles = names.filter((n) => /^boards\/\d+-[a-z0-9-]+\.json$/.test(n));
      const attachments = names.filter((n) => /^attachments\/[^/]+\/\d+-[^/]+$/.test(n));
      const pictures = names.filter((n) => /^attachments\/[^/]+\/images\/[^/]+$/.test(n));
      return [
        check('the export answered 200', result.non2xx === 0, JSON.stringify(result.statusCodes)),
        check(`a board file for each of the ${BOARDS} boards`, boardFiles.length === BOARDS, `${boardFiles.length} board files`),
        check(`the board files hold all ${CARDS.toLocaleString('en-US')} cards`, cards === CARDS, `${cards} cards`),
        check(
          `every attachment and picture file is in the zip`,
          attachments.length === ATTACHMENTS && pictures.length === BOARDS,
          `${attachments.length} attachments, ${pictures.length} pictures`,
        ),
        check('database.sql is in the zip', names.includes('database.sql'), `${names.length} entries, ${got?.bytes ?? 0} bytes`),
      ];
    } finally {
      rmSync(seed.tempDir, { recursive: true, force: true });
    }
  },
};

/** The bench's server child (the process this one started for `baseUrl`) and its environment, from /proc. */
function findServer(baseUrl: string): { pid: number; env: Record<string, string> } {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      const env = Object.fromEntries(
        readFileSync(`/proc/${entry}/environ`, 'utf8')
          .split('\0')
          .filter((kv) => kv.includes('='))
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
      if (env.BASE_URL === baseUrl && env.DATA_DIR) return { pid: Number(entry), env };
    } catch {
      // a process that ended meanwhile, or not ours to read
    }
  }
  throw new Error('export: the server process was not found in /proc (the scenario seeds its database directly)');
}

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

const CONTENT = (n: number) =>
  `Card ${n}: what to do.\n\n- [x] first step\n- [ ] second step\n- [ ] third step\n\nSome **Markdown** with a [link](https://example.com/${n}).`;

/** Inserts rows `size` at a time, answering the new ids in order. */
async function insertAll<T extends keyof Tables>(db: Db, table: T, rows: Array<Tables[T]>, size = 500): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += size) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one helper for several tables
    const inserted = await (db.insertInto(table) as any)
      .values(rows.slice(i, i + size))
      .returning('id')
      .execute();
    ids.push(...(inserted as Array<{ id: number }>).map((r) => r.id));
  }
  return ids;
}

type Tables = {
  boards: {
    ownerId: string;
    name: string;
    style: string;
    status: string;
    image: null;
    color: null;
    createdAt: string;
    updatedAt: string;
  };
  areas: { boardId: number; name: string; sort: number; archivedAt: null; createdAt: string; updatedAt: string };
  cards: {
    areaId: number;
    boardId: number;
    name: string;
    content: string;
    status: number;
    sort: number;
    dueDate: string | null;
    repeatEvery: null;
    repeatAnchor: null;
    repeatAreaId: null;
    archivedAt: null;
    createdAt: string;
    updatedAt: string;
  };
  labels: { boardId: number; name: string; nameKey: string; createdAt: string };
  comments: { cardId: number; userId: string; authorName: string; content: string; createdAt: string; updatedAt: string };
  attachments: {
    cardId: number;
    filename: string;
    filetype: string;
    filesize: number;
    storedName: string;
    url: null;
    userId: string;
    createdAt: string;
  };
  images: { boardId: number; storedName: string; filetype: string; filesize: number; userId: string; createdAt: string };
  card_activity: { cardId: number; actorId: string; type: string; data: null; createdAt: string };
};

async function seedInstance(db: Db, userId: string, dataDir: string, log: (message: string) => void): Promise<void> {
  const started = Date.now();
  const now = new Date().toISOString();
  const uploads = path.join(dataDir, 'uploads');
  mkdirSync(uploads, { recursive: true });
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(2048)]);

  const boardIds = await insertAll(
    db,
    'boards',
    Array.from({ length: BOARDS }, (_, i) => ({
      ownerId: userId,
      name: `Bench board ${i + 1}`,
      style: 'kanban',
      status: 'private',
      image: null,
      color: null,
      createdAt: now,
      updatedAt: now,
    })),
  );
  let cardNumber = 0;
  let attachmentsLeft = ATTACHMENTS;
  for (const [b, boardId] of boardIds.entries()) {
    const picture = `${randomBytes(16).toString('hex')}.png`;
    writeFileSync(path.join(uploads, picture), png);
    await insertAll(db, 'images', [
      { boardId, storedName: picture, filetype: 'image/png', filesize: png.length, userId, createdAt: now },
    ]);
    const labelIds = await insertAll(
      db,
      'labels',
      ['bug', 'feature', 'docs', 'urgent', 'later'].map((name) => ({ boardId, name, nameKey: name, createdAt: now })),
    );
    const areaIds = await insertAll(
      db,
      'areas',
      Array.from({ length: AREAS_PER_BOARD }, (_, a) => ({
        boardId,
        name: `Area ${a + 1}`,
        sort: a,
        archivedAt: null,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const boardCards: number[] = [];
    for (const areaId of areaIds) {
      const rows = Array.from({ length: CARDS_PER_AREA }, (_, sort) => {
        const n = ++cardNumber;
        return {
          areaId,
          boardId,
          name: `Card ${n}`,
          content: n % 500 === 1 ? `${CONTENT(n)}\n\n![picture](/api/data/image/${picture})` : CONTENT(n),
          status: n % 7 === 0 ? 1 : 0,
          sort,
          dueDate: n % 5 === 0 ? new Date(Date.UTC(2026, n % 12, (n % 28) + 1, 9)).toISOString() : null,
          repeatEvery: null,
          repeatAnchor: null,
          repeatAreaId: null,
          archivedAt: null,
          createdAt: now,
          updatedAt: now,
        };
      });
      boardCards.push(...(await insertAll(db, 'cards', rows)));
    }
    const labelled = boardCards
      .filter((_, i) => i % 3 === 0)
      .map((cardId, i) => ({ cardId, labelId: labelIds[i % labelIds.length]! }));
    for (let i = 0; i < labelled.length; i += 500)
      await db
        .insertInto('card_labels')
        .values(labelled.slice(i, i + 500))
        .execute();
    const assigned = boardCards.filter((_, i) => i % 4 === 0).map((cardId) => ({ cardId, userId, createdAt: now }));
    for (let i = 0; i < assigned.length; i += 500)
      await db
        .insertInto('card_assignees')
        .values(assigned.slice(i, i + 500))
        .execute();
    await insertAll(
      db,
      'comments',
      boardCards
        .filter((_, i) => i % 10 === 0)
        .map((cardId) => ({
          cardId,
          userId,
          authorName: 'Bench',
          content: `A comment on card ${cardId}.`,
          createdAt: now,
          updatedAt: now,
        })),
    );
    await insertAll(
      db,
      'card_activity',
      boardCards.map((cardId) => ({ cardId, actorId: userId, type: 'created', data: null, createdAt: now })),
    );
    // The attachments, spread over the boards: ATTACHMENTS / BOARDS each.
    const share = Math.min(attachmentsLeft, Math.ceil(ATTACHMENTS / (BOARDS - b)));
    attachmentsLeft -= share;
    const files = Array.from({ length: share }, (_, i) => {
      const storedName = `${randomBytes(16).toString('hex')}.bin`;
      writeFileSync(path.join(uploads, storedName), randomBytes(ATTACHMENT_BYTES));
      return {
        cardId: boardCards[i * Math.floor(boardCards.length / share)]!,
        filename: `file ${b + 1}-${i + 1}.bin`,
        filetype: 'application/octet-stream',
        filesize: ATTACHMENT_BYTES,
        storedName,
        url: null,
        userId,
        createdAt: now,
      };
    });
    await insertAll(db, 'attachments', files);
    log(`seeded board ${b + 1}/${BOARDS} (${cardNumber} cards so far)`);
  }
  log(
    `seeded ${CARDS} cards and ${ATTACHMENTS} attachments straight into the database in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** The entry names of the export, and the cards counted across its board files (one file in memory at a time). */
async function readExport(file: string): Promise<{ names: string[]; cards: number }> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, validateEntrySizes: true });
  const names: string[] = [];
  let cards = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      names.push(entry.fileName);
      if (!entry.fileName.startsWith('boards/')) continue;
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      const board = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { areas: Array<{ cards: unknown[] }> };
      for (const area of board.areas) cards += area.cards.length;
    }
  } finally {
    zip.close();
  }
  return { names, cards };
}
