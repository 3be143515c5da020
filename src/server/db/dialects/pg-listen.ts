import pg from 'pg';
import type { ListenHandlers, Listener } from './index.js';

/** How the shared listening connection shows among the database's sessions. */
export const LISTEN_CONNECTION_NAME = 'tavla-listen';

interface Caller {
  readonly channels: ReadonlySet<string>;
  readonly handlers: ListenHandlers;
  /** The connection this caller was told `connected` on, until it is lost. */
  on: pg.Client | null;
  /** A `connected` that failed, tried again later. */
  retry?: NodeJS.Timeout;
}

/** One listening connection per database and process, whoever asks: every caller would otherwise hold one of its own. */
const shared = new Map<string, SharedListener>();

/**
 * LISTENs on `channels` on the process's listening connection for `url`
 * (opened on first use, closed when its last caller stops). Each caller hears
 * only its own channels, and is told `lost` when the connection goes and
 * `connected` after every (re)connection, so it can catch up on what was
 * announced meanwhile.
 */
export function listenOn(url: string, channels: readonly string[], handlers: ListenHandlers): Listener {
  let listener = shared.get(url);
  if (!listener) {
    listener = new SharedListener(url);
    shared.set(url, listener);
  }
  const on = listener;
  const caller: Caller = { channels: new Set(channels), handlers, on: null };
  on.add(caller);
  let stopped = false;
  return {
    send: (channel, payload) => (stopped ? Promise.resolve() : on.send(channel, payload)),
    stop: () => {
      stopped = true;
      return on.remove(caller);
    },
  };
}

/**
 * The connection itself: not a pooled one (it would hear nothing once
 * returned), reconnected when lost. TCP keepalive notices a connection that
 * dies silently.
 */
class SharedListener {
  readonly #url: string;
  readonly #callers = new Set<Caller>();
  /** Listening on `#listening`; null while (re)connecting. */
  #client: pg.Client | null = null;
  readonly #listening = new Set<string>();
  #retry: NodeJS.Timeout | undefined;
  #closed = false;
  // One query at a time on the one connection: the order sent is the order the others hear.
  #queue: Promise<void> = Promise.resolve();

  constructor(url: string) {
    this.#url = url;
    void this.#connect();
  }

  add(caller: Caller): void {
    this.#callers.add(caller);
    // Otherwise a (re)connection is under way or scheduled, and it listens for every caller it finds.
    if (this.#client) void this.#join(caller, this.#client);
  }

  send(channel: string, payload: string): Promise<void> {
    const on = this.#client;
    if (!on) return this.#queue.catch(() => undefined);
    return this.#run(on, 'select pg_notify($1, $2)', [channel, payload]);
  }

  async remove(caller: Caller): Promise<void> {
    if (!this.#callers.delete(caller)) return;
    caller.on = null;
    clearTimeout(caller.retry);
    if (this.#callers.size > 0) {
      const client = this.#client;
      for (const channel of caller.channels) {
        if (!client || !this.#listening.has(channel) || this.#wanted().has(channel)) continue;
        this.#listening.delete(channel);
        void this.#run(client, `UNLISTEN ${channel}`).catch(() => undefined);
      }
      // What this caller sent goes out before its stop returns, as it would on a connection of its own.
      return this.#queue.catch(() => undefined);
    }
    this.#closed = true;
    if (shared.get(this.#url) === this) shared.delete(this.#url);
    clearTimeout(this.#retry);
    await this.#queue.catch(() => undefined);
    const last = this.#client;
    this.#client = null;
    await last?.end().catch(() => undefined);
  }

  #run(client: pg.Client, text: string, values?: unknown[]): Promise<void> {
    this.#queue = this.#queue.then(
      () => client.query(text, values).then(() => undefined),
      () => client.query(text, values).then(() => undefined),
    );
    return this.#queue;
  }

  #wanted(): Set<string> {
    return new Set([...this.#callers].flatMap((caller) => [...caller.channels]));
  }

  /**
   * A caller that came while the connection was up is told it is connected
   * only once its channels are listened to: what it reads to catch up must
   * not miss a change announced before the LISTEN took effect.
   */
  async #join(caller: Caller, client: pg.Client): Promise<void> {
    const listens: Array<Promise<void>> = [];
    for (const channel of caller.channels) {
      if (this.#listening.has(channel)) continue;
      this.#listening.add(channel);
      listens.push(this.#run(client, `LISTEN ${channel}`));
    }
    // Another caller's LISTEN of a channel this one wants may still be queued: the queue's end comes after it.
    const queued = this.#queue.catch(() => undefined);
    try {
      await Promise.all(listens);
    } catch (error) {
      // Lost meanwhile: the reconnection listens again for every caller.
      if (this.#client === client) caller.handlers.warn(error, 'listener could not listen');
      return;
    }
    await queued;
    if (this.#client === client && this.#callers.has(caller)) void this.#welcome(caller, client);
  }

  async #welcome(caller: Caller, client: pg.Client): Promise<void> {
    caller.on = client;
    try {
      await caller.handlers.connected();
    } catch (error) {
      // Catching up failed for this caller alone: the connection is fine and the others keep it.
      caller.handlers.warn(error, 'listener could not catch up; retrying');
      caller.retry = setTimeout(() => {
        if (caller.on === client && this.#client === client) void this.#welcome(caller, client);
      }, 2000);
    }
  }

  #deliver(channel: string, payload: string): void {
    for (const caller of [...this.#callers]) {
      if (!caller.channels.has(channel)) continue;
      try {
        caller.handlers.message(channel, payload);
      } catch (error) {
        caller.handlers.warn(error, 'listener could not handle a notification');
      }
    }
  }

  /** A trouble of the shared connection: said once, by the first caller, not once per caller. */
  #warn(error: unknown, message: string): void {
    const [first] = this.#callers;
    first?.handlers.warn(error, message);
  }

  #schedule(ms: number): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#connect();
    }, ms);
  }

  #drop(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = null;
    this.#listening.clear();
    for (const caller of [...this.#callers]) {
      clearTimeout(caller.retry);
      if (caller.on !== client) continue;
      caller.on = null;
      caller.handlers.lost?.();
    }
    this.#schedule(1000);
  }

  async #connect(): Promise<void> {
    const next = new pg.Client({ connectionString: this.#url, keepAlive: true, application_name: LISTEN_CONNECTION_NAME });
    next.on('notification', (message) => {
      if (message.payload) this.#deliver(message.channel, message.payload);
    });
    next.on('error', (error) => {
      this.#warn(error, 'listener connection lost; reconnecting');
      void next.end().catch(() => undefined);
      this.#drop(next);
      this.#schedule(1000);
    });
    next.on('end', () => this.#drop(next));
    try {
      await next.connect();
      // Callers may come while it listens: it is done once every channel wanted is listened to.
      const listened = new Set<string>();
      for (let missing = [...this.#wanted()]; missing.length > 0; missing = [...this.#wanted()].filter((c) => !listened.has(c))) {
        for (const channel of missing) {
          await next.query(`LISTEN ${channel}`);
          listened.add(channel);
        }
      }
      if (this.#closed) return void (await next.end());
      this.#client = next;
      for (const channel of listened) this.#listening.add(channel);
      for (const caller of [...this.#callers]) void this.#welcome(caller, next);
    } catch (error) {
      this.#warn(error, 'listener could not connect; retrying');
      void next.end().catch(() => undefined);
      this.#schedule(2000);
    }
  }
}
