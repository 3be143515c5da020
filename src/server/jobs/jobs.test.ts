import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { seedBoard, updateCard } from '../../../test/factories.js';
import { eachDialect, startApp, type TestUser } from '../../../test/harness.js';
import { fireDueReminders } from '../features/notifications/reminders.js';
import { enqueue } from './runner.js';

eachDialect('jobs', (t) => {
  const dueNotes = (user: TestUser) =>
    t.db
      .selectFrom('notifications')
      .selectAll()
      .where('userId', '=', user.id)
      .where('type', '=', 'card_due')
      .orderBy('id')
      .execute();
  const share = (owner: TestUser, boardId: number, user: TestUser) =>
    t.inject(owner, { method: 'POST', url: '/api/data/invite', payload: { boardId, userId: user.id, permission: 'edit' } });

  it('fires a reminder once at its moment, to the assignees, and again for a new due date', async () => {
    const owner = await t.signUp();
    const assignee = await t.signUp();
    const bystander = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { A: ['launch'] });
    await share(owner, board.id, assignee);
    await share(owner, board.id, bystander);
    const due = new Date(Date.now() + 2 * 3600_000);
    await updateCard(t, owner, cards.launch!.id, { dueDate: due.toISOString(), reminders: [60], assignees: [assignee.id] });

    t.setTime(new Date(due.getTime() - 61 * 60_000));
    await t.app.jobs.seed();
    await t.app.jobs.runDue();
    expect(await dueNotes(assignee)).toHaveLength(0);

    t.setTime(new Date(due.getTime() - 59 * 60_000));
    await fireDueReminders(t.app.deps, new Date(due.getTime() - 59 * 60_000));
    await fireDueReminders(t.app.deps, new Date(due.getTime() - 58 * 60_000));
    const notes = await dueNotes(assignee);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ boardId: board.id, cardId: cards.launch!.id, actorId: null, isRead: 0 });
    expect(notes[0]!.message).toContain('launch');
    expect(await dueNotes(bystander)).toHaveLength(0);
    expect(await dueNotes(owner)).toHaveLength(0);

    // A new due date re-arms it.
    const later = new Date(due.getTime() + 86_400_000);
    await updateCard(t, owner, cards.launch!.id, { dueDate: later.toISOString() });
    expect(await fireDueReminders(t.app.deps, new Date(later.getTime() - 30 * 60_000))).toBe(1);
    expect(await dueNotes(assignee)).toHaveLength(2);
    t.setTime(null);
  });

  it('reminds everyone on the board when nobody is assigned; skips done and archived cards and dates long past', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, owner, {
      A: ['open', 'done', 'archived', 'ancient'],
      B: ['in archived area'],
    });
    await share(owner, board.id, member);
    const due = new Date(Date.now() + 3600_000).toISOString();
    for (const name of ['open', 'done', 'archived', 'in archived area'])
      await updateCard(t, owner, cards[name]!.id, { dueDate: due, reminders: [15] });
    await updateCard(t, owner, cards.ancient!.id, { dueDate: '2020-01-01T00:00:00Z', reminders: [0] });
    await updateCard(t, owner, cards.done!.id, { status: 1 });
    await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.archived!.id } });
    await t.inject(owner, { method: 'DELETE', url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}` });

    const fired = await fireDueReminders(t.app.deps, new Date(Date.parse(due) - 10 * 60_000));
    expect(fired).toBe(1);
    for (const user of [owner, member]) expect((await dueNotes(user)).map((n) => n.cardId)).toEqual([cards.open!.id]);
  });

  it('runs a job again when its runner died in the middle, and never twice when it finished', async () => {
    const runs: string[] = [];
    t.app.jobs.register('probe', ({ payload }) => {
      runs.push(String(payload.name));
      return Promise.resolve();
    });
    const start = new Date();
    t.setTime(start);
    await enqueue(t.db, 'probe', 'probe:1', { name: 'one' }, start);
    // A runner claims it and dies before finishing.
    const claimed = await t.app.jobs.claim();
    expect(claimed?.kind).toBeDefined();
    for (const { queue } of await t.app.jobs.queueLoad()) {
      while ((await t.app.jobs.claim(queue)) !== undefined) {
        // Other due jobs (recurring ones, mail) are claimed and dropped here too: all are leased now.
      }
    }
    expect(runs).toEqual([]);
    // While the lease lasts nobody else takes it.
    expect(await t.app.jobs.runDue()).toBe(0);
    // Once it runs out, the job runs again, once.
    t.setTime(new Date(start.getTime() + 6 * 60_000));
    await t.app.jobs.runDue();
    expect(runs).toEqual(['one']);
    await t.app.jobs.runDue();
    expect(runs).toEqual(['one']);
    const row = await t.db.selectFrom('jobs').selectAll().where('key', '=', 'probe:1').executeTakeFirstOrThrow();
    expect(row.doneAt).not.toBeNull();
    t.setTime(null);
  });

  it('mails each account a digest of its unread notifications at most hourly, unless turned off', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const quiet = await t.signUp();
    const { board } = await seedBoard(t, owner, { A: [] });
    await share(owner, board.id, reader);
    await share(owner, board.id, quiet);
    await t.inject(
      { cookie: quiet.cookie },
      {
        method: 'POST',
        url: '/api/auth/update-user',
        headers: { origin: 'http://localhost:3000' },
        payload: { emailNotifications: false },
      },
    );
    const areaId = (await t.inject(owner, { method: 'GET', url: `/api/data/areas?boardId=${board.id}` })).json().areas[0].id;
    await t.inject(owner, { method: 'POST', url: '/api/data/card', payload: { areaId, name: 'first' } });

    const outbox = path.join(t.config.dataDir, 'outbox');
    const mails = () => {
      try {
        return readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), 'utf8'));
      } catch {
        return [];
      }
    };
    // The sign-up mails (address verification) go first, so that only the digests are counted.
    await t.app.jobs.runDue();
    const before = mails().length;
    const now = new Date(Date.now() + 60_000);
    t.setTime(now);
    // The digest job (run directly: earlier tests moved the recurring one's schedule) queues mails; the runner sends them.
    const { sendDigests } = await import('../features/notifications/digest.js');
    await sendDigests(t.app.deps, now);
    await t.app.jobs.runDue();
    const sent = mails().slice(before);
    const toReader = sent.filter((m) => m.includes(`To: ${reader.email}`));
    expect(toReader).toHaveLength(1);
    expect(toReader[0]).toContain('first');
    expect(sent.some((m) => m.includes(`To: ${quiet.email}`))).toBe(false);
    expect(sent.some((m) => m.includes(`To: ${owner.email}`))).toBe(false);

    // Another notification within the hour waits for the next slot.
    await t.inject(owner, { method: 'POST', url: '/api/data/card', payload: { areaId, name: 'second' } });
    expect(await sendDigests(t.app.deps, new Date(now.getTime() + 30 * 60_000))).toBe(0);
    expect(await sendDigests(t.app.deps, new Date(now.getTime() + 61 * 60_000))).toBe(1);
    t.setTime(null);
  });
});

eachDialect('jobs across processes', (t) => {
  // SQLite serves one process; several processes share a PostgreSQL database.
  it.runIf(t.dialect === 'postgres')(
    'two processes racing the same due reminders notify each recipient exactly once',
    async () => {
      const owner = await t.signUp();
      const members: TestUser[] = [];
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      for (let i = 0; i < 3; i++) {
        const m = await t.signUp();
        members.push(m);
        await t.inject(owner, {
          method: 'POST',
          url: '/api/data/invite',
          payload: { boardId: board.id, userId: m.id, permission: 'edit' },
        });
      }
      const due = new Date(Date.now() + 3600_000).toISOString();
      for (let i = 0; i < 10; i++) {
        const card = (
          await t.inject(owner, { method: 'POST', url: '/api/data/card', payload: { areaId: areas.A!.id, name: `c${i}` } })
        ).json().card;
        await updateCard(t, owner, card.id, { dueDate: due, reminders: [30, 5] });
      }
      // A second app on the same database: another process as far as the data is concerned.
      const second = await startApp(t.dialect, t.config.databaseUrl, t.config.dataDir);
      try {
        const at = new Date(Date.parse(due) - 60_000);
        const counts = await Promise.all([
          fireDueReminders(t.app.deps, at),
          fireDueReminders(second.app.deps, at),
          fireDueReminders(t.app.deps, at),
        ]);
        expect(counts.reduce((a, b) => a + b, 0)).toBe(20);
      } finally {
        await second.app.close();
        await second.database.close();
      }
      for (const user of [owner, ...members]) {
        const rows = await t.db
          .selectFrom('notifications')
          .select('cardId')
          .where('userId', '=', user.id)
          .where('type', '=', 'card_due')
          .execute();
        expect(rows).toHaveLength(20);
      }
    },
  );
});
