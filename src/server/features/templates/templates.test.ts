import { expect, it } from 'vitest';
import { areaNames, seedBoard, snapshot, updateCard } from '../../../../test/factories.js';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { TEMPLATE_MAX_AREAS, TEMPLATE_MAX_CARDS, TEMPLATES_PER_ACCOUNT } from '../../../shared/limits.js';

type Summary = { id: number | string; name: string; builtIn: boolean; style: string; areas: number; cards: number };
type CardOut = { name: string; content: string; status: number; dueDate: string | null; labels: Array<{ name: string }> };

function helpers(t: TestContext) {
  const save = (user: TestUser, payload: object) => t.inject(user, { method: 'POST', url: '/api/data/template', payload });
  const list = async (user: TestUser) =>
    (await t.inject(user, { method: 'GET', url: '/api/data/templates' })).json<{ templates: Summary[] }>().templates;
  const fromTemplate = (user: TestUser, payload: object) =>
    t.inject(user, { method: 'POST', url: '/api/data/board-from-template', payload });
  const remove = (user: TestUser, id: number | string) =>
    t.inject(user, { method: 'DELETE', url: `/api/data/template?id=${id}` });
  /** Every area of a board with its cards, as its owner reads them. */
  const contents = async (user: TestUser, boardId: number) => {
    const { areas } = (await t.inject(user, { method: 'GET', url: `/api/data/areas?boardId=${boardId}` })).json<{
      areas: Array<{ id: number; name: string }>;
    }>();
    const out: Array<{ area: string; cards: CardOut[] }> = [];
    for (const area of areas) {
      const { cards } = (await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${area.id}` })).json<{
        cards: CardOut[];
      }>();
      out.push({ area: area.name, cards });
    }
    return out;
  };
  const templateRows = () => t.db.selectFrom('templates').selectAll().orderBy('id').execute();
  return { save, list, fromTemplate, remove, contents, templateRows };
}

eachDialect('templates', (t) => {
  const { save, list, fromTemplate, remove, contents, templateRows } = helpers(t);

  /** A board with labels, a checklist, people, a due date, a comment, a done card and an archived one. */
  async function richBoard(owner: TestUser, helper: TestUser) {
    const { board, areas, cards } = await seedBoard(t, owner, { Ideas: ['Plan', 'Old'], Doing: ['Build'], Empty: [] });
    await t.inject(owner, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: board.id, userId: helper.id, permission: 'edit' },
    });
    const label = async (name: string) =>
      (await t.inject(owner, { method: 'POST', url: '/api/data/labels', payload: { boardId: board.id, name } })).json<{
        label: { id: number };
      }>().label.id;
    const urgent = await label('urgent');
    const bug = await label('bug');
    await updateCard(t, owner, cards.Plan!.id as number, {
      content: 'Steps:\n\n- [x] first\n- [ ] second',
      labelIds: [bug, urgent],
      assignees: [owner.id, helper.id],
      dueDate: '2030-01-02T10:00:00.000Z',
      reminders: [60],
    });
    await updateCard(t, owner, cards.Build!.id as number, { status: 1, labelIds: [urgent] });
    await t.inject(owner, { method: 'POST', url: '/api/data/comment', payload: { cardId: cards.Plan!.id, content: 'a remark' } });
    const archived = await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.Old!.id } });
    expect(archived.statusCode).toBe(200);
    return { board, areas, cards };
  }

  it('saves the structure of a board: areas and cards in order, content with checklists, labels; no people, dates or archived cards', async () => {
    const owner = await t.signUp();
    const helper = await t.signUp();
    const { board } = await richBoard(owner, helper);
    const res = await save(owner, { boardId: board.id, name: '  Release  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      template: {
        id: expect.any(Number),
        name: 'Release',
        builtIn: false,
        style: 'kanban',
        areas: 3,
        cards: 2,
        createdAt: expect.any(String),
      },
    });
    const [row] = await templateRows();
    const stored = JSON.parse(row!.snapshot) as object;
    expect(stored).toEqual({
      style: 'kanban',
      labels: ['urgent', 'bug'],
      fields: [],
      areas: [
        {
          name: 'Ideas',
          cards: [{ name: 'Plan', content: 'Steps:\n\n- [x] first\n- [ ] second', labels: ['urgent', 'bug'], fields: {} }],
        },
        { name: 'Doing', cards: [{ name: 'Build', content: '', labels: ['urgent'], fields: {} }] },
        { name: 'Empty', cards: [] },
      ],
    });
    expect(row!.snapshot).not.toContain(helper.id);
    expect(row!.snapshot).not.toContain(owner.id);
    expect(row!.snapshot).not.toContain('2030');
    expect(row!.snapshot).not.toContain('a remark');
  });

  it('makes a new board of the caller’s from their template: areas, cards, content and labels, nothing personal, board.created emitted', async () => {
    const owner = await t.signUp();
    const helper = await t.signUp();
    const { board: source } = await richBoard(owner, helper);
    const saved = (await save(helper, { boardId: source.id, name: 'From the helper' })).json<{ template: Summary }>().template;
    const res = await fromTemplate(helper, { templateId: saved.id, name: ' Next release ' });
    expect(res.statusCode).toBe(200);
    const { board } = res.json<{ board: { id: number; user: string; name: string; style: string; status: string } }>();
    expect(board).toMatchObject({ user: helper.id, name: 'Next release', style: 'kanban', status: 'private' });
    expect(board.id).not.toBe(source.id);
    const made = await contents(helper, board.id);
    expect(made.map((a) => a.area)).toEqual(['Ideas', 'Doing', 'Empty']);
    expect(await areaNames(t, helper, board.id)).toEqual(['Ideas', 'Doing', 'Empty']);
    const plan = made[0]!.cards[0]!;
    expect(plan).toMatchObject({ name: 'Plan', content: 'Steps:\n\n- [x] first\n- [ ] second', status: 0, dueDate: null });
    expect(plan.labels.map((l) => l.name).sort()).toEqual(['bug', 'urgent']);
    expect(made[1]!.cards.map((c) => [c.name, c.status, c.labels.map((l) => l.name)])).toEqual([['Build', 0, ['urgent']]]);
    // Only the caller is on the new board; nobody was assigned, nothing commented.
    expect(await t.db.selectFrom('board_members').selectAll().where('boardId', '=', board.id).execute()).toEqual([]);
    const cardIds = (await t.db.selectFrom('cards').select('id').where('boardId', '=', board.id).execute()).map((c) => c.id);
    expect(await t.db.selectFrom('card_assignees').selectAll().where('cardId', 'in', cardIds).execute()).toEqual([]);
    expect(await t.db.selectFrom('card_reminders').selectAll().where('cardId', 'in', cardIds).execute()).toEqual([]);
    expect(await t.db.selectFrom('comments').selectAll().where('cardId', 'in', cardIds).execute()).toEqual([]);
    const events = await t.db.selectFrom('board_events').select('name').where('boardId', '=', board.id).execute();
    expect(events.map((e) => e.name)).toEqual(['board.created']);
    // The owner of the source board does not see the helper's new board.
    expect((await t.inject(owner, { method: 'GET', url: `/api/data/board?id=${board.id}&userId=${owner.id}` })).statusCode).toBe(
      404,
    );
    // The style, visibility and colour can be chosen.
    const todo = await fromTemplate(helper, {
      templateId: saved.id,
      name: 'List',
      style: 'todo',
      status: 'public',
      color: '#23766C',
    });
    expect(todo.json()).toMatchObject({ board: { style: 'todo', status: 'public', color: '#23766c' } });
  });

  it('lists the built-ins and the caller’s own templates, never anyone else’s', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const { board } = await seedBoard(t, me, { A: ['x'] });
    const { board: theirs } = await seedBoard(t, other, { B: [] });
    await save(me, { boardId: board.id, name: 'Mine one' });
    await save(me, { boardId: board.id, name: 'Mine two' });
    await save(other, { boardId: theirs.id, name: 'Theirs' });
    const mine = await list(me);
    expect(mine.filter((s) => s.builtIn).map((s) => [s.id, s.name])).toEqual([
      ['kanban-basics', 'Kanban basics'],
      ['sprint', 'Sprint'],
      ['to-do-list', 'To-do list'],
    ]);
    expect(mine.filter((s) => !s.builtIn).map((s) => [s.name, s.areas, s.cards])).toEqual([
      ['Mine two', 1, 1],
      ['Mine one', 1, 1],
    ]);
    expect((await list(other)).filter((s) => !s.builtIn).map((s) => s.name)).toEqual(['Theirs']);
  });

  it('makes a board from a built-in template, with its labels on its cards', async () => {
    const user = await t.signUp();
    const res = await fromTemplate(user, { templateId: 'sprint', name: 'Sprint 12' });
    expect(res.statusCode).toBe(200);
    const { board } = res.json<{ board: { id: number; user: string; style: string } }>();
    expect(board).toMatchObject({ user: user.id, style: 'kanban' });
    const made = await contents(user, board.id);
    expect(made.map((a) => a.area)).toEqual(['Backlog', 'Sprint', 'In review', 'Done']);
    expect(made[0]!.cards.map((c) => [c.name, c.labels.map((l) => l.name)])).toEqual([
      ['Example feature', ['feature']],
      ['Example bug', ['bug']],
    ]);
    expect(made[0]!.cards[0]!.content).toContain('- [ ] ');
    const todo = (await fromTemplate(user, { templateId: 'to-do-list', name: 'Chores' })).json<{ board: { style: string } }>();
    expect(todo.board.style).toBe('todo');
  });

  it('refuses someone else’s template, an unreadable board and bad input, changing nothing', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const { board: theirs } = await seedBoard(t, other, { B: ['secret'] });
    const { board: mine } = await seedBoard(t, me, { A: [] });
    const saved = (await save(other, { boardId: theirs.id, name: 'Theirs' })).json<{ template: Summary }>().template;
    const before = { ...(await snapshot(t)), templates: await templateRows() };

    const refusals: Array<[Promise<{ statusCode: number; json: () => unknown }>, number]> = [
      [fromTemplate(me, { templateId: saved.id, name: 'Copy' }), 404],
      [remove(me, saved.id), 404],
      [save(me, { boardId: theirs.id, name: 'Copy' }), 404],
      [save(me, { boardId: 2_000_000_000, name: 'Copy' }), 404],
      [fromTemplate(me, { templateId: 2_000_000_000, name: 'Copy' }), 404],
      [save(me, { boardId: mine.id, name: '   ' }), 400],
      [save(me, { boardId: mine.id, name: 'x'.repeat(256) }), 400],
      [save(me, { boardId: String(mine.id), name: 'Copy' }), 400],
      [save(me, { boardId: mine.id }), 400],
      [fromTemplate(me, { templateId: 'no-such', name: 'Copy' }), 400],
      [fromTemplate(me, { templateId: 'sprint', name: '' }), 400],
      [fromTemplate(me, { templateId: 'sprint', name: 'Copy', style: 'grid' }), 400],
      [fromTemplate(me, { templateId: '1', name: 'Copy' }), 400],
      [remove(me, 'kanban-basics'), 400],
      [remove(me, 0), 400],
    ];
    for (const [pending, status] of refusals) {
      const res = await pending;
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await fromTemplate(me, { templateId: saved.id, name: 'Copy' })).json()).toEqual({ error: 'Template not found' });
    expect({ ...(await snapshot(t)), templates: await templateRows() }).toEqual(before);
  });

  it('lets a reader save a template of a shared board, and only the owner of a template delete it', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const { board } = await seedBoard(t, owner, { A: ['one'] });
    await t.inject(owner, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: board.id, userId: reader.id, permission: 'read' },
    });
    const saved = (await save(reader, { boardId: board.id, name: 'Read copy' })).json<{ template: Summary }>().template;
    expect(saved.cards).toBe(1);
    expect((await remove(owner, saved.id)).statusCode).toBe(404);
    expect((await remove(reader, saved.id)).json()).toEqual({ success: true });
    expect((await list(reader)).some((s) => s.id === saved.id)).toBe(false);
    expect((await remove(reader, saved.id)).statusCode).toBe(404);
  });

  it(`refuses a board with more than ${TEMPLATE_MAX_AREAS} areas, storing nothing`, async () => {
    const user = await t.signUp();
    const { board } = await seedBoard(t, user, {});
    const areas = Array.from({ length: TEMPLATE_MAX_AREAS + 1 }, (_, i) => ({
      boardId: board.id,
      name: `A${i}`,
      sort: i,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    }));
    await t.db.insertInto('areas').values(areas).execute();
    const res = await save(user, { boardId: board.id, name: 'Too big' });
    expect(res.statusCode).toBe(400);
    expect(await templateRows()).toEqual(expect.not.arrayContaining([expect.objectContaining({ name: 'Too big' })]));
  });

  it(`refuses a board with more than ${TEMPLATE_MAX_CARDS} cards, and a template past ${TEMPLATES_PER_ACCOUNT} per account, storing nothing`, async () => {
    const user = await t.signUp();
    const { board, areas } = await seedBoard(t, user, { A: [] });
    const now = new Date().toISOString();
    const cards = Array.from({ length: TEMPLATE_MAX_CARDS + 1 }, (_, i) => ({
      areaId: areas.A!.id as number,
      boardId: board.id,
      name: `c${i}`,
      content: '',
      status: 0,
      sort: i,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < cards.length; i += 100)
      await t.db
        .insertInto('cards')
        .values(cards.slice(i, i + 100))
        .execute();
    const before = await templateRows();
    const tooMany = await save(user, { boardId: board.id, name: 'Too many cards' });
    expect(tooMany.statusCode).toBe(400);
    expect(await templateRows()).toEqual(before);

    const other = await t.signUp();
    const { board: small } = await seedBoard(t, other, { A: ['one'] });
    const rows = Array.from({ length: TEMPLATES_PER_ACCOUNT }, (_, i) => ({
      ownerId: other.id,
      name: `T${i}`,
      snapshot: JSON.stringify({ style: 'kanban', labels: [], areas: [] }),
      areaCount: 0,
      cardCount: 0,
      createdAt: now,
    }));
    await t.db.insertInto('templates').values(rows).execute();
    const full = await templateRows();
    const refused = await save(other, { boardId: small.id, name: 'One more' });
    expect(refused.statusCode).toBe(400);
    expect(await templateRows()).toEqual(full);
  });
});

eachDialect(
  'templates in the instance language',
  (t) => {
    const { list, fromTemplate, contents } = helpers(t);
    it('names the built-ins and their areas, cards and labels in the instance language', async () => {
      const user = await t.signUp();
      expect((await list(user)).map((s) => s.name)).toEqual(['Kanban-Grundlagen', 'Sprint', 'Aufgabenliste']);
      const { board } = (await fromTemplate(user, { templateId: 'sprint', name: 'Sprint 1' })).json<{ board: { id: number } }>();
      const made = await contents(user, board.id);
      expect(made.map((a) => a.area)).toEqual(['Backlog', 'Sprint', 'In Prüfung', 'Erledigt']);
      expect(made[0]!.cards.map((c) => [c.name, c.labels.map((l) => l.name)])).toEqual([
        ['Beispiel-Funktion', ['Funktion']],
        ['Beispiel-Fehler', ['Fehler']],
      ]);
    });
  },
  { env: { LANGUAGE: 'de' } },
);
