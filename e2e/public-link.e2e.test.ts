import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  accessibilityProblems,
  apiUser,
  browserTestsEnabled,
  cookieFor,
  launchBrowser,
  newPage,
  screenshot,
  settle,
  startServer,
  type ApiUser,
  type Server,
} from './support.js';

describe.runIf(browserTestsEnabled)('a public read-only link', () => {
  let server: Server;
  let browser: Browser;
  let ada: ApiUser;
  let boardId: number;
  let todo: number;
  let done: number;
  let cardId: number;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    ada = await apiUser(server, 'Ada Lovelace');
    const bob = await apiUser(server, 'Bob Builder');
    boardId = (
      await ada.call<{ board: { id: number } }>('POST', '/api/data/board', {
        userId: ada.id,
        name: 'Open roadmap',
        style: 'kanban',
        status: 'private',
        color: '#2f6f4e',
      })
    ).board.id;
    await ada.call('POST', '/api/data/invite', { boardId, userId: bob.id, permission: 'edit' });
    todo = (await ada.call<{ area: { id: number } }>('POST', '/api/data/area', { boardId, name: 'Planned' })).area.id;
    done = (await ada.call<{ area: { id: number } }>('POST', '/api/data/area', { boardId, name: 'Shipped' })).area.id;
    cardId = (await ada.call<{ card: { id: number } }>('POST', '/api/data/card', { areaId: todo, name: 'Dark mode' })).card.id;
    await ada.call('PUT', '/api/data/card', {
      cardID: cardId,
      content: 'Follow the system setting.\n\n- [x] colours\n- [ ] icons',
      assignees: [bob.id],
    });
    await ada.call('POST', '/api/data/card', { areaId: done, name: 'Keyboard moves' });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the owner makes a link; a visitor without an account sees the board live; revoking closes it', async () => {
    const problems: string[] = [];
    const owner = await newPage(browser, server.baseUrl);
    await owner.context.addCookies([cookieFor(ada, server.baseUrl)]);
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
    const visitor = await newPage(browser, server.baseUrl);
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
        const look = await newPage(browser, server.baseUrl, width, width === 390 ? 844 : 900, scheme);
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
