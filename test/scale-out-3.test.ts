import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTEN_CONNECTION_NAME } from '../src/server/db/dialects/pg-listen.js';
import type { ServerMessage } from '../src/shared/events.js';
import { createTestDatabase, type TestDatabase } from './databases.js';
import { account, healthy, kill, start, stop, type ServerProcess } from './processes.js';
import { RoundRobinProxy } from './round-robin-proxy.js';
import { Viewer } from './realtime-client.js';

/** Waits until `done()` holds, checking every 50 ms; fails with `what` after `timeoutMs`. */
async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * A viewer of one board through the proxy that, like the web app, reconnects
 * (through the proxy, so to whichever process is next) when its connection
 * drops and resumes with `since` = the last version it received.
 */
class Watcher {
  readonly versions: number[] = [];
  base = 0;
  reconnects = 0;
  resyncs = 0;
  #socket: WebSocket | null = null;
  #stopped = false;

  constructor(
    private readonly wsUrl: string,
    private readonly key: string,
    private readonly boardId: number,
  ) {}

  open(since?: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.wsUrl, { headers: { 'x-api-key': this.key } });
      this.#socket = socket;
      let subscribed = false;
      socket.once('error', reject);
      socket.on('open', () =>
        socket.send(JSON.stringify({ type: 'subscribe', boardId: this.boardId, ...(since === undefined ? {} : { since }) })),
      );
      socket.on('message', (raw) => {
        if (this.#socket !== socket) return;
        const m = JSON.parse((raw as Buffer).toString('utf8')) as ServerMessage;
        if (m.type === 'subscribed' && m.boardId === this.boardId) {
          if (since === undefined) this.base = m.version;
          subscribed = true;
          resolve();
        } else if (m.type === 'event' && m.boardId === this.boardId) this.versions.push(m.version);
        else if (m.type === 'resync') this.resyncs++;
      });
      socket.on('close', () => {
        // A failed attempt (the proxy's 502 from the dead process) is retried by the resume under way, not a second one.
        if (!subscribed) return reject(new Error('closed before it was subscribed'));
        if (this.#stopped || this.#socket !== socket) return;
        this.reconnects++;
        void this.#resume();
      });
    });
  }

  async #resume(): Promise<void> {
    for (let attempt = 0; attempt < 50 && !this.#stopped; attempt++) {
      try {
        return await this.open(this.versions.at(-1) ?? this.base);
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  close(): void {
    this.#stopped = true;
    this.#socket?.close();
  }
}

/**
 * Three real server processes on one PostgreSQL database and one DATA_DIR,
 * behind a round-robin proxy (no sticky sessions): viewers and writes land
 * on all three. Every write reaches every viewer once and in order; a
 * reminder goes out once; a process killed mid-stream loses no acknowledged
 * write, and its viewers resume on another process without a gap.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'three processes behind a round-robin proxy [postgres only: set TEST_DATABASE_URL]',
  () => {
    let database: TestDatabase;
    let dataDir: string;
    let proxy: RoundRobinProxy;
    let sql: pg.Client;
    const servers: ServerProcess[] = [];
    let key = '';

    const call = async (method: string, url: string, body?: object): Promise<{ status: number; json: Json }> => {
      const res = await fetch(proxy.url + url, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, json: res.headers.get('content-type')?.includes('json') ? await res.json() : null };
    };
    const ok = async (method: string, url: string, body?: object) => {
      const res = await call(method, url, body);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return res.json;
    };
    const boardWithArea = async (name: string) => {
      const { board } = await ok('POST', '/api/data/board', { userId, name, style: 'kanban', status: 'private' });
      const { area } = await ok('POST', '/api/data/area', { boardId: board.id, name: 'Todo' });
      return { boardId: board.id as number, areaId: area.id as number };
    };
    const watchers: Watcher[] = [];
    const watch = async (boardId: number) => {
      const w = new Watcher(proxy.url.replace(/^http/, 'ws') + '/api/realtime', key, boardId);
      watchers.push(w);
      await w.open();
      return w;
    };
    const boardVersion = async (boardId: number) =>
      Number((await sql.query('select version from boards where id = $1', [boardId])).rows[0].version);
    let userId = '';

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'tavla-shared-'));
      proxy = await RoundRobinProxy.start();
      // Every process knows itself by the proxy's address, as behind a real load balancer.
      for (let i = 0; i < 3; i++) servers.push(await start(database.url, { BASE_URL: proxy.url }, { dataDir }));
      // Three at once take a while to start (tsx compiles the sources) on a busy machine.
      await Promise.all(servers.map((s) => healthy(s.url, 170_000)));
      proxy.setBackends(servers.map((s) => s.url));
      ({ key, userId } = await account(proxy.url));
      sql = new pg.Client({ connectionString: database.url });
      await sql.connect();
    }, 180_000);

    afterAll(async () => {
      for (const w of watchers) w.close();
      await sql?.end();
      await proxy?.close();
      for (const s of servers) await stop(s);
      await database?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    it('holds one listening connection per process, whatever listens in it', async () => {
      const listening = async () =>
        Number(
          (
            await sql.query<{ n: string }>(
              `select count(*) as n from pg_stat_activity where application_name = $1 and datname = current_database()`,
              [LISTEN_CONNECTION_NAME],
            )
          ).rows[0]!.n,
        );
      await until('every process to listen', async () => (await listening()) === servers.length);
    });

    it('delivers every write, sequential or concurrent, to every viewer on every process once and in order', async () => {
      const { boardId, areaId } = await boardWithArea('Fan-out');
      const before = new Map(proxy.upgraded);
      const viewers: Watcher[] = [];
      for (let i = 0; i < 6; i++) viewers.push(await watch(boardId));
      // The proxy spread the six viewers over the three processes, two each.
      expect(servers.map((s) => (proxy.upgraded.get(s.url) ?? 0) - (before.get(s.url) ?? 0))).toEqual([2, 2, 2]);
      const base = viewers[0]!.base;

      for (let i = 0; i < 15; i++) await ok('POST', '/api/data/card', { areaId, name: `sequential ${i}` });
      await Promise.all(range(0, 14).map((i) => ok('POST', '/api/data/card', { areaId, name: `concurrent ${i}` })));
      const handled = servers.map((s) => proxy.handled.get(s.url) ?? 0);
      expect(handled.every((n) => n > 0)).toBe(true);

      const last = await boardVersion(boardId);
      expect(last).toBe(base + 30);
      await until('every viewer to have every event', () => viewers.every((v) => v.versions.at(-1) === last));
      for (const v of viewers) expect(v.versions).toEqual(range(base + 1, last));
    });

    it('sends each due reminder once, whichever process runs the reminder job, however often it runs', async () => {
      const { boardId, areaId } = await boardWithArea('Reminders');
      const due = new Date(Date.now() - 60_000).toISOString();
      const cardIds: number[] = [];
      for (let i = 0; i < 4; i++) {
        const { card } = await ok('POST', '/api/data/card', { areaId, name: `due ${i}` });
        await ok('PUT', '/api/data/card', { cardID: card.id, dueDate: due, reminders: [0] });
        cardIds.push(card.id);
      }
      const sent = async () =>
        (
          await sql.query<{ cardId: number; n: string }>(
            `select "cardId", count(*) as n from notifications where type = 'card_due' and "boardId" = $1 group by "cardId"`,
            [boardId],
          )
        ).rows;
      // The reminder job is due every minute: make it due now, three times over; all three processes poll for it.
      for (let round = 0; round < 3; round++) {
        const now = new Date();
        await sql.query(`update jobs set "runAt" = $1 where kind = 'due-reminders'`, [now.toISOString()]);
        await until('the reminder job to run', async () => {
          const { rows } = await sql.query(`select "runAt" from jobs where kind = 'due-reminders'`);
          return new Date(rows[0].runAt as string | Date).getTime() > now.getTime();
        });
        if (round === 0) await until('every reminder', async () => (await sent()).length === cardIds.length);
      }
      const rows = await sent();
      expect(rows.map((r) => Number(r.cardId)).sort((a, b) => a - b)).toEqual(cardIds);
      expect(rows.map((r) => Number(r.n))).toEqual(cardIds.map(() => 1));
    });

    it('loses no acknowledged write when a process is killed mid-stream; its viewers resume elsewhere with since', async () => {
      const { boardId, areaId } = await boardWithArea('Kill');
      const victim = servers[1]!;
      const before = proxy.upgraded.get(victim.url) ?? 0;
      const viewers: Watcher[] = [];
      for (let i = 0; i < 6; i++) viewers.push(await watch(boardId));
      const onVictim = (proxy.upgraded.get(victim.url) ?? 0) - before;
      expect(onVictim).toBe(2);
      const base = viewers[0]!.base;

      // A second account views the board straight on the victim; an observer on a survivor sees it in presence.
      const second = await account(proxy.url, 'second@example.test');
      await ok('POST', '/api/data/invite', { boardId, userId: second.userId, permission: 'edit' });
      const observer = await Viewer.connect(servers[0]!.url, { 'x-api-key': key });
      const onVictimOnly = await Viewer.connect(victim.url, { 'x-api-key': second.key });
      for (const v of [observer, onVictimOnly]) {
        v.send({ type: 'subscribe', boardId });
        await v.next('subscribed');
      }
      await observer.nextPresence((m) => m.viewers.some((v) => v.id === second.userId), 10_000);
      observer.messages.length = 0;

      // Three writers through the proxy; the victim is killed (SIGKILL) once a dozen writes were answered.
      const acknowledged: string[] = [];
      const failed: number[] = [];
      const killed: Array<Promise<void>> = [];
      let acknowledgedAtKill = 0;
      const writer = async (w: number) => {
        for (let i = 0; i < 14; i++) {
          const name = `w${w}-${i}`;
          const res = await call('POST', '/api/data/card', { areaId, name }).catch(() => ({ status: 0, json: null }));
          if (res.status === 200) acknowledged.push(name);
          else failed.push(res.status);
          if (acknowledged.length >= 12 && killed.length === 0) {
            acknowledgedAtKill = acknowledged.length;
            killed.push(kill(victim));
          }
        }
      };
      const failedBefore = servers.map((s) => proxy.failed.get(s.url) ?? 0);
      await Promise.all([0, 1, 2].map(writer));
      await Promise.all(killed);
      expect(victim.child.signalCode).toBe('SIGKILL');
      // Only a write the victim had taken may fail (the proxy's 502, or the connection dropped: 0), never one on a
      // survivor. How many the victim took before it died depends on the machine's timing, not on the servers.
      expect(failed.every((s) => s === 502 || s === 0)).toBe(true);
      const failedOn = servers.map((s, i) => (proxy.failed.get(s.url) ?? 0) - failedBefore[i]!);
      expect(failedOn).toEqual(servers.map((s) => (s === victim ? failed.length : 0)));
      // Mid-stream: the writes went on, through the survivors, after the kill.
      expect(acknowledged.length).toBeGreaterThan(acknowledgedAtKill);
      expect(acknowledged.length + failed.length).toBe(42);

      // Every acknowledged write is stored, with its event in the log.
      const stored = new Set(
        (await sql.query<{ name: string }>('select name from cards where "boardId" = $1', [boardId])).rows.map((r) => r.name),
      );
      const logged = new Set(
        (
          await sql.query<{ data: unknown }>(`select data from board_events where "boardId" = $1 and name = 'card.created'`, [
            boardId,
          ])
        ).rows.map(
          (r) =>
            (JSON.parse(typeof r.data === 'string' ? r.data : JSON.stringify(r.data)) as { card: { name: string } }).card.name,
        ),
      );
      for (const name of acknowledged) {
        expect(stored.has(name), name).toBe(true);
        expect(logged.has(name), name).toBe(true);
      }

      // One more write after the kill; then every viewer, resumed or not, has every version once, in order.
      await ok('POST', '/api/data/card', { areaId, name: 'after the kill' });
      const last = await boardVersion(boardId);
      await until('every viewer to catch up', () => viewers.every((v) => v.versions.at(-1) === last), 20_000);
      for (const v of viewers) {
        expect(v.versions).toEqual(range(base + 1, last));
        expect(v.resyncs).toBe(0);
      }
      // The victim's two viewers, and only they, reconnected (to the other processes).
      expect(viewers.filter((v) => v.reconnects > 0)).toHaveLength(onVictim);

      // The killed process said no goodbye: its viewer leaves the others' presence once its announcements stop (TTL 15 s).
      await observer.nextPresence((m) => !m.viewers.some((v) => v.id === second.userId), 30_000);
      observer.close();
    }, 90_000);
  },
);
