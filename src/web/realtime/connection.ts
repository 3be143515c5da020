import {
  CLOSE_CREDENTIAL_ENDED,
  type BoardEvent,
  type ClientMessage,
  type ServerMessage,
  type Viewer,
} from '../../shared/events.js';
import { applyPresence } from '../../shared/presence.js';

export type ConnectionStatus = 'connecting' | 'open' | 'offline';

/** What a board page hears about its board. */
export interface BoardListener {
  /** The socket (re)subscribed; `version` is the board's version now, `requestedAt` when the request left (performance.now()). */
  subscribed(version: number, requestedAt: number): void;
  event(event: BoardEvent): void;
  /** Too much was missed to replay: reload the board. */
  resync(): void;
  /** Access to the board was lost, or it cannot be read. */
  revoked(reason: 'revoked' | 'error'): void;
}

export type DashboardMessage = Extract<ServerMessage, { type: 'dashboard' }>;

interface BoardSubscription {
  listener: BoardListener;
  /** The last version applied; a reconnect resumes after it. */
  version: number | undefined;
  cardId: number | null;
  requestedAt: number;
}

const MIN_DELAY = 500;
const MAX_DELAY = 15_000;

/**
 * The app's one WebSocket (`/api/realtime`): subscriptions to boards,
 * presence, and the account's dashboard and notification messages. A lost
 * connection is retried with growing, jittered delays; on reconnect every
 * board is subscribed again with `since`, so missed events are replayed.
 * A socket closed because its session ended, or one that cannot even open,
 * first asks `stillSignedIn`: signed out, it stops instead of retrying in a
 * loop; still signed in (a changed password brings a new cookie), it goes on.
 * While this tab changes its own credential, that question waits for the
 * change's answer: before it, the browser still holds the old cookie.
 */
export class RealtimeConnection {
  #socket: WebSocket | null = null;
  #status: ConnectionStatus = 'connecting';
  #attempt = 0;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #closed = false;
  readonly #credentialChanges = new Set<Promise<unknown>>();
  readonly #boards = new Map<number, BoardSubscription>();
  readonly #presence = new Map<number, Viewer[]>();
  readonly #statusListeners = new Set<() => void>();
  readonly #presenceListeners = new Set<() => void>();
  readonly #dashboardListeners = new Set<(message: DashboardMessage) => void>();
  readonly #notificationListeners = new Set<(notification: unknown) => void>();

