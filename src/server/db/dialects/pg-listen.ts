import pg from 'pg';
import type { ListenHandlers } from './index.js';

/**
 * LISTENs on `channels` on a connection of its own (a pooled one would hear
 * nothing once returned), and connects again when it is lost: `connected`
 * runs after every connection so the caller can catch up on what was
 * announced meanwhile. Answers the function that stops listening.
 */
export function listenOn(url: string, channels: readonly string[], handlers: ListenHandlers): () => Promise<void> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const schedule = (ms: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, ms);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.payload) handlers.message(message.channel, message.payload);
    });
    next.on('error', (error) => {
      handlers.warn(error, 'listener connection lost; reconnecting');
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      schedule(1000);
    });
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
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
