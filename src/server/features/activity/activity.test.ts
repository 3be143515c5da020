import { expect, it } from 'vitest';
import { seedBoard, updateCard } from '../../../../test/factories.js';
import { eachDialect } from '../../../../test/harness.js';

eachDialect('card activity', (t) => {
  it('records every change to a card, oldest first, naming assignees', async () => {
    const owner = await t.signUp('Owner');
    const helper = await t.signUp('Helper');
    const { board, areas, cards } = await seedBoard(t, owner, { Todo: ['task'], Done: [] });
    await t.inject(owner, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: board.id, userId: helper.id, permission: 'edit' },
    });
    const id = cards.task!.id;
    const urgent = (
      await t.inject(owner, { method: 'POST', url: '/api/data/labels', payload: { boardId: board.id, name: 'urgent' } })
    ).json().label;
    await updateCard(t, owner, id, { assignees: [helper.id], labelIds: [urgent.id], dueDate: '2026-10-01T08:00:00Z' });
    await updateCard(t, owner, id, { repeatEvery: 'month' });
    await t.inject(helper, {
      method: 'POST',
      url: '/api/data/cardMove',
      payload: { cardId: id, fromAreaId: areas.Todo!.id, toAreaId: areas.Done!.id, newIndex: 0 },
    });
    await updateCard(t, helper, id, { status: 1 });
    await updateCard(t, owner, id, { assignees: [], labelIds: [] });
    await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: id } });
    await t.inject(owner, { method: 'POST', url: '/api/data/archive', payload: { type: 'card', id } });

    const res = await t.inject(helper, { method: 'GET', url: `/api/data/card-activity?cardID=${id}` });
    expect(res.statusCode).toBe(200);
    const activity = res.json().activity as Array<{
      type: string;
      actor: { id: string } | null;
      data: Record<string, unknown> | null;
      createdAt: string;
    }>;
    expect(activity.map((a) => a.type)).toEqual([
      'created',
      'labels',
      'assigned',
      'due',
      'repeat',
      'moved',
      'status',
      'repeated',
      'labels',
      'assigned',
      'archived',
      'restored',
    ]);
    expect(activity[0]).toEqual({
      type: 'created',
      actor: { id: owner.id, name: 'Owner', image: null, type: 'human' },
      data: null,
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(activity[1]!.data).toEqual({ added: ['urgent'], removed: [] });
    expect(activity[2]!.data).toEqual({ assigneeId: helper.id, assigneeName: 'Helper' });
    expect(activity[3]!.data).toEqual({ dueDate: '2026-10-01T08:00:00.000Z' });
    expect(activity[4]!.data).toEqual({ every: 'month' });
    expect(activity[5]).toMatchObject({ actor: { id: helper.id }, data: { from: 'Todo', to: 'Done' } });
    expect(activity[6]!.data).toEqual({ done: true });
    expect(activity[7]!.data).toMatchObject({ nextId: expect.any(Number), dueDate: expect.stringMatching(/Z$/) });
    expect(activity[8]!.data).toEqual({ added: [], removed: ['urgent'] });
    expect(activity[9]!.data).toEqual({ assigneeId: helper.id, removed: true, assigneeName: 'Helper' });

    const successor = activity[7]!.data!.nextId as number;
    const next = (await t.inject(owner, { method: 'GET', url: `/api/data/card-activity?cardId=${successor}` })).json().activity;
    expect(next).toEqual([expect.objectContaining({ type: 'created', data: { repeatedFrom: id } })]);
  });

  it('names the areas of a move exactly as they are written, whatever they hold; a refused move records nothing', async () => {
    const owner = await t.signUp();
    const from = 'Say "hi" \\ ✓';
    const to = 'Tab\there\nline 𝄞 </script>';
    const { areas, cards } = await seedBoard(t, owner, { [from]: ['task'], [to]: [] });
    const id = cards.task!.id as number;
    const move = (fromAreaId: number) =>
      t.inject(owner, {
        method: 'POST',
        url: '/api/data/cardMove',
        payload: { cardId: id, fromAreaId, toAreaId: areas[to]!.id, newIndex: 0 },
      });
    expect((await move(areas[from]!.id as number)).statusCode).toBe(200);
    // The card is no longer where this client saw it.
    expect((await move(areas[from]!.id as number)).statusCode).toBe(409);

    const activity = (await t.inject(owner, { method: 'GET', url: `/api/data/card-activity?cardID=${id}` })).json().activity;
    expect(activity.map((a: { type: string }) => a.type)).toEqual(['created', 'moved']);
    expect(activity[1].data).toEqual({ from, to });
    // Stored as JSON.stringify writes it, as every other entry is.
    const stored = await t.db
      .selectFrom('card_activity')
      .select('data')
      .where('cardId', '=', id)
      .where('type', '=', 'moved')
      .execute();
    expect(stored).toEqual([{ data: JSON.stringify({ from, to }) }]);
  });

  it('needs read access and a card id', async () => {
    const owner = await t.signUp();
    const stranger = await t.signUp();
    const { cards } = await seedBoard(t, owner, { A: ['x'] });
    expect((await t.inject(stranger, { method: 'GET', url: `/api/data/card-activity?cardID=${cards.x!.id}` })).statusCode).toBe(
      404,
    );
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/card-activity?cardID=999999' })).statusCode).toBe(404);
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/card-activity' })).statusCode).toBe(400);
    expect((await t.inject(null, { method: 'GET', url: `/api/data/card-activity?cardID=${cards.x!.id}` })).statusCode).toBe(403);
  });
});
