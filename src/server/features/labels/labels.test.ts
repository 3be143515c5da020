import { expect, it } from 'vitest';
import { seedBoard, snapshot, updateCard } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';

eachDialect('labels', (t) => {
  const label = (user: TestUser, boardId: number, name: unknown) =>
    t.inject(user, { method: 'POST', url: '/api/data/labels', payload: { boardId, name } });
  const list = async (user: TestUser, boardId: number) =>
    (await t.inject(user, { method: 'GET', url: `/api/data/labels?boardId=${boardId}` })).json<{
      labels: Array<{ id: number; name: string }>;
    }>().labels;

  it('keeps one label per word per board, whatever its case or blanks, in the order first used', async () => {
    const user = await t.signUp();
    const { board } = await seedBoard(t, user, { A: [] });
    const first = (await label(user, board.id, '  Urgent ')).json();
    expect(first).toEqual({ label: { id: expect.any(Number), name: 'Urgent' } });
    expect((await label(user, board.id, 'URGENT')).json()).toEqual(first);
    expect((await label(user, board.id, 'urgent')).json()).toEqual(first);
    await label(user, board.id, 'Äpfel');
    expect((await label(user, board.id, 'äPFEL')).json().label.name).toBe('Äpfel');
    await label(user, board.id, 'bug');
    expect((await list(user, board.id)).map((l) => l.name)).toEqual(['Urgent', 'Äpfel', 'bug']);
    // Another board has its own.
    const other = await seedBoard(t, user, { A: [] });
    expect((await label(user, other.board.id, 'urgent')).json().label.id).not.toBe(first.label.id);
  });

  it('refuses a 31st word with TOO_MANY_LABELS while an already-used word still succeeds', async () => {
    const user = await t.signUp();
    const { board } = await seedBoard(t, user, { A: [] });
    for (let i = 1; i <= 30; i++) expect((await label(user, board.id, `word${i}`)).statusCode).toBe(200);
    const before = await snapshot(t);
    const refused = await label(user, board.id, 'word31');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'TOO_MANY_LABELS' });
    expect(await snapshot(t)).toEqual(before);
    const reused = await label(user, board.id, 'WORD7');
    expect(reused.statusCode).toBe(200);
    expect(reused.json().label.name).toBe('word7');
  });

  it('refuses names that are empty or over 64 characters after trimming, and reads need access', async () => {
    const user = await t.signUp();
    const stranger = await t.signUp();
    const { board } = await seedBoard(t, user, { A: [] });
    const before = await snapshot(t);
    expect((await label(user, board.id, '   ')).statusCode).toBe(400);
    expect((await label(user, board.id, 'x'.repeat(65))).statusCode).toBe(400);
    expect((await label(user, board.id, 5)).statusCode).toBe(400);
    expect((await label(stranger, board.id, 'mine')).statusCode).toBe(404);
    expect(await snapshot(t)).toEqual(before);
    expect((await label(user, board.id, `  ${'x'.repeat(64)}  `)).statusCode).toBe(200);
    expect((await t.inject(stranger, { method: 'GET', url: `/api/data/labels?boardId=${board.id}` })).statusCode).toBe(404);
  });

  it('sets a card’s labels with labelIds and removes a label no card wears any more in the same request', async () => {
    const user = await t.signUp();
    const { board, cards } = await seedBoard(t, user, { A: ['one', 'two'] });
    const [urgent, bug, later] = await Promise.all(
      ['urgent', 'bug', 'later'].map(async (n) => (await label(user, board.id, n)).json().label),
    );
    const one = await updateCard(t, user, cards.one!.id, { labelIds: [bug.id, urgent.id] });
    expect(one.card.labels).toEqual([urgent, bug].sort((a, b) => a.id - b.id));
    await updateCard(t, user, cards.two!.id, { labelIds: [urgent.id] });
    // one drops urgent (still on two) and bug (on no card any more): bug goes, urgent stays, later (never worn) stays.
    await updateCard(t, user, cards.one!.id, { labelIds: [] });
    expect((await list(user, board.id)).map((l) => l.name).sort()).toEqual(['later', 'urgent']);
    // A label on an archived card still counts as worn.
    await updateCard(t, user, cards.one!.id, { labelIds: [later.id] });
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.one!.id } });
    await updateCard(t, user, cards.two!.id, { labelIds: [] });
    expect((await list(user, board.id)).map((l) => l.name)).toEqual(['later']);
    // Removing the card for good drops its last label too.
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.one!.id, permanent: true } });
    expect(await list(user, board.id)).toEqual([]);
  });

  it('refuses labelIds of another board (400) and changes nothing', async () => {
    const user = await t.signUp();
    const { board, cards } = await seedBoard(t, user, { A: ['one'] });
    const other = await seedBoard(t, user, { A: [] });
    const mine = (await label(user, board.id, 'mine')).json().label;
    const theirs = (await label(user, other.board.id, 'theirs')).json().label;
    const before = await snapshot(t);
    const res = await t.inject(user, {
      method: 'PUT',
      url: '/api/data/card',
      payload: { cardID: cards.one!.id, labelIds: [mine.id, theirs.id] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('labelIds');
    expect(await snapshot(t)).toEqual(before);
  });
});
