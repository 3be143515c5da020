import { afterEach, expect, it } from 'vitest';
import { createArea, createCard, seedBoard } from '../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../test/harness.js';
import { Viewer } from '../../../test/realtime-client.js';
import type { BoardEvent } from '../../shared/events.js';

eachDialect(
  'realtime',
  (t) => {
    const open: Viewer[] = [];
    afterEach(() => {
      for (const v of open.splice(0)) v.close();
    });
    const connect = async (headers: Record<string, string>, options = {}) => {
      const viewer = await Viewer.connect(await t.listen(), headers, options);
      open.push(viewer);
      return viewer;
    };
    const watch = async (user: TestUser, boardId: number, since?: number) => {
      const viewer = await connect({ cookie: user.cookie });
      viewer.send({ type: 'subscribe', boardId, ...(since === undefined ? {} : { since }) });
      const subscribed = await viewer.next('subscribed', (m) => m.boardId === boardId);
      return { viewer, version: subscribed.version };
    };
    const share = (owner: TestUser, boardId: number, user: TestUser, permission: string) =>
      t.inject(owner, { method: 'POST', url: '/api/data/invite', payload: { boardId, userId: user.id, permission } });

    it('shows a viewer every change another account makes through the API, with consecutive versions', async () => {
      const owner = await t.signUp('Owner');
      const scripter = await t.signUp('Script');
      const { board, areas } = await seedBoard(t, owner, { Todo: [], Done: [] });
      await share(owner, board.id, scripter, 'edit');
      const { viewer, version } = await watch(owner, board.id);

      const key = { key: scripter.key };
      const card = (
        await t.inject(key, { method: 'POST', url: '/api/data/card', payload: { areaId: areas.Todo!.id, name: 'From a script' } })
      ).json().card;
      await t.inject(key, {
        method: 'POST',
        url: '/api/data/cardMove',
        payload: { cardId: card.id, fromAreaId: areas.Todo!.id, toAreaId: areas.Done!.id, newIndex: 0 },
      });
      await t.inject(key, { method: 'PUT', url: '/api/data/card', payload: { cardID: card.id, name: 'Renamed' } });
      await t.inject(key, { method: 'DELETE', url: '/api/data/card', payload: { cardID: card.id } });

      const events: BoardEvent[] = [];
      for (let i = 0; i < 4; i++) events.push(await viewer.next('event'));
      expect(events.map((e) => e.name)).toEqual(['card.created', 'card.moved', 'card.updated', 'card.archived']);
      expect(events.map((e) => e.version)).toEqual([version + 1, version + 2, version + 3, version + 4]);
      expect(events.every((e) => e.boardId === board.id && e.actor?.id === scripter.id && e.actor.name === 'Script')).toBe(true);
      expect(events[0]!.data).toMatchObject({ card: { id: card.id, name: 'From a script', area: areas.Todo!.id, sort: 0 } });
      expect(events[1]!.data).toEqual({ cardId: card.id, fromAreaId: areas.Todo!.id, toAreaId: areas.Done!.id, newIndex: 0 });
      expect(events[2]!.data).toMatchObject({ card: { name: 'Renamed' } });
      expect(events[3]!.data).toEqual({ cardId: card.id, areaId: areas.Done!.id });
    });

    it('answers a viewer without access with an error and sends nothing from that board', async () => {
      const owner = await t.signUp();
      const stranger = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const viewer = await connect({ 'x-api-key': stranger.key });
      viewer.send({ type: 'subscribe', boardId: board.id });
      expect(await viewer.next('error')).toEqual({ type: 'error', boardId: board.id, error: expect.any(String) });
      viewer.send({ type: 'subscribe', boardId: 999999 });
      expect((await viewer.next('error')).boardId).toBe(999999);
      await createCard(t, owner, areas.A!.id, 'secret');
      expect(await viewer.quiet('event')).toEqual([]);
    });

    it('sends revoked when a member is removed, and nothing from the board after', async () => {
      const owner = await t.signUp();
      const member = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      await share(owner, board.id, member, 'read');
      const { viewer } = await watch(member, board.id);
      await createCard(t, owner, areas.A!.id, 'seen');
      expect((await viewer.next('event')).name).toBe('card.created');
      await t.inject(owner, { method: 'DELETE', url: `/api/data/invite?boardId=${board.id}&userId=${member.id}` });
      expect(await viewer.next('revoked')).toEqual({ type: 'revoked', boardId: board.id });
      viewer.messages.length = 0;
      await createCard(t, owner, areas.A!.id, 'unseen');
      expect(await viewer.quiet('event')).toEqual([]);
      // Making a public board private cuts off the readers who were there only because it was public.
      const open = await seedBoard(t, owner, { A: [] }, { status: 'public' });
      const reader = await watch(member, open.board.id);
      await t.inject(owner, {
        method: 'POST',
        url: '/api/data/board',
        payload: { id: open.board.id, userId: owner.id, name: 'Closed', style: 'kanban', status: 'private' },
      });
      await reader.viewer.next('revoked', (m) => m.boardId === open.board.id);
    });

    it('replays exactly the missed events with since, and asks for a resync when they are gone', async () => {
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const first = await watch(owner, board.id);
      first.viewer.close();
      const names = ['one', 'two', 'three'];
      for (const name of names) await createCard(t, owner, areas.A!.id, name);

      const { viewer, version } = await watch(owner, board.id, first.version);
      expect(version).toBe(first.version + 3);
      const replayed = [await viewer.next('event'), await viewer.next('event'), await viewer.next('event')];
      expect(replayed.map((e) => e.version)).toEqual([first.version + 1, first.version + 2, first.version + 3]);
      expect(replayed.map((e) => (e.data as { card: { name: string } }).card.name)).toEqual(names);
      expect(await viewer.quiet('event', 200)).toEqual([]);

      // Up to date: nothing to replay.
      const current = await watch(owner, board.id, version);
      expect(await current.viewer.quiet('event', 200)).toEqual([]);

      // Once the log no longer holds the missed versions, the viewer must reload.
      await t.db
        .deleteFrom('board_events')
        .where('boardId', '=', board.id)
        .where('version', '<=', first.version + 1)
        .execute();
      const late = await watch(owner, board.id, first.version);
      await late.viewer.next('resync');
      expect(late.viewer.messages.filter((m) => m.type === 'event')).toEqual([]);
    });

    it('refuses the upgrade without credentials or from a foreign origin', async () => {
      const user = await t.signUp();
      await expect(connect({})).rejects.toThrow('HTTP 403');
      await expect(connect({ 'x-api-key': 'tvk_nope' })).rejects.toThrow('HTTP 403');
      await expect(connect({ cookie: user.cookie }, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
      const ok = await connect({ cookie: user.cookie }, { origin: 'http://localhost:3000' });
      expect(ok.closed).toBeNull();
    });

    it('answers bad frames with an error and stays up; closes on oversized frames and floods without disturbing others', async () => {
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const bystander = await watch(owner, board.id);
      const viewer = await connect({ 'x-api-key': owner.key });
      for (const frame of [
        'not json',
        '{"type":"dance","boardId":1}',
        '{"type":"subscribe","boardId":"1"}',
        '[1,2]',
        '{"type":"subscribe","boardId":1,"since":-1}',
      ]) {
        viewer.send(frame);
        expect((await viewer.next('error')).error).toMatch(/malformed|unknown/i);
      }
      viewer.send({ type: 'subscribe', boardId: board.id });
      await viewer.next('subscribed');

      viewer.send('x'.repeat(64 * 1024));
      expect((await viewer.waitClosed()).code).toBe(1009);

      const flooder = await connect({ 'x-api-key': owner.key });
      for (let i = 0; i < 200; i++) flooder.send({ type: 'unsubscribe', boardId: 1 });
      expect((await flooder.waitClosed()).code).toBe(1008);

      await createCard(t, owner, areas.A!.id, 'still here');
      expect((await bystander.viewer.next('event')).name).toBe('card.created');
    });

    it('tells an account about its dashboard boards without subscribing', async () => {
      const owner = await t.signUp();
      const friend = await t.signUp();
      const account = await connect({ cookie: friend.cookie });
      const { board } = await seedBoard(t, owner, { A: [] });
      await share(owner, board.id, friend, 'read');
      expect(await account.next('dashboard', (m) => m.name === 'member.added')).toMatchObject({
        boardId: board.id,
        data: { member: { id: friend.id } },
      });
      await t.inject(owner, {
        method: 'POST',
        url: '/api/data/board',
        payload: { id: board.id, userId: owner.id, name: 'Renamed', style: 'kanban', status: 'private' },
      });
      expect(await account.next('dashboard', (m) => m.name === 'board.updated')).toMatchObject({
        data: { board: { name: 'Renamed' } },
      });
      await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
      await account.next('dashboard', (m) => m.name === 'board.archived');
      await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}&permanent=true` });
      await account.next('dashboard', (m) => m.name === 'board.deleted');
    });

    it('shows who is on the board and which card they have open, and forgets a viewer who leaves', async () => {
      const owner = await t.signUp('Ada');
      const member = await t.signUp('Bo');
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      await share(owner, board.id, member, 'edit');
      const card = await createArea(t, owner, board.id, 'B').then(() => createCard(t, owner, areas.A!.id, 'c'));
      const ada = await watch(owner, board.id);
      const bo = await watch(member, board.id);
      const both = await ada.viewer.nextPresence((m) => m.viewers.length === 2, 5000);
      expect(both.viewers.map((v) => v.name).sort()).toEqual(['Ada', 'Bo']);
      bo.viewer.send({ type: 'presence', boardId: board.id, cardId: card.id });
      await ada.viewer.nextPresence((m) => m.viewers.some((v) => v.id === member.id && v.cardId === card.id), 5000);
      bo.viewer.close();
      const alone = await ada.viewer.nextPresence((m) => m.viewers.length === 1, 5000);
      expect(alone.viewers[0]!.id).toBe(owner.id);
    });

    it('drops a connection that stops answering pings', async () => {
      const user = await t.signUp();
      const silent = await connect({ 'x-api-key': user.key }, { autoPong: false });
      await silent.waitClosed(2000);
    });
  },
  { heartbeatMs: 200 },
);