  constructor(
    private readonly url: string,
    /** Whether the account is still signed in: true, false, or null when that cannot be told (offline). */
    private readonly stillSignedIn: () => Promise<boolean | null> = () => Promise.resolve(null),
  ) {
    this.#connect();
    window.addEventListener('online', this.#retryNow);
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  close(): void {
    this.#closed = true;
    window.removeEventListener('online', this.#retryNow);
    if (this.#retry) clearTimeout(this.#retry);
    this.#socket?.close(1000);
    this.#socket = null;
  }

  /**
   * Runs a request that changes this browser's session cookie (a new password).
   * A socket that ends or is refused meanwhile asks whether it is still signed in
   * only once the answer, and with it the new cookie, has arrived.
   */
  async changingCredential<T>(change: Promise<T>): Promise<T> {
    this.#credentialChanges.add(change);
    try {
      return await change;
    } finally {
      this.#credentialChanges.delete(change);
    }
  }

  /** Watches a board until the returned function is called. */
  subscribe(boardId: number, listener: BoardListener): () => void {
    const subscription: BoardSubscription = { listener, version: undefined, cardId: null, requestedAt: performance.now() };
    this.#boards.set(boardId, subscription);
    this.#send({ type: 'subscribe', boardId });
    return () => {
      if (this.#boards.get(boardId) !== subscription) return;
      this.#boards.delete(boardId);
      this.#presence.delete(boardId);
      this.#send({ type: 'unsubscribe', boardId });
      this.#emit(this.#presenceListeners);
    };
  }

  /** Records the version a board page has applied (it resumes from there). */
  setVersion(boardId: number, version: number): void {
    const subscription = this.#boards.get(boardId);
    if (subscription) subscription.version = version;
  }

  /** Tells the others on the board which card I have open. */
  setOpenCard(boardId: number, cardId: number | null): void {
    const subscription = this.#boards.get(boardId);
    if (!subscription || subscription.cardId === cardId) return;
    subscription.cardId = cardId;
    this.#send({ type: 'presence', boardId, cardId });
  }

  viewers(boardId: number): Viewer[] {
    return this.#presence.get(boardId) ?? NO_VIEWERS;
  }

  onStatus(listener: () => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  onPresence(listener: () => void): () => void {
    this.#presenceListeners.add(listener);
    return () => this.#presenceListeners.delete(listener);
  }

  onDashboard(listener: (message: DashboardMessage) => void): () => void {
    this.#dashboardListeners.add(listener);
    return () => this.#dashboardListeners.delete(listener);
  }

  onNotification(listener: (notification: unknown) => void): () => void {
    this.#notificationListeners.add(listener);
    return () => this.#notificationListeners.delete(listener);
  }

  #connect(): void {
    if (this.#closed) return;
    this.#setStatus(this.#attempt === 0 ? 'connecting' : 'offline');
    const socket = new WebSocket(this.url);
    this.#socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.#attempt = 0;
      this.#setStatus('open');
      for (const [boardId, subscription] of this.#boards) {
        subscription.requestedAt = performance.now();
        this.#send({
          type: 'subscribe',
          boardId,
          ...(subscription.version === undefined ? {} : { since: subscription.version }),
        });
        if (subscription.cardId !== null) this.#send({ type: 'presence', boardId, cardId: subscription.cardId });
      }
    };
    socket.onmessage = (event: MessageEvent<string>) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return;
      }
      this.#receive(message);
    };
    socket.onclose = (event) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      if (this.#closed) return;
      this.#setStatus('offline');
      this.#presence.clear();
      this.#emit(this.#presenceListeners);
      const ended = event.code === CLOSE_CREDENTIAL_ENDED;
      if (ended || !opened) void this.#afterRefusal(ended);
      else this.#scheduleRetry();
    };
  }

  /** The credential ended or the socket was refused: stop if signed out, else go on (at once, if a new cookie came). */
  async #afterRefusal(ended: boolean): Promise<void> {
    const changed = await this.#credentialSettled();
    const signedIn = await this.stillSignedIn().catch(() => null);
    if (this.#closed || this.#socket) return;
    if (signedIn === false) return this.close();
    if (signedIn && (ended || changed)) {
      this.#attempt = 0;
      return this.#connect();
    }
    this.#scheduleRetry();
  }

  /** Waits out this tab's credential changes, however they end; true if there were any. */
  async #credentialSettled(): Promise<boolean> {
    let waited = false;
    while (this.#credentialChanges.size > 0) {
      waited = true;
      await Promise.allSettled([...this.#credentialChanges]);
    }
    return waited;
  }

  #scheduleRetry(): void {
    const delay = Math.min(MAX_DELAY, MIN_DELAY * 2 ** this.#attempt) * (0.75 + Math.random() * 0.5);
    this.#attempt++;
    this.#retry = setTimeout(() => this.#connect(), delay);
  }

  readonly #retryNow = () => {
    if (this.#socket || this.#closed) return;
    if (this.#retry) clearTimeout(this.#retry);
    this.#connect();
  };

  #receive(message: ServerMessage): void {
    switch (message.type) {
      case 'subscribed': {
        const subscription = this.#boards.get(message.boardId);
        return subscription?.listener.subscribed(message.version, subscription.requestedAt);
      }
      case 'event':
        return this.#boards.get(message.boardId)?.listener.event(message);
      case 'resync':
        return this.#boards.get(message.boardId)?.listener.resync();
      case 'revoked':
        return this.#boards.get(message.boardId)?.listener.revoked('revoked');
      case 'error':
        if (message.boardId !== undefined) this.#boards.get(message.boardId)?.listener.revoked('error');
        return;
      case 'presence':
      case 'presenceChange': {
        // A change to a list not (yet) received is skipped: the whole list follows every subscribe.
        const viewers = applyPresence(this.#presence.get(message.boardId), message);
        if (!viewers || !this.#boards.has(message.boardId)) return;
        this.#presence.set(message.boardId, viewers);
        return this.#emit(this.#presenceListeners);
      }
      case 'dashboard':
        return this.#dashboardListeners.forEach((l) => l(message));
      case 'notification':
        return this.#notificationListeners.forEach((l) => l(message.notification));
    }
  }

  #send(message: ClientMessage): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(message));
  }

  #setStatus(status: ConnectionStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    this.#emit(this.#statusListeners);
  }

  #emit(listeners: Set<() => void>): void {
    listeners.forEach((l) => l());
  }
}

const NO_VIEWERS: Viewer[] = [];

export function realtimeUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/realtime`;
}
