import { describe, expect, it } from 'vitest';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { createCard, seedBoard, updateCard } from '../../../../test/factories.js';
import { redactUrl } from '../../http/log-redaction.js';

let addresses = 0;
/** Each test looks from an address of its own, so the per-address limit of one never touches another. */
const nextAddress = () => `10.0.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

function publicLinks(t: TestContext) {
  const create = (user: TestUser, boardId: number) =>
    t.inject(user, { method: 'POST', url: '/api/data/public-link', payload: { boardId } });
  const read = (user: TestUser, boardId: number) =>
    t.inject(user, { method: 'GET', url: `/api/data/public-link?boardId=${boardId}` });
  const revoke = (user: TestUser, boardId: number) =>
    t.inject(user, { method: 'DELETE', url: `/api/data/public-link?boardId=${boardId}` });
  const look = (token: string, remoteAddress = nextAddress(), suffix = '') =>
    t.inject(null, { method: 'GET', url: `/api/public/${token}${suffix}`, remoteAddress });
  const tokenOf = (url: string) => url.split('/p/')[1]!;
  const rows = () => t.db.selectFrom('public_links').selectAll().orderBy('boardId').execute();
  return { create, read, revoke, look, tokenOf, rows };
}

eachDialect(
  'public read-only links',
  (t) => {
    const { create, read, revoke, look, tokenOf, rows } = publicLinks(t);

    it('lets the owner make a link shown once, read whether it exists, replace it and revoke it', async () => {
      const owner = await t.signUp();
      const board = await t.createBoard(owner);
      expect((await read(owner, board.id)).json()).toEqual({ link: null });

      const made = await create(owner, board.id);
      expect(made.statusCode).toBe(200);
      const { url, createdAt } = made.json<{ link: { url: string; createdAt: string } }>().link;
      expect(url).toMatch(/^http:\/\/localhost:3000\/p\/[0-9a-f]{64}$/);
      const stored = await rows();
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(tokenOf(url));
      expect((await read(owner, board.id)).json()).toEqual({ link: { createdAt } });
      expect((await look(tokenOf(url))).statusCode).toBe(200);

      // A second link replaces the first, which stops working.
      const again = (await create(owner, board.id)).json<{ link: { url: string } }>().link.url;
      expect(await rows()).toHaveLength(1);
      expect((await look(tokenOf(url))).statusCode).toBe(404);
      expect((await look(tokenOf(again))).statusCode).toBe(200);

      expect((await revoke(owner, board.id)).json()).toEqual({ link: null });
      expect(await rows()).toHaveLength(0);
      expect((await read(owner, board.id)).json()).toEqual({ link: null });
    });

    it('refuses everyone but the owner, changing nothing: members 403, others and anonymous 403/404', async () => {
      const owner = await t.signUp();
      const editor = await t.signUp();
      const stranger = await t.signUp();
      const board = await t.createBoard(owner);
      const invited = await t.inject(owner, {
        method: 'POST',
        url: '/api/data/invite',
        payload: { boardId: board.id, userId: editor.id, permission: 'edit' },
      });
      expect(invited.statusCode).toBe(200);
      const url = (await create(owner, board.id)).json<{ link: { url: string } }>().link.url;
      const before = await rows();

      for (const attempt of [create, read, revoke]) {
        expect((await attempt(editor, board.id)).statusCode).toBe(403);
        expect((await attempt(stranger, board.id)).statusCode).toBe(404);
      }
      expect(
        (await t.inject(null, { method: 'POST', url: '/api/data/public-link', payload: { boardId: board.id } })).statusCode,
      ).toBe(403);
      expect((await t.inject(null, { method: 'DELETE', url: `/api/data/public-link?boardId=${board.id}` })).statusCode).toBe(403);
      expect(await rows()).toEqual(before);
      expect((await look(tokenOf(url))).statusCode).toBe(200);
    });

    it('shows areas and cards with text, labels, dates and checklists, and nobody’s name or address', async () => {
      const owner = await t.signUp('Olga Owner');
      const member = await t.signUp('Mia Member');
      const { board, areas, cards } = await seedBoard(t, owner, { Todo: ['Write'], Done: [] }, { color: '#336699' });
      await t.inject(owner, {
        method: 'POST',
        url: '/api/data/invite',
        payload: { boardId: board.id, userId: member.id, permission: 'edit' },
      });
      const label = (
        await t.inject(owner, { method: 'POST', url: '/api/data/labels', payload: { boardId: board.id, name: 'urgent' } })
      ).json<{ label: { id: number } }>().label;
      await updateCard(t, owner, cards.Write!.id as number, {
        content: 'Ask around\n\n- [x] one\n- [ ] two',
        dueDate: '2030-01-02T03:04:05.000Z',
        labelIds: [label.id],
        assignees: [member.id, owner.id],
      });
      await t.inject(member, {
        method: 'POST',
        url: '/api/data/comment',
        payload: { cardId: cards.Write!.id, content: 'a private remark' },
      });
      const url = (await create(owner, board.id)).json<{ link: { url: string } }>().link.url;

      const res = await look(tokenOf(url));
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const view = res.json<Record<string, any>>(); // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(view.board).toEqual({ name: 'Board', style: 'kanban', color: '#336699', image: null });
      expect(view.areas.map((a: { name: string }) => a.name)).toEqual(['Todo', 'Done']);
      expect(view.areas[0].id).toBe(areas.Todo!.id);
      const [card] = view.areas[0].cards;
      expect(card).toMatchObject({
        name: 'Write',
        status: 0,
        dueDate: '2030-01-02T03:04:05.000Z',
        labels: [{ id: label.id, name: 'urgent' }],
        checklist: { done: 1, total: 2 },
      });
      expect(card.html).toContain('<input');
      // Nobody's account shows: no address, id or name of either account.
      const body = res.body;
      for (const person of [owner, member]) {
        expect(body).not.toContain(person.email.split('@')[1]);
        expect(body).not.toContain(person.id);
        expect(body).not.toContain(person.name);
      }
      expect(body).not.toContain('@');
      expect(body).not.toContain('private remark');
      expect(Object.keys(card).sort()).toEqual(['checklist', 'dueDate', 'fields', 'html', 'id', 'labels', 'name', 'status']);
    });

    it('answers unknown, revoked and archived-board links with the same 404; the version endpoint likewise', async () => {
      const owner = await t.signUp();
      const board = await t.createBoard(owner);
      const unknown = await look('0'.repeat(64));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.headers['cache-control']).toBe('no-store');

      const revoked = tokenOf((await create(owner, board.id)).json<{ link: { url: string } }>().link.url);
      await revoke(owner, board.id);
      expect((await look(revoked)).body).toBe(unknown.body);
      expect((await look(revoked, nextAddress(), '/version')).body).toBe(unknown.body);

      const live = tokenOf((await create(owner, board.id)).json<{ link: { url: string } }>().link.url);
      expect((await look(live, nextAddress(), '/version')).json()).toEqual({ version: expect.any(Number) });
      const archived = await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
      expect(archived.statusCode).toBe(200);
      expect((await look(live)).body).toBe(unknown.body);
      expect((await look(live, nextAddress(), '/version')).body).toBe(unknown.body);
      // No new link for an archived board either.
      const refused = await create(owner, board.id);
      expect(refused.statusCode).toBe(409);

      expect((await look('not-a-token')).statusCode).toBe(400);
    });

    it('goes with the board when it is removed for good, and works again when an archived board is restored', async () => {
      const owner = await t.signUp();
      const kept = await t.createBoard(owner);
      const token = tokenOf((await create(owner, kept.id)).json<{ link: { url: string } }>().link.url);
      await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${kept.id}&userId=${owner.id}` });
      expect((await look(token)).statusCode).toBe(404);
      const restored = await t.inject(owner, {
        method: 'POST',
        url: '/api/data/archive',
        payload: { type: 'board', id: kept.id },
      });
      expect(restored.statusCode).toBe(200);
      expect((await look(token)).statusCode).toBe(200);

      const removed = await t.createBoard(owner);
      const gone = tokenOf((await create(owner, removed.id)).json<{ link: { url: string } }>().link.url);
      const res = await t.inject(owner, {
        method: 'DELETE',
        url: `/api/data/board?id=${removed.id}&userId=${owner.id}&permanent=true`,
      });
      expect(res.statusCode).toBe(200);
      expect(await t.db.selectFrom('public_links').selectAll().where('boardId', '=', removed.id).execute()).toEqual([]);
      expect((await look(gone)).statusCode).toBe(404);
    });

    it('raises the version with every change, so a polling viewer sees a card move', async () => {
      const owner = await t.signUp();
      const { board, areas, cards } = await seedBoard(t, owner, { Todo: ['Move me'], Done: [] });
      const token = tokenOf((await create(owner, board.id)).json<{ link: { url: string } }>().link.url);
      const before = (await look(token, nextAddress(), '/version')).json<{ version: number }>().version;
      const moved = await t.inject(owner, {
        method: 'POST',
        url: '/api/data/cardMove',
        payload: { cardId: cards['Move me']!.id, fromAreaId: areas.Todo!.id, toAreaId: areas.Done!.id, newIndex: 0 },
      });
      expect(moved.statusCode).toBe(200);
      const after = (await look(token, nextAddress(), '/version')).json<{ version: number }>().version;
      expect(after).toBeGreaterThan(before);
      const view = (await look(token)).json<{ areas: Array<{ cards: Array<{ name: string }> }> }>();
      expect(view.areas.map((a) => a.cards.map((c) => c.name))).toEqual([[], ['Move me']]);
      await createCard(t, owner, areas.Todo!.id as number, 'New');
      expect((await look(token, nextAddress(), '/version')).json<{ version: number }>().version).toBeGreaterThan(after);
    });

    it('keeps the address nowhere, not even for an Idempotency-Key: a repeat with the key is refused (409)', async () => {
      const owner = await t.signUp();
      const board = await t.createBoard(owner);
      const post = () =>
        t.inject(owner, {
          method: 'POST',
          url: '/api/data/public-link',
          payload: { boardId: board.id },
          headers: { 'idempotency-key': 'make-public-link' },
        });
      const first = tokenOf((await post()).json<{ link: { url: string } }>().link.url);
      const again = await post();
      expect(again.statusCode).toBe(409);
      expect(again.body).not.toContain(first);
      const kept = JSON.stringify(await t.db.selectFrom('idempotency_keys').selectAll().execute());
      expect(kept).not.toContain(first);
      expect((await look(first)).statusCode).toBe(200);
    });

    it('is in the OpenAPI document, the public routes without a credential', async () => {
      const doc = (await t.inject(null, { method: 'GET', url: '/api/docs/json' })).json<{
        paths: Record<string, Record<string, { security?: unknown[] }>>;
      }>();
      expect(Object.keys(doc.paths['/api/data/public-link']!).sort()).toEqual(['delete', 'get', 'post']);
      expect(doc.paths['/api/public/{token}']!.get!.security).toEqual([]);
      expect(doc.paths['/api/public/{token}/version']!.get!.security).toEqual([]);
    });

    it('limits each address: 429 with Retry-After past the limit, other addresses unaffected', async () => {
      const owner = await t.signUp();
      const board = await t.createBoard(owner);
      const token = tokenOf((await create(owner, board.id)).json<{ link: { url: string } }>().link.url);
      const address = nextAddress();
      for (let i = 0; i < 5; i++) expect((await look(token, address, i % 2 ? '/version' : '')).statusCode).toBe(200);
      const refused = await look(token, address);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toEqual({ error: expect.any(String) });
      // Guessing tokens counts too.
      expect((await look('1'.repeat(64), address)).statusCode).toBe(429);
      expect((await look(token)).statusCode).toBe(200);
    });
  },
  { env: { PUBLIC_LINK_RATE_LIMIT: '5' } },
);

describe('public links outside the database', () => {
  it('keeps the token out of the request log', () => {
    const token = 'a'.repeat(64);
    expect(redactUrl(`/p/${token}`)).toBe('/p/[redacted]');
    expect(redactUrl(`/api/public/${token}`)).toBe('/api/public/[redacted]');
    expect(redactUrl(`/api/public/${token}/version`)).toBe('/api/public/[redacted]/version');
  });
});
