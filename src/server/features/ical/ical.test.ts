import ICAL from 'ical.js';
import { expect, it } from 'vitest';
import type { IcalFeed, IcalFeedCreated } from '../../../shared/api/ical.js';
import { seedBoard, updateCard } from '../../../../test/factories.js';
import { BASE_URL, eachDialect, type As, type TestUser } from '../../../../test/harness.js';
import { redactUrl } from '../../http/log-redaction.js';
import { escapeText, fold } from './ical-text.js';

interface ParsedEvent {
  uid: string;
  summary: string;
  description: string;
  start: string;
  url: string;
}

/** The feed read back by a real iCalendar parser. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events: ParsedEvent[] = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    expect(event.startDate.zone?.tzid, 'DTSTART in UTC').toBe('UTC');
    expect(vevent.getFirstPropertyValue('dtstamp')).toBeTruthy();
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description,
      start: event.startDate.toJSDate().toISOString(),
      url: String(vevent.getFirstPropertyValue('url')),
    };
  });
  return {
    version: calendar.getFirstPropertyValue('version'),
    prodId: String(calendar.getFirstPropertyValue('prodid')),
    calscale: calendar.getFirstPropertyValue('calscale'),
    events: events.sort((a, b) => a.summary.localeCompare(b.summary)),
  };
}

eachDialect('calendar feeds', (t) => {
  const create = (as: As, payload: object) => t.inject(as, { method: 'POST', url: '/api/data/ical-feeds', payload });
  const newFeed = async (user: TestUser, payload: object = { name: 'Phone' }) => {
    const res = await create(user, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<IcalFeedCreated>();
  };
  const list = async (user: TestUser) =>
    (await t.inject(user, { method: 'GET', url: '/api/data/ical-feeds' })).json<{ feeds: IcalFeed[] }>().feeds;
  const path = (url: string) => new URL(url).pathname;
  const fetchFeed = (url: string) => t.inject(null, { method: 'GET', url: path(url) });
  const read = async (url: string) => {
    const res = await fetchFeed(url);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const feedRows = () => t.db.selectFrom('ical_feeds').selectAll().orderBy('id').execute();

  it('serves my open dated cards as valid iCalendar that a real parser reads back', async () => {
    const me = await t.signUp('Me');
    const due = '2026-12-03T08:30:00.000Z';
    const tricky = 'Fix, this; now \\ please\nand then the next line, which is long enough to fold: Ünïcödé ✓ 🗓';
    const { board, cards } = await seedBoard(
      t,
      me,
      { 'To do': ['plain', 'tricky', 'undated', 'not mine', 'done'] },
      { name: 'Home; Garden' },
    );
    for (const name of ['plain', 'tricky', 'undated', 'done']) await updateCard(t, me, cards[name]!.id, { assignees: [me.id] });
    await updateCard(t, me, cards.plain!.id, { dueDate: due });
    await updateCard(t, me, cards.tricky!.id, { name: tricky, dueDate: '2026-12-04T23:15:00.000Z' });
    await updateCard(t, me, cards['not mine']!.id, { dueDate: due });
    await updateCard(t, me, cards.done!.id, { dueDate: due, status: 1 });

    const { url, feed } = await newFeed(me);
    expect(url).toMatch(new RegExp(`^${BASE_URL}/api/ical/[A-Za-z0-9_-]{43}\\.ics$`));
    const res = await read(url);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toContain('no-store');

    const text = res.body;
    expect(text.endsWith('\r\n')).toBe(true);
    for (const line of text.split('\r\n')) {
      expect(line).not.toMatch(/[\r\n]/);
      expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
    }
    const calendar = parse(text);
    expect(calendar.version).toBe('2.0');
    expect(calendar.prodId).toContain('Tavla');
    expect(calendar.calscale).toBe('GREGORIAN');
    const host = new URL(BASE_URL).host;
    const link = (id: number) => `${BASE_URL}/board/${board.id}?card=${id}`;
    expect(calendar.events).toEqual(
      [
        {
          uid: `card-${cards.tricky!.id}@${host}`,
          summary: tricky,
          description: `Home; Garden › To do\n${link(cards.tricky!.id)}`,
          start: '2026-12-04T23:15:00.000Z',
          url: link(cards.tricky!.id),
        },
        {
          uid: `card-${cards.plain!.id}@${host}`,
          summary: 'plain',
          description: `Home; Garden › To do\n${link(cards.plain!.id)}`,
          start: due,
          url: link(cards.plain!.id),
        },
      ].sort((a, b) => a.summary.localeCompare(b.summary)),
    );
    // The same card keeps its UID from one request to the next.
    expect(parse((await read(url)).body).events.map((e) => e.uid)).toEqual(calendar.events.map((e) => e.uid));

    // Listed without the secret; the database holds only its hash.
    const token = /\/api\/ical\/(.+)\.ics$/.exec(url)![1]!;
    const listed = await list(me);
    expect(listed).toEqual([{ ...feed, lastUsedAt: expect.any(String) }]);
    expect(JSON.stringify(listed)).not.toContain(token);
    const [row] = await feedRows();
    expect(Object.values(row!).map(String).join(' ')).not.toContain(token);
    expect(token.startsWith(feed.start)).toBe(true);
    expect(redactUrl(path(url))).toBe('/api/ical/[redacted]');
  });

  it('adds every open dated card of chosen boards while I can read them', async () => {
    const me = await t.signUp();
    const friend = await t.signUp();
    const team = await seedBoard(t, friend, { Plan: ['theirs', 'archived'] }, { name: 'Team' });
    await t.inject(friend, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: team.board.id, userId: me.id, permission: 'read' },
    });
    await updateCard(t, friend, team.cards.theirs!.id, { dueDate: '2026-12-10T10:00:00.000Z' });
    await updateCard(t, friend, team.cards.archived!.id, { dueDate: '2026-12-10T10:00:00.000Z' });
    await t.inject(friend, { method: 'DELETE', url: '/api/data/card', payload: { cardID: team.cards.archived!.id } });

    const withBoard = await newFeed(me, { name: 'Team', boardIds: [team.board.id, team.board.id] });
    expect(withBoard.feed.boardIds).toEqual([team.board.id]);
    const plain = await newFeed(me, { name: 'Mine only' });
    expect(parse((await read(withBoard.url)).body).events.map((e) => e.summary)).toEqual(['theirs']);
    expect(parse((await read(plain.url)).body).events).toEqual([]);

    // Access is checked on every request: once removed from the board, its cards leave the feed.
    await t.inject(friend, { method: 'DELETE', url: `/api/data/invite?boardId=${team.board.id}&userId=${me.id}` });
    expect(parse((await read(withBoard.url)).body).events).toEqual([]);

    // A board I cannot read is refused like a missing one, and no feed is made.
    const before = await feedRows();
    const refused = await create(me, { name: 'Sneaky', boardIds: [team.board.id] });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: 'Board not found' });
    expect(await feedRows()).toEqual(before);
  });

  it('a revoked or unknown address answers 404, and only the owner can revoke', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const { url, feed } = await newFeed(me);
    await read(url);

    const before = await feedRows();
    const foreign = await t.inject(other, { method: 'DELETE', url: `/api/data/ical-feeds?id=${feed.id}` });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'Feed not found' });
    expect(await feedRows()).toEqual(before);
    await read(url);

    const revoked = await t.inject(me, { method: 'DELETE', url: `/api/data/ical-feeds?id=${feed.id}` });
    expect(revoked.statusCode).toBe(200);
    const gone = await fetchFeed(url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'Feed not found' });
    expect(await list(me)).toEqual([]);

    for (const file of ['x'.repeat(43) + '.ics', 'nothing', '..%2F..%2Fpackage.json', `${'a'.repeat(43)}.ics.ics`]) {
      const res = await t.inject(null, { method: 'GET', url: `/api/ical/${file}` });
      expect(res.statusCode, file).toBe(404);
      expect(res.json(), file).toEqual({ error: 'Feed not found' });
    }
    expect((await t.inject(me, { method: 'DELETE', url: `/api/data/ical-feeds?id=${feed.id}` })).statusCode).toBe(404);
  });

  it('refuses bad input, read-only keys and strangers, changing nothing', async () => {
    const me = await t.signUp();
    const before = await feedRows();
    for (const payload of [{}, { name: '' }, { name: '   ' }, { name: 'x', boardIds: [0] }, { name: 'x', boardIds: 'all' }]) {
      const res = await create(me, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toHaveProperty('error');
    }
    expect((await create({ key: await t.createKey(me, true) }, { name: 'x' })).statusCode).toBe(403);
    expect((await create(null, { name: 'x' })).statusCode).toBe(403);
    expect((await t.inject(null, { method: 'GET', url: '/api/data/ical-feeds' })).statusCode).toBe(403);
    expect(await feedRows()).toEqual(before);
  });

  it('is in the OpenAPI document: the feed as text/calendar, its management under /api/data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    }>();
    expect(Object.keys(doc.paths['/api/data/ical-feeds'] ?? {}).sort()).toEqual(['delete', 'get', 'post']);
    const feed = doc.paths['/api/ical/{file}']?.get;
    expect(Object.keys(feed?.responses['200']?.content ?? {})).toEqual(['text/calendar']);
    expect(Object.keys(feed?.responses ?? {}).sort()).toEqual(['200', '404', '429']);
  });

  it('limits feeds per account and requests per feed', async () => {
    const me = await t.signUp();
    const feeds = [];
    for (let i = 0; i < 20; i++) feeds.push(await newFeed(me, { name: `feed ${i}` }));
    const over = await create(me, { name: 'one more' });
    expect(over.statusCode).toBe(409);
    expect(await list(me)).toHaveLength(20);

    const { url } = feeds[0]!;
    for (let i = 0; i < t.config.limits['ical.feed']; i++) await read(url);
    const limited = await fetchFeed(url);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another feed has its own count.
    await read(feeds[1]!.url);
  });
});

it('escapes text and folds lines at 75 octets without splitting a character', () => {
  expect(escapeText('a,b;c\\d\r\ne\nf\u0007')).toBe('a\\,b\\;c\\\\d\\ne\\nf');
  const long = `SUMMARY:${'é'.repeat(100)}`;
  const folded = fold(long).split('\r\n');
  expect(folded.every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
  expect(folded.slice(1).every((line) => line.startsWith(' '))).toBe(true);
  expect(folded.map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(long);
});
