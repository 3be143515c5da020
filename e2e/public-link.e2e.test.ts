import { beforeAll, expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E } from './use-e2e.js';

describeE2E('a public read-only link', (e2e) => {
  let ada: ApiUser;
  let boardId: number;
  let todo: number;
  let done: number;
  let cardId: number;

  beforeAll(async () => {
    ada = await e2e.seed.user('Ada Lovelace');
    const bob = await e2e.seed.user('Bob Builder');
    boardId = (await e2e.seed.board(ada, 'Open roadmap', { color: '#2f6f4e' })).id;
    await e2e.seed.invite(ada, boardId, bob, 'edit');
    todo = (await e2e.seed.area(ada, boardId, 'Planned')).id;
    done = (await e2e.seed.area(ada, boardId, 'Shipped')).id;
    const content = 'Follow the system setting.\n\n- [x] colours\n- [ ] icons';
    cardId = (await e2e.seed.card(ada, todo, 'Dark mode', { content, assignees: [bob.id] })).id;
    await e2e.seed.card(ada, done, 'Keyboard moves');
  });

  test('the owner makes a link; a visitor without an account sees the board live; revoking closes it', async () => {
    const problems: string[] = [];
    const owner = await e2e.newPage({ as: ada });
    await owner.page.goto(`/board/${boardId}`);
    await owner.page.locator('[data-card-id]').first().waitFor();
    await owner.page.getByRole('button', { name: 'Share' }).click();
    const dialog = owner.page.getByRole('dialog', { name: 'Share “Open roadmap”' });
    await dialog.getByText('Anyone with the link can see this board').waitFor();
    await dialog.getByRole('button', { name: 'Create public link' }).click();
    const address = dialog.getByLabel('Public link address');
    const url = await address.inputValue();
    expect(url).toMatch(/\/p\/[0-9a-f]{64}$/);
    await settle(owner.page);
    await screenshot(owner.page, 'public-link-share-light-1400');
    problems.push(...(await accessibilityProblems(owner.page, 'public-link-share')));

    // A fresh browser context: no cookie, no account.
    const visitor = await e2e.newPage();
    const sockets: string[] = [];
    visitor.page.on('websocket', (socket) => sockets.push(socket.url()));
    await visitor.page.goto(new URL(url).pathname);
    await visitor.page.getByRole('heading', { name: 'Open roadmap' }).waitFor();
    await visitor.page.getByText('Public read-only view').waitFor();
    const inArea = (areaId: number) => visitor.page.locator(`[data-area-id="${areaId}"] [data-card-id]`);
    await expect.poll(() => inArea(todo).allTextContents()).toEqual([expect.stringContaining('Dark mode')]);
    expect(await visitor.page.content()).not.toContain('Bob Builder');
    expect(await visitor.page.content()).not.toContain('@example.test');
    // Nothing to change: no add buttons, no menus, tiles not draggable.
    expect(await visitor.page.locator('.area-add, .area-new, [aria-haspopup], .todo-check:not([disabled])').count()).toBe(0);
    await inArea(todo).first().click();
    await visitor.page.getByRole('dialog', { name: 'Dark mode' }).getByText('Follow the system setting.').waitFor();
    await visitor.page.keyboard.press('Escape');

    // Ada moves and renames the card: the visitor sees both live, well before the fallback poll (10 s) would.
    expect(sockets.length).toBeGreaterThan(0);
    for (const socket of sockets) expect(socket).toMatch(/\/api\/public\/[0-9a-f]{64}\/realtime$/);
    await ada.call('POST', '/api/data/cardMove', { cardId, fromAreaId: todo, toAreaId: done, newIndex: 0 });
    await expect.poll(() => inArea(done).count(), { timeout: 3_000 }).toBe(2);
    expect(await inArea(todo).count()).toBe(0);
    await ada.call('PUT', '/api/data/card', { cardID: cardId, name: 'Dark mode, shipped' });
    await expect.poll(() => inArea(done).first().textContent(), { timeout: 3_000 }).toContain('Dark mode, shipped');

    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1400, 390]) {
        const look = await e2e.newPage({ width, height: width === 390 ? 844 : 900, colorScheme: scheme });
        await look.page.goto(new URL(url).pathname);
        await look.page.locator('[data-card-id]').first().waitFor();
        await settle(look.page);
        await screenshot(look.page, `public-board-${scheme}-${width}`);
        problems.push(...(await accessibilityProblems(look.page, `public-board-${scheme}-${width}`)));
        await look.context.close();
      }
    }

    // Revoked in the dialog: the open view says at once (its socket closes) that the link no longer works.
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await dialog.getByRole('button', { name: 'Create public link' }).waitFor();
    await visitor.page.getByRole('heading', { name: 'This link no longer works' }).waitFor({ timeout: 3_000 });
    expect(await visitor.page.locator('[data-card-id]').count()).toBe(0);
    problems.push(...(await accessibilityProblems(visitor.page, 'public-board-gone')));

    await visitor.context.close();
    await owner.context.close();
    expect(problems).toEqual([]);
  }, 180_000);
});
