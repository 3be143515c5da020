import type { Db } from './database.js';
import type { Dialect, Listener, ListenHandlers } from './dialects/index.js';

/**
 * Every channel the processes tell each other things on (PostgreSQL
 * LISTEN/NOTIFY), each with the one shape its payload has. What arrives is
 * checked against that shape before anyone acts on it: another version of
 * the service, or a hand-typed `NOTIFY`, must not make a listener act on a
 * guess.
 */
export interface Channel<P> {
  readonly name: string;
  /** The payload, or undefined when it is not of this channel's shape. */
  read(value: unknown): P | undefined;
}

type Shape = Record<string, unknown>;
const isObject = (value: unknown): value is Shape => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isVersion = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const optionalText = (value: unknown) => value === undefined || (typeof value === 'string' && value !== '');

function channel<P>(name: string, read: (value: Shape) => P | undefined): Channel<P> {
  return { name, read: (value) => (isObject(value) ? read(value) : undefined) };
}

/** A committed board version (and the deleted board's event, for its viewers). */
export interface BoardVersion {
  boardId: number;
  version: number;
  deleted?: Shape;
}

/**
 * A credential stopped working: one session, one API key, or (neither named)
 * every credential of the account. Sockets opened with it close; cached
 * actors of what it names go.
 */
export interface Revocation {
  userId: string;
  sessionId?: string;
  keyId?: string;
}

export const BOARD_VERSIONS: Channel<BoardVersion> = channel('tavla_events', (p) =>
  isId(p.boardId) && isVersion(p.version) && (p.deleted === undefined || isObject(p.deleted))
    ? { boardId: p.boardId, version: p.version, ...(p.deleted === undefined ? {} : { deleted: p.deleted }) }
    : undefined,
);

export const REVOCATIONS: Channel<Revocation> = channel('tavla_revocations', (p) =>
  typeof p.userId === 'string' && p.userId !== '' && optionalText(p.sessionId) && optionalText(p.keyId)
    ? {
        userId: p.userId,
        ...(p.sessionId === undefined ? {} : { sessionId: p.sessionId as string }),
        ...(p.keyId === undefined ? {} : { keyId: p.keyId as string }),
      }
    : undefined,
);

/** A board's public link was revoked or replaced: its viewers check theirs again. */
export const PUBLIC_LINK_CHANGES: Channel<{ boardId: number }> = channel('tavla_public_links', (p) =>
  isId(p.boardId) ? { boardId: p.boardId } : undefined,
);

/** An account's name, picture or role changed (a demotion, a ban): its cached actors go. */
export const ACCOUNT_CHANGES: Channel<{ userId: string }> = channel('tavla_accounts', (p) =>
  typeof p.userId === 'string' && p.userId !== '' ? { userId: p.userId } : undefined,
);

/** New notifications, by id, to push to their accounts' sockets. */
export const NEW_NOTIFICATIONS: Channel<{ ids: number[] }> = channel('tavla_notifications', (p) =>
  Array.isArray(p.ids) && p.ids.every(isId) ? { ids: p.ids } : undefined,
);

/**
 * What one process says to the others of who views what (realtime/presence-relay.ts;
 * `p` is the sender's id, new at every start):
 * - `hello`: "I (re)joined: forget what you had of me, and tell me what you hold";
 * - `board`: "these are my viewers of board `b`" (replaces; `more` appends the next part);
 * - `alive`: "still here" (every heartbeat; a silent process is dropped after the TTL);
 * - `bye`: "I am shutting down".
 */
export type PresenceMessage =
  { p: string; t: 'hello' | 'alive' | 'bye' } | { p: string; t: 'board' | 'more'; b: number; v: PresentViewer[] };

/** A viewer as presence carries it (the shape of `Viewer` in shared/events.ts). */
export interface PresentViewer {
  id: string;
  name: string;
  image: string | null;
  cardId: number | null;
}

const isViewer = (v: unknown): v is PresentViewer =>
  isObject(v) &&
  typeof v.id === 'string' &&
  typeof v.name === 'string' &&
  (v.image === null || typeof v.image === 'string') &&
  (v.cardId === null || isId(v.cardId));

export const PRESENCE: Channel<PresenceMessage> = channel('tavla_presence', (m) => {
  if (typeof m.p !== 'string' || m.p === '') return undefined;
  if (m.t === 'hello' || m.t === 'alive' || m.t === 'bye') return { p: m.p, t: m.t };
  if ((m.t === 'board' || m.t === 'more') && isId(m.b) && Array.isArray(m.v) && m.v.every(isViewer)) {
    return { p: m.p, t: m.t, b: m.b, v: m.v.map(({ id, name, image, cardId }) => ({ id, name, image, cardId })) };
  }
  return undefined;
});

/**
 * Sends `payload` on `channel`. Inside a transaction (`inTransaction`) it is
 * delivered at the commit and never if it rolls back. Answers whether other
 * processes hear it (false on SQLite: one process, which tells itself).
 */
export function announce<P extends object>(
  dialect: Dialect,
  db: Db,
  channel: Channel<P>,
  payload: P,
  inTransaction = false,
): Promise<boolean> {
  return dialect.notify(db, channel.name, payload, inTransaction);
}

/** One channel a listener hears, with what it does with each (checked) payload. */
export interface Subscription {
  channel: Channel<unknown>;
  heard(payload: unknown): void;
}

export function on<P>(channel: Channel<P>, heard: (payload: P) => void): Subscription {
  return { channel: channel, heard: heard };
}

/**
 * Listens to `subscriptions` (see `Dialect.listen`): each payload is read
 * against its channel's shape; one that is not JSON or not of that shape is
 * warned of and dropped (`dropped` hears it, for a cache that must then
 * trust nothing). Null where there are no other processes (SQLite).
 */
export function listenTo(
  dialect: Dialect,
  url: string,
  subscriptions: readonly Subscription[],
  handlers: Omit<ListenHandlers, 'message'> & { dropped?: (channel: string) => void },
): Listener | null {
  const byName = new Map(subscriptions.map((s) => [s.channel.name, s]));
  return dialect.listen(url, [...byName.keys()], {
    ...handlers,
    message: (name, text) => {
      const subscription = byName.get(name);
      if (!subscription) return;
      let payload: unknown;
      try {
        payload = subscription.channel.read(JSON.parse(text));
      } catch {
        payload = undefined;
      }
      if (payload === undefined) {
        handlers.warn(new Error(`malformed payload on ${name}: ${text.slice(0, 200)}`), 'notification dropped');
        handlers.dropped?.(name);
        return;
      }
      try {
        subscription.heard(payload);
      } catch (error) {
        handlers.warn(error, `${name} listener failed`);
      }
    },
  });
}
