import type { KyselyPlugin } from 'kysely';
import { afterEach, expect, it, vi } from 'vitest';
import { eachDialect, startApp, type TestContext } from '../../../test/harness.js';
import { enqueue } from './jobs.repository.js';
import { JobRunner, MAINTENANCE_QUEUE, type JobHandler } from './runner.js';

/** Jobs that run until the test lets them finish, recording when they start and end. */
class Gates {
  readonly started: string[] = [];
  readonly finished: string[] = [];
  readonly #open = new Map<string, () => void>();

  handler: JobHandler = async ({ payload }) => {
    const name = String(payload.name);
    this.started.push(name);
    await new Promise<void>((resolve) => this.#open.set(name, resolve));
    this.finished.push(name);
  };

  running(): string[] {
    return this.started.filter((name) => !this.finished.includes(name));
  }

  open(name: string): void {
    const resolve = this.#open.get(name);
    if (!resolve) throw new Error(`${name} is not running`);
    resolve();
  }
}

const poll = { timeout: 10_000, interval: 20 };

eachDialect('job queues', (t: TestContext) => {
  let runner: JobRunner | undefined;
  let time: Date | null = null;
  const clock = () => time ?? new Date();
  const fresh = () => {
    runner = new JobRunner(t.database, t.app.log, clock);
    return runner;
  };
  afterEach(async () => {
    await runner?.stop();
    time = null;
  });
  const add = (kind: string, name: string, options: { lane?: string; runAt?: Date } = {}) =>
    enqueue(t.db, kind, `${kind}:${name}`, { name }, options.runAt ?? new Date(Date.now() - 1000), options);

  it('runs each queue in its own slots: a quick job goes while a slow queue is full and has a backlog', async () => {
    const runner = fresh();
    const slow = new Gates();
    const quick: string[] = [];
    runner.defineQueue('slow', { concurrency: 2 });
    runner.defineQueue('quick', { concurrency: 1 });
    runner.register('slow-a', slow.handler, { queue: 'slow' });
    runner.register('quick-a', ({ payload }) => Promise.resolve(void quick.push(String(payload.name))), { queue: 'quick' });
    for (const name of ['s1', 's2', 's3', 's4']) await add('slow-a', name);
    await runner.start(20);

    await vi.waitFor(() => expect(slow.running()).toEqual(['s1', 's2']), poll);
    await add('quick-a', 'q1');
    await vi.waitFor(() => expect(quick).toEqual(['q1']), poll);
    // The slow ones were not let go meanwhile: the quick job did not wait for them.
    expect(slow.running()).toEqual(['s1', 's2']);
    expect(slow.started).toEqual(['s1', 's2']);

    // The quick job's handler has run; its row is marked done a moment later.
    await vi.waitFor(async () => {
      const load = await runner.queueLoad();
      expect(load.find((l) => l.queue === 'slow')).toMatchObject({ depth: 2, running: 2 });
      expect(load.find((l) => l.queue === 'quick')).toMatchObject({ depth: 0, running: 0, oldestAgeSeconds: 0 });
    }, poll);

    // A slot that comes free is filled at once, in the order the jobs were due.
    slow.open('s1');
    await vi.waitFor(() => expect(slow.running()).toEqual(['s2', 's3']), poll);
    for (const name of ['s2', 's3']) slow.open(name);
    await vi.waitFor(() => expect(slow.running()).toEqual(['s4']), poll);
    slow.open('s4');
    await vi.waitFor(async () => expect((await runner.queueLoad()).every((l) => l.depth + l.running === 0)).toBe(true), poll);
  });

  it('runs the jobs of one lane one at a time, in the order they were due, beside other lanes', async () => {
    const runner = fresh();
    const gates = new Gates();
    runner.defineQueue('laned', { concurrency: 3 });
    runner.register('laned-a', gates.handler, { queue: 'laned' });
    const at = (ms: number) => new Date(Date.now() - 10_000 + ms);
    for (const [i, name] of ['a1', 'a2', 'a3'].entries()) await add('laned-a', name, { lane: 'A', runAt: at(i) });
    await add('laned-a', 'b1', { lane: 'B', runAt: at(5) });
    await add('laned-a', 'free', { runAt: at(6) });
    await runner.start(20);

    await vi.waitFor(() => expect(gates.running().sort()).toEqual(['a1', 'b1', 'free']), poll);
    // A slot is free once b1 and the lane-less job end, yet a2 stays behind a1.
    gates.open('b1');
    gates.open('free');
    await vi.waitFor(() => expect(gates.finished).toHaveLength(2), poll);
    await vi.waitFor(async () => {
      const laned = (await runner.queueLoad()).find((l) => l.queue === 'laned');
      expect(laned).toMatchObject({ depth: 2, running: 1 });
    }, poll);
    expect(gates.running()).toEqual(['a1']);

    gates.open('a1');
    await vi.waitFor(() => expect(gates.running()).toEqual(['a2']), poll);
    gates.open('a2');
    await vi.waitFor(() => expect(gates.running()).toEqual(['a3']), poll);
    gates.open('a3');
    await vi.waitFor(() => expect(gates.finished).toHaveLength(5), poll);
    expect(gates.started.filter((name) => name.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
  });

  it('frees a lane whose job was claimed by a process that died, once the lease runs out', async () => {
    const runner = fresh();
    const ran: string[] = [];
    runner.register('dying', ({ payload }) => Promise.resolve(void ran.push(String(payload.name))));
    const start = new Date();
    time = start;
    await add('dying', 'd1', { lane: 'D', runAt: new Date(start.getTime() - 2000) });
    await add('dying', 'd2', { lane: 'D', runAt: new Date(start.getTime() - 1000) });
    // Claimed by a runner that never finishes it.
    expect((await runner.claim(MAINTENANCE_QUEUE))?.kind).toBe('dying');
    expect(await runner.runDue()).toBe(0);
    expect(ran).toEqual([]);
    time = new Date(start.getTime() + 6 * 60_000);
    expect(await runner.runDue()).toBe(2);
    expect(ran).toEqual(['d1', 'd2']);
  });

  it('looks for due work once a poll for all its queues, and fills the queues that have some', async () => {
    let queries = 0;
    const counting: KyselyPlugin = {
      transformQuery: ({ node }) => node,
      transformResult: ({ result }) => {
        queries++;
        return Promise.resolve(result);
      },
    };
    const counted = () => new JobRunner({ ...t.database, db: t.database.db.withPlugin(counting) }, t.app.log, clock);
    const ran: string[] = [];
    const setUp = (r: JobRunner) => {
      for (const name of ['mail', 'hooks', 'search']) {
        r.defineQueue(name, { concurrency: 2 });
        r.register(`${name}-kind`, ({ payload }) => Promise.resolve(void ran.push(String(payload.name))), { queue: name });
      }
      return r;
    };

    // Four queues (the maintenance one too), nothing due: one query, not one a queue. The next poll would come in a minute.
    runner = setUp(counted());
    await runner.start(60_000);
    await runner.stop();
    expect(queries).toBe(1);

    // Work due in one queue (and an old kind's job in the maintenance queue) is found by that one poll and run.
    await add('hooks-kind', 'h1');
    await add('retired-kind', 'r1');
    runner = setUp(counted());
    await runner.start(60_000);
    await vi.waitFor(() => expect(ran).toEqual(['h1']), poll);
    await vi.waitFor(async () => {
      const retired = await t.db
        .selectFrom('jobs')
        .select('lastError')
        .where('key', '=', 'retired-kind:r1')
        .executeTakeFirstOrThrow();
      expect(retired.lastError).toBe('no handler for job kind retired-kind');
    }, poll);
    await runner.stop();
    await t.db.deleteFrom('jobs').where('kind', 'in', ['hooks-kind', 'retired-kind']).execute();
  });

  it("reads each queue's depth and its oldest due job's age, every queue listed", async () => {
    const runner = fresh();
    runner.defineQueue('measured', { concurrency: 1 });
    runner.defineQueue('idle', { concurrency: 3 });
    runner.register('measured-a', () => Promise.resolve(), { queue: 'measured' });
    const now = new Date();
    time = now;
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
    await add('measured-a', 'm1', { runAt: ago(90) });
    await add('measured-a', 'm2', { runAt: ago(30) });
    await add('measured-a', 'later', { runAt: ago(-600) });
    // A kind nobody registered (left by an older version) shows in the maintenance queue.
    await add('forgotten-kind', 'f1', { runAt: ago(12) });

    const load = await runner.queueLoad();
    expect(load.map((l) => l.queue).sort()).toEqual(['idle', MAINTENANCE_QUEUE, 'measured']);
    expect(load.find((l) => l.queue === 'measured')).toEqual({ queue: 'measured', depth: 2, running: 0, oldestAgeSeconds: 90 });
    expect(load.find((l) => l.queue === 'idle')).toEqual({ queue: 'idle', depth: 0, running: 0, oldestAgeSeconds: 0 });
    expect(load.find((l) => l.queue === MAINTENANCE_QUEUE)).toEqual({
      queue: MAINTENANCE_QUEUE,
      depth: 1,
      running: 0,
      oldestAgeSeconds: 12,
    });

    // A claimed job counts as running; the age is the oldest one still waiting.
    expect((await runner.claim('measured'))?.kind).toBe('measured-a');
    expect((await runner.queueLoad()).find((l) => l.queue === 'measured')).toEqual({
      queue: 'measured',
      depth: 1,
      running: 1,
      oldestAgeSeconds: 30,
    });
    // The unknown kind is tried and given up like before, not left in the queue for ever.
    time = new Date(now.getTime() + 6 * 60_000);
    await runner.runDue();
    const forgotten = await t.db.selectFrom('jobs').selectAll().where('key', '=', 'forgotten-kind:f1').executeTakeFirstOrThrow();
    expect(forgotten.lastError).toBe('no handler for job kind forgotten-kind');
    time = new Date(now.getTime() + 7 * 60_000);
    const measured = (await runner.queueLoad()).find((l) => l.queue === 'measured');
    expect(measured).toEqual({ queue: 'measured', depth: 0, running: 0, oldestAgeSeconds: 0 });
  });

  // SQLite serves one process; several processes share a PostgreSQL database.
  it.runIf(t.dialect === 'postgres')('never gives one job to two processes claiming at once', async () => {
    const second = await startApp(t.dialect, t.config.databaseUrl, t.config.dataDir);
    const ran: string[] = [];
    const runners = [fresh(), new JobRunner(second.database, second.app.log, clock)];
    for (const r of runners) {
      r.defineQueue('shared', { concurrency: 4 });
      r.register('shared-a', ({ payload }) => Promise.resolve(void ran.push(String(payload.name))), { queue: 'shared' });
    }
    try {
      const names = Array.from({ length: 40 }, (_, i) => `j${i}`);
      for (const name of names) await add('shared-a', name);
      const counts = await Promise.all(runners.map((r) => r.runDue()));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(40);
      expect(ran.sort()).toEqual([...names].sort());
    } finally {
      await runners[1]!.stop();
      await second.app.close();
      await second.database.close();
    }
  });
});
