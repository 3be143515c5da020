import pg from 'pg';
import type { ListenHandlers, ListenOptions, Listener } from './index.js';

/**
 * LISTENs on `channels` on a connection of its own (a pooled one would hear
 * nothing once returned), and connects again when it is lost: `connected`
 * runs after every connection so the caller can catch up on what was
 * announced meanwhile. TCP keepalive notices a connection that dies silently.
 */
export function listenOn(
  url: string,
  channels: readonly string[],
  handlers: ListenHandlers,
  options: ListenOptions = {},
): Listener {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  // One query at a time on the one connection: the order sent is the order the others hear.
  let sending = Promise.resolve();

  const schedule = (ms: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, ms);
  };

  const drop = (next: pg.Client) => {
    if (client !== next) return;
    client = null;
    handlers.lost?.();
    schedule(1000);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, keepAlive: true, application_name: options.name });
    next.on('notification', (message) => {
      if (message.payload) handlers.message(message.channel, message.payload);
    });
    next.on('error', (error) => {
      handlers.warn(error, 'listener connection lost; reconnecting');
      void next.end().catch(() => undefined);
      drop(next);
      schedule(1000);
    });
    next.on('end', () => drop(next));
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN ${channel}`);
      if (stopped) return void (await next.end());
      client = next;
      await handlers.connected();
    } catch (error) {
      handlers.warn(error, 'listener could not connect; retrying');
      void next.end().catch(() => undefined);
      schedule(2000);
    }
  };

  void connect();
  return {
    send: (channel, payload) => {
      const on = client;
      if (!on) return sending;
      sending = sending.then(
        () => on.query('select pg_notify($1, $2)', [channel, payload]).then(() => undefined),
        () => undefined,
      );
      return sending;
    },
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      await sending.catch(() => undefined);
      const last = client;
      client = null;
      await last?.end().catch(() => undefined);
    },
  };
}
