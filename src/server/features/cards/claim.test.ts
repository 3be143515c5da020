import { expect, it } from 'vitest';
import { seedBoard, share, snapshot } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';

eachDialect('card claims', (t) => {
  it('the caller becomes the assignee of a card nobody is on; a second claim is a 409 naming who has it', async () => {
    const ada = await t.signUp('Ada');
    const bob = await t.signUp('Bob');
    const { board, cards } = await seedBoard(t, ada, { Todo: ['Task'] });
    await share(t, board.id, bob, 'edit');
    const claim = (user: TestUser) =>
      t.inject(user, { method: 'POST', url: '/api/data/card-claim', payload: { cardID: cards.Task!.id } });

    const won = await claim(bob);
    expect(won.statusCode).toBe(200);
    expect(won.json().card.assignees).toEqual([expect.objectContaining({ id: bob.id, name: 'Bob' })]);

    const before = await snapshot(t);
    const lost = await claim(ada);
    expect(lost.statusCode).toBe(409);
    expect(lost.json()).toEqual({ error: 'The card is already assigned', assignees: [expect.objectContaining({ id: bob.id })] });
    expect(await snapshot(t)).toEqual(before);
  });

  it('20 concurrent claims: exactly one wins', async () => {
    const owner = await t.signUp('Owner');
    const { board, cards } = await seedBoard(t, owner, { Todo: ['Hot'] });
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => t.signUp(`Agent ${i}`)));
    for (const p of people) await share(t, board.id, p, 'edit');
    const answers = await Promise.all(
      people.map((p) => t.inject(p, { method: 'POST', url: '/api/data/card-claim', payload: { cardID: cards.Hot!.id } })),
    );
    const winners = answers.filter((a) => a.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(19);
    const rows = await t.db
      .selectFrom('card_assignees')
      .select('userId')
      .where('cardId', '=', cards.Hot!.id as number)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userId).toBe(winners[0]!.json().card.assignees[0].id);
  });

  it('needs edit access: read members get 403, strangers 404, bad input 400 — nothing changes', async () => {
    const ada = await t.signUp('Ada');
    const reader = await t.signUp('Reader');
    const stranger = await t.signUp('Stranger');
    const { board, cards } = await seedBoard(t, ada, { Todo: ['Task'] });
    await share(t, board.id, reader, 'read');
    const before = await snapshot(t);
    const claim = (user: TestUser, payload: object) => t.inject(user, { method: 'POST', url: '/api/data/card-claim', payload });
    expect((await claim(reader, { cardID: cards.Task!.id })).statusCode).toBe(403);
    expect((await claim(stranger, { cardID: cards.Task!.id })).statusCode).toBe(404);
    expect((await claim(ada, { cardID: 'x' })).statusCode).toBe(400);
    expect((await claim(ada, {})).statusCode).toBe(400);
    expect(await snapshot(t)).toEqual(before);
  });

  it('an archived card cannot be claimed (409) and a viewer sees a claim as a card update', async () => {
    const ada = await t.signUp('Ada');
    const { board, cards } = await seedBoard(t, ada, { Todo: ['Old', 'New'] });
    await t.inject(ada, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.Old!.id } });
    const archived = await t.inject(ada, { method: 'POST', url: '/api/data/card-claim', payload: { cardID: cards.Old!.id } });
    expect(archived.statusCode).toBe(409);
    await t.inject(ada, { method: 'POST', url: '/api/data/card-claim', payload: { cardID: cards.New!.id } });
    const last = await t.db
      .selectFrom('board_events')
      .select(['name', 'data'])
      .where('boardId', '=', board.id)
      .orderBy('version', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.name).toBe('card.updated');
    const activity = await t.inject(ada, { method: 'GET', url: `/api/data/card-activity?cardID=${cards.New!.id}` });
    expect(activity.json().activity.map((a: { type: string }) => a.type)).toContain('assigned');
  });
});
