import { createServer } from 'node:net';

/**
 * A port nobody listens on now, for an app that must know its own address
 * (BASE_URL: a provider's callback, ACS or redirect goes there) before it is built.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}
