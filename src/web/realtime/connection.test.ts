// @vitest-environment jsdom
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { CLOSE_CREDENTIAL_ENDED, type ClientMessage, type ServerMessage } from '../../shared/events.js';
import { RealtimeConnection, type BoardListener } from './connection';

/** The app's one socket: what it asks the server for after a drop, and when it gives up. */

class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: ClientMessage[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text) as ClientMessage);
  }
  close() {
    this.readyState = 3;
  }
  // What the server does:
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  receive(message: ServerMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const latest = () => FakeSocket.all.at(-1)!;

function listener(): BoardListener & { events: number[] } {
  const events: number[] = [];
  return { events, subscribed: vi.fn(), event: (e) => events.push(e.version), resync: vi.fn(), revoked: vi.fn() };
}

let connection: RealtimeConnection | null = null;

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers();
});

afterEach(() => connection?.close());

test('after a dropped connection it reconnects by itself and resumes each board after the last version applied', async () => {
  connection = new RealtimeConnection('ws://localhost/api/realtime', () => Promise.resolve(true));
  const board = listener();
  connection.subscribe(5, board);
  latest().open();
  expect(connection.status).toBe('open');
  expect(latest().sent).toEqual([{ type: 'subscribe', boardId: 5 }]);

  latest().receive({ type: 'subscribed', boardId: 5, version: 11 });
  latest().receive({
    type: 'event',
    boardId: 5,
    version: 12,
    name: 'card.archived',
    actor: null,
    data: {},
    createdAt: '',
  } as ServerMessage);
  connection.setVersion(5, 12);
  connection.setOpenCard(5, 77);
  expect(board.events).toEqual([12]);

  latest().drop();
  expect(connection.status).toBe('offline');
  const first = latest();

  // The retry comes after a short, growing delay, with no one asking for it.
  await vi.advanceTimersByTimeAsync(1_000);
  expect(latest()).not.toBe(first);
  latest().open();
  expect(connection.status).toBe('open');
  // Missed events are asked for from the last one applied; the open card is told again.
  expect(latest().sent).toEqual([
    { type: 'subscribe', boardId: 5, since: 12 },
    { type: 'presence', boardId: 5, cardId: 77 },
  ]);
});

test('each failed attempt waits longer before the next', async () => {
  connection = new RealtimeConnection('ws://localhost/api/realtime', () => Promise.resolve(null));
  latest().open();
  latest().drop();
  const gaps: number[] = [];
  for (let attempt = 0; attempt < 4; attempt++) {
    const before = FakeSocket.all.length;
    let waited = 0;
    while (FakeSocket.all.length === before) {
      await vi.advanceTimersByTimeAsync(100);
      waited += 100;
    }
    gaps.push(waited);
    latest().drop(); // refused before it opened: asks whether still signed in (unknown), then waits again
  }
  expect(gaps[3]!).toBeGreaterThan(gaps[0]!);
});

test('a board unsubscribed before the drop is not asked for again', async () => {
  connection = new RealtimeConnection('ws://localhost/api/realtime', () => Promise.resolve(true));
  const stop = connection.subscribe(5, listener());
  connection.subscribe(6, listener());
  latest().open();
  stop();
  latest().drop();
  await vi.advanceTimersByTimeAsync(1_000);
  latest().open();
  expect(latest().sent).toEqual([{ type: 'subscribe', boardId: 6 }]);
});

test('a socket closed because the session ended stops when the account is signed out', async () => {
  const stillSignedIn = vi.fn(() => Promise.resolve(false));
  connection = new RealtimeConnection('ws://localhost/api/realtime', stillSignedIn);
  latest().open();
  latest().drop(CLOSE_CREDENTIAL_ENDED);
  await vi.advanceTimersByTimeAsync(60_000);
  expect(stillSignedIn).toHaveBeenCalledOnce();
  expect(FakeSocket.all).toHaveLength(1);
});

test('a socket closed because the session ended reconnects at once when still signed in (a new cookie)', async () => {
  connection = new RealtimeConnection('ws://localhost/api/realtime', () => Promise.resolve(true));
  connection.subscribe(5, listener());
  latest().open();
  latest().drop(CLOSE_CREDENTIAL_ENDED);
  await vi.advanceTimersByTimeAsync(0);
  expect(FakeSocket.all).toHaveLength(2);
});

test('applies presence changes to the whole list it got first, and ignores a change with no list to apply to', () => {
  connection = new RealtimeConnection('ws://localhost/api/realtime', () => Promise.resolve(true));
  connection.subscribe(5, listener());
  latest().open();
  const heard = vi.fn();
  connection.onPresence(heard);
  const ada = { id: 'a', name: 'Ada', image: null, cardId: null };
  const bo = { id: 'b', name: 'Bo', image: null, cardId: null };
  const cy = { id: 'c', name: 'Cy', image: 'https://example.test/cy.png', cardId: null };

  // A change before the whole list (the server sends the list first) has nothing to apply to.
  latest().receive({ type: 'presenceChange', boardId: 5, viewers: [cy], left: [] });
  expect(connection.viewers(5)).toEqual([]);
  expect(heard).not.toHaveBeenCalled();

  latest().receive({ type: 'subscribed', boardId: 5, version: 1 });
  latest().receive({ type: 'presence', boardId: 5, viewers: [ada, bo] });
  expect(connection.viewers(5)).toEqual([ada, bo]);

  // Cy joins, Bo opens card 9, Ada leaves: in one change, then another.
  latest().receive({ type: 'presenceChange', boardId: 5, viewers: [cy, { ...bo, cardId: 9 }], left: ['a'] });
  expect(connection.viewers(5)).toEqual([{ ...bo, cardId: 9 }, cy]);
  latest().receive({ type: 'presenceChange', boardId: 5, viewers: [{ ...bo, cardId: null }], left: ['c'] });
  expect(connection.viewers(5)).toEqual([bo]);
  expect(heard).toHaveBeenCalledTimes(3);

  // A whole list replaces whatever the changes built.
  latest().receive({ type: 'presence', boardId: 5, viewers: [cy] });
  expect(connection.viewers(5)).toEqual([cy]);

  // After a reconnect the list starts again from the next whole one.
  latest().drop();
  vi.runOnlyPendingTimers();
  latest().open();
  latest().receive({ type: 'presenceChange', boardId: 5, viewers: [ada], left: [] });
  expect(connection.viewers(5)).toEqual([]);
  latest().receive({ type: 'presence', boardId: 5, viewers: [ada, cy] });
  expect(connection.viewers(5)).toEqual([ada, cy]);
});
