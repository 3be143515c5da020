import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, it } from 'vitest';
import { cardNames, seedBoard, share } from '../../../test/factories.js';
import { eachDialect } from '../../../test/harness.js';
import { Viewer } from '../../../test/realtime-client.js';

const READ_TOOLS = ['get_board', 'get_card', 'list_boards', 'list_notifications', 'list_people', 'search_cards'];
const WRITE_TOOLS = [
  'add_comment',
  'archive_card',
  'assign',
  'claim_card',
  'create_area',
  'create_card',
  'mark_notifications_read',
  'move_card',
  'set_labels',
  'update_card',
];

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };

eachDialect('MCP server', (t) => {
  const open: Client[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  async function connect(key: string, header: 'bearer' | 'x-api-key' = 'bearer'): Promise<Client> {
    const base = await t.listen();
    const headers: Record<string, string> = header === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
    const client = new Client({ name: 'tavla-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
    open.push(client);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Result;
  const ok = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
    const result = await call(client, name, args);
    if (result.isError) throw new Error(`${name}: ${result.content[0]?.text}`);
    return result.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  it('lists every tool for a full key and only the read tools for a read-only key', async () => {
    const ada = await t.signUp('Ada');
    const full = await connect(ada.key);
    expect((await full.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    const readOnly = await connect(await t.createKey(ada, true), 'x-api-key');
    expect((await readOnly.listTools()).tools.map((tool) => tool.name).sort()).toEqual(READ_TOOLS);
    const tools = (await full.listTools()).tools;
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
  });

  it('lists the people a mention can name, and add_comment and update_card notify whom they mention', async () => {
    const ada = await t.signUp('Ada');
    const bob = await t.signUp('Bob');
    const bea = await t.signUp('Béatrice');
    const outsider = await t.signUp('Bernd');
    const { board, areas } = await seedBoard(t, ada, { Todo: ['Plan'] });
    await share(t, board.id, bob, 'read');
    await share(t, board.id, bea, 'edit');
    const agent = await connect(ada.key);
    const { people } = await ok(agent, 'list_people', { boardId: board.id, q: 'be' });
    expect(people).toEqual([{ id: bea.id, name: 'Béatrice', image: null }]);
    expect((await ok(agent, 'list_people', { boardId: board.id })).people.map((p: { name: string }) => p.name)).toEqual([
      'Ada',
      'Béatrice',
      'Bob',
    ]);
    const cardId = (await t.inject(ada, { method: 'GET', url: `/api/data/cards?areaId=${areas.Todo!.id}` })).json().cards[0].id;
    const { comment } = await ok(agent, 'add_comment', {
      cardId,
      content: `@[Béatrice](${bea.id}) and @[Bernd](${outsider.id})`,
    });
    await ok(agent, 'update_card', { cardId, content: `for @[Bob](${bob.id})` });
    const mentions = await t.db
      .selectFrom('notifications')
      .select(['userId', 'params'])
      .where('type', '=', 'mention')
      .where('boardId', '=', board.id)
      .orderBy('id')
      .execute();
    expect(mentions.map((m) => [m.userId, JSON.parse(m.params!).commentId])).toEqual([
      [bea.id, comment.id],
      [bob.id, undefined],
    ]);
    const readOnly = await connect(await t.createKey(bob, true));
    expect((await ok(readOnly, 'list_people', { boardId: board.id, q: 'ad' })).people.map((p: { id: string }) => p.id)).toEqual([
      ada.id,
    ]);
    const refused = await call(await connect(outsider.key), 'list_people', { boardId: board.id });
    expect(refused.isError).toBe(true);
  });

  it('runs every tool against the real services, with the answers the API gives', async () => {
    const ada = await t.signUp('Ada');
    const bob = await t.signUp('Bob');
    const { board, areas } = await seedBoard(t, ada, { Todo: [], Done: [] });
    await share(t, board.id, bob, 'edit');
    const agent = await connect(ada.key);

    const boards = await ok(agent, 'list_boards');
    expect(boards.owned.map((b: { id: number }) => b.id)).toEqual([board.id]);

    const { area } = await ok(agent, 'create_area', { boardId: board.id, name: 'Later' });
    expect(area.name).toBe('Later');
    const { card } = await ok(agent, 'create_card', { areaId: areas.Todo!.id, name: 'Write the report', content: '- [ ] draft' });
    const updated = await ok(agent, 'update_card', { cardId: card.id, done: true, name: 'Write the final report' });
    expect(updated.card).toMatchObject({ name: 'Write the final report', status: 1 });

    const labelled = await ok(agent, 'set_labels', { cardId: card.id, labels: ['urgent', 'Q4'] });
    expect(labelled.card.labels.map((l: { name: string }) => l.name).sort()).toEqual(['Q4', 'urgent']);
    const assigned = await ok(agent, 'assign', { cardId: card.id, userIds: [bob.id] });
    expect(assigned.card.assignees.map((p: { id: string }) => p.id)).toEqual([bob.id]);

    const { comment } = await ok(agent, 'add_comment', { cardId: card.id, content: 'Looks **good**' });
    expect(comment.html).toContain('<strong>good</strong>');

    const moved = await ok(agent, 'move_card', { cardId: card.id, toAreaId: areas.Done!.id });
    expect(moved.card.area).toBe(areas.Done!.id);
    expect(await cardNames(t, ada, areas.Done!.id as number)).toEqual(['Write the final report']);

    const whole = await ok(agent, 'get_board', { boardId: board.id });
    expect(whole.areas.map((a: { name: string }) => a.name)).toEqual(['Todo', 'Done', 'Later']);
    expect(whole.areas[1].cards.map((c: { name: string }) => c.name)).toEqual(['Write the final report']);
    expect(whole.members.map((m: { id: string }) => m.id).sort()).toEqual([ada.id, bob.id].sort());
    expect(whole.labels).toHaveLength(2);

    const found = await ok(agent, 'search_cards', { query: 'final rep' });
    expect(found.cards.map((c: { id: number }) => c.id)).toEqual([card.id]);
    const detail = await ok(agent, 'get_card', { cardId: card.id });
    expect(detail.comments).toHaveLength(1);
    expect(detail.activity.map((a: { type: string }) => a.type)).toContain('moved');

    const { card: open } = await ok(agent, 'create_card', { areaId: areas.Todo!.id, name: 'Free task' });
    const claimed = await ok(agent, 'claim_card', { cardId: open.id });
    expect(claimed.card.assignees.map((p: { id: string }) => p.id)).toEqual([ada.id]);
    const taken = await call(await connect(bob.key), 'claim_card', { cardId: open.id });
    expect(taken.isError).toBe(true);
    expect(taken.content[0]?.text).toBe('The card is already assigned');

    const archived = await ok(agent, 'archive_card', { cardId: open.id });
    expect(archived.message).toEqual(expect.any(String));
    expect(await cardNames(t, ada, areas.Todo!.id as number)).toEqual([]);

    // Bob was assigned: he has a notification; he reads and marks it through his own agent.
    const bobAgent = await connect(bob.key);
    const inbox = await ok(bobAgent, 'list_notifications', { limit: 10 });
    expect(inbox.unreadCount).toBeGreaterThan(0);
    await ok(bobAgent, 'mark_notifications_read', { cardId: card.id });
    const after = await ok(bobAgent, 'list_notifications', { limit: 10 });
    expect(after.notifications.filter((n: { cardId: number; isRead: boolean }) => n.cardId === card.id && !n.isRead)).toEqual([]);
  });

  it('create_card and update_card take custom field values as the API does; get_board lists the fields; moves say overLimit', async () => {
    const ada = await t.signUp('Ada');
    const { board, areas } = await seedBoard(t, ada, { Todo: [], Doing: [] });
    const field = async (payload: Record<string, unknown>) =>
      (await t.inject(ada, { method: 'POST', url: '/api/data/field', payload: { boardId: board.id, ...payload } })).json().field;
    const priority = await field({ name: 'Priority', type: 'select', options: ['Low', 'High'] });
    const points = await field({ name: 'Points', type: 'number' });
    const agent = await connect(ada.key);

    const created = await ok(agent, 'create_card', { areaId: areas.Todo!.id, name: 'Plan', fields: { [priority.id]: 'high' } });
    expect(created.card.fields).toEqual({ [priority.id]: 'High' });
    const cardId = created.card.id as number;
    const updated = await ok(agent, 'update_card', { cardId, fields: { [priority.id]: null, [points.id]: 3 } });
    expect(updated.card.fields).toEqual({ [points.id]: 3 });
    const http = await t.inject(ada, { method: 'GET', url: `/api/data/card?cardID=${cardId}` });
    expect(http.json().card.fields).toEqual({ [points.id]: 3 });

    // A value that does not fit is refused in the API's words, and changes nothing.
    const bad = await call(agent, 'update_card', { cardId, fields: { [points.id]: 'three' } });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toContain('Points');
    const badCreate = await call(agent, 'create_card', {
      areaId: areas.Todo!.id,
      name: 'X',
      fields: { [priority.id]: 'Urgent' },
    });
    expect(badCreate.isError).toBe(true);
    expect(await cardNames(t, ada, areas.Todo!.id as number)).toEqual(['Plan']);
    expect((await t.inject(ada, { method: 'GET', url: `/api/data/card?cardID=${cardId}` })).json().card.fields).toEqual({
      [points.id]: 3,
    });

    const whole = await ok(agent, 'get_board', { boardId: board.id });
    expect(whole.fields.map((f: { id: number; name: string }) => [f.id, f.name])).toEqual([
      [priority.id, 'Priority'],
      [points.id, 'Points'],
    ]);

    // Into a full area: the answer says so, as the API's does.
    await t.inject(ada, { method: 'PATCH', url: '/api/data/area', payload: { id: areas.Doing!.id, wipLimit: 1 } });
    expect((await ok(agent, 'create_card', { areaId: areas.Doing!.id, name: 'First' })).overLimit).toBeUndefined();
    const moved = await ok(agent, 'move_card', { cardId, toAreaId: areas.Doing!.id });
    expect(moved).toEqual({ card: expect.objectContaining({ id: cardId, area: areas.Doing!.id }), overLimit: true });
    const another = await ok(agent, 'create_card', { areaId: areas.Doing!.id, name: 'Third' });
    expect(another.overLimit).toBe(true);
  });

  it('answers refusals as tool errors in the same words as the HTTP API', async () => {
    const ada = await t.signUp('Ada');
    const stranger = await t.signUp('Stranger');
    const { cards } = await seedBoard(t, stranger, { Todo: ['Secret'] });
    const agent = await connect(ada.key);
    const http = await t.inject(ada, { method: 'GET', url: `/api/data/card?cardID=${cards.Secret!.id}` });
    const viaMcp = await call(agent, 'get_card', { cardId: cards.Secret!.id });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.content[0]?.text).toBe(http.json().error);

    const bad = await call(agent, 'create_card', { areaId: 'x', name: 'n' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/areaId/);
  });

  it('a read-only key cannot run a write tool, and nothing changes', async () => {
    const ada = await t.signUp('Ada');
    const { areas } = await seedBoard(t, ada, { Todo: [] });
    const readOnly = await connect(await t.createKey(ada, true));
    const refused = await call(readOnly, 'create_card', { areaId: areas.Todo!.id, name: 'Nope' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toBe('This API key is read-only');
    expect(await cardNames(t, ada, areas.Todo!.id as number)).toEqual([]);
  });

  it('a move through MCP reaches a realtime viewer', async () => {
    const ada = await t.signUp('Ada');
    const { board, areas, cards } = await seedBoard(t, ada, { Todo: ['Ship'], Done: [] });
    const viewer = await Viewer.connect(await t.listen(), { 'x-api-key': ada.key });
    try {
      viewer.send({ type: 'subscribe', boardId: board.id });
      await viewer.next('subscribed');
      await ok(await connect(ada.key), 'move_card', { cardId: cards.Ship!.id, toAreaId: areas.Done!.id, position: 0 });
      const event = await viewer.next('event', (m) => m.name === 'card.moved');
      expect(event.boardId).toBe(board.id);
    } finally {
      viewer.socket.close();
    }
  });

  it('an idempotent retry creates the card once', async () => {
    const ada = await t.signUp('Ada');
    const { areas } = await seedBoard(t, ada, { Todo: [] });
    const agent = await connect(ada.key);
    const args = { areaId: areas.Todo!.id, name: 'Once only', idempotencyKey: 'agent-run-42' };
    const first = await ok(agent, 'create_card', args);
    const retry = await ok(agent, 'create_card', args);
    expect(retry.card.id).toBe(first.card.id);
    expect(await cardNames(t, ada, areas.Todo!.id as number)).toEqual(['Once only']);
  });

  it('refuses requests without a valid key (401), with a session cookie only (401), or from a foreign origin (403)', async () => {
    const ada = await t.signUp('Ada');
    const base = await t.listen();
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
    const none = await post({});
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: string }).error).toMatch(/API key is required/);
    expect((await post({ authorization: 'Bearer tvk_wrong' })).status).toBe(401);
    expect((await post({ cookie: ada.cookie })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${ada.key}`, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ authorization: `Bearer ${ada.key}` })).status).toBe(200);
  });
});
