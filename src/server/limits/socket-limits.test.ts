import WebSocket from 'ws';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { eachDialect, type TestContext, type TestUser } from '../../../test/harness.js';
import { PublicViewerClient } from '../../../test/public-viewer-client.js';
import { Viewer } from '../../../test/realtime-client.js';
import type { SlotLimit } from './limits.js';

/** Behind one trusted proxy (the test itself), so each socket can come from the address it names. */
const from = (address: string) => ({ 'x-forwarded-for': address });

/** Polls (bounded) until the slots held under a key are `count`: a slot is given back once the server sees the connection end. */
async function heldBecomes(t: TestContext, name: SlotLimit, key: string, count: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (t.app.deps.limits.held(name, key) !== count) {
    if (Date.now() > deadline) throw new Error(`${name} of ${key}: ${t.app.deps.limits.held(name, key)} held, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Tries an upgrade that should be refused: answers the HTTP status and body the client got instead of a socket. */
function refusedUpgrade(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const socket = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    socket.once('error', reject);
  });
}

eachDialect(
  'open sockets per client address, public link and account',
  (t) => {
    let base: string;
    let ws: string;
    const open: Array<{ close(): void }> = [];
    const keep = <T extends { close(): void }>(socket: T): T => {
      open.push(socket);
      return socket;
    };
    beforeAll(async () => {
      base = await t.listen();
      ws = base.replace(/^http/, 'ws');
    });
    afterEach(() => {
      for (const socket of open.splice(0)) socket.close();
    });

    const makeLink = async (owner: TestUser) => {
      const board = await t.createBoard(owner);
      const made = await t.inject(owner, { method: 'POST', url: '/api/data/public-link', payload: { boardId: board.id } });
      expect(made.statusCode).toBe(200);
      return { boardId: board.id, token: made.json<{ link: { url: string } }>().link.url.split('/p/')[1]! };
    };
    const view = async (token: string, address: string, options: WebSocket.ClientOptions = {}) => {
      const viewer = keep(await PublicViewerClient.connect(base, token, from(address), options));
      await viewer.next('ready');
      return viewer;
    };
    const member = async (user: TestUser, address: string) =>
      keep(await Viewer.connect(base, { 'x-api-key': user.key, ...from(address) }));

    it('answers a plain 429 before the upgrade once an address holds its sockets; other addresses go on; a closed socket frees its slot', async () => {
      const owner = await t.signUp();
      const { token } = await makeLink(owner);
      const viewers = [await view(token, '203.0.113.1'), await view(token, '203.0.113.1'), await view(token, '203.0.113.1')];

      const refused = await refusedUpgrade(`${ws}/api/public/${token}/realtime`, from('203.0.113.1'));
      expect(refused).toEqual({
        status: 429,
        body: { error: 'Too many open connections from your address: close some and try again' },
      });
      // The member socket shares the address's bound.
      const asMember = await refusedUpgrade(`${ws}/api/realtime`, { 'x-api-key': owner.key, ...from('203.0.113.1') });
      expect(asMember.status).toBe(429);
      // The refusals held nothing.
      expect(t.app.deps.limits.held('sockets.address', '203.0.113.1')).toBe(3);

      await view(token, '203.0.113.2');
      await member(owner, '203.0.113.2');

      viewers[0]!.close();
      await heldBecomes(t, 'sockets.address', '203.0.113.1', 2);
      await view(token, '203.0.113.1');
    });

    it('counts an IPv6 client by its /64', async () => {
      const owner = await t.signUp();
      const { token } = await makeLink(owner);
      for (const address of ['2001:db8:a:b::1', '2001:db8:a:b::2', '2001:db8:a:b:ffff:1:2:3']) await view(token, address);
      const refused = await refusedUpgrade(`${ws}/api/public/${token}/realtime`, from('2001:db8:a:b:8000::1'));
      expect(refused.status).toBe(429);
      await view(token, '2001:db8:a:c::1');
    });

    it('bounds the live views of one public link, whatever their addresses', async () => {
      const owner = await t.signUp();
      const first = await makeLink(owner);
      for (let i = 0; i < 4; i++) await view(first.token, `198.51.100.${10 + i}`);
      const refused = await refusedUpgrade(`${ws}/api/public/${first.token}/realtime`, from('198.51.100.20'));
      expect(refused).toEqual({
        status: 429,
        body: { error: 'Too many live views of this link: the page falls back to checking for changes now and then' },
      });
      // The link still answers the polling view.
      expect((await t.inject(null, { method: 'GET', url: `/api/public/${first.token}/version` })).statusCode).toBe(200);
      const second = await makeLink(owner);
      await view(second.token, '198.51.100.20');
    });

    it('bounds the member sockets of one account, from any address; another account is not held up', async () => {
      const ann = await t.signUp();
      const bob = await t.signUp();
      const sockets = [await member(ann, '192.0.2.21'), await member(ann, '192.0.2.22')];
      const refused = await refusedUpgrade(`${ws}/api/realtime`, { 'x-api-key': ann.key, ...from('192.0.2.23') });
      expect(refused).toEqual({
        status: 429,
        body: { error: 'Too many open connections for this account: close some tabs and try again' },
      });
      expect(t.app.deps.limits.held('sockets.address', '192.0.2.23')).toBe(0);
      await member(bob, '192.0.2.23');

      sockets[1]!.close();
      await heldBecomes(t, 'sockets.account', ann.id, 1);
      await member(ann, '192.0.2.23');
    });

    it('frees the slot of a client that vanished, whether it dropped the connection or stopped answering pings', async () => {
      const owner = await t.signUp();
      const { token } = await makeLink(owner);
      const address = '203.0.113.50';
      const dropped = await view(token, address);
      // Answers no ping: the heartbeat drops it.
      const silent = await view(token, address, { autoPong: false });
      await member(owner, address);
      expect((await refusedUpgrade(`${ws}/api/public/${token}/realtime`, from(address))).status).toBe(429);

      // No close handshake: the TCP connection just ends.
      dropped.socket.terminate();
      await heldBecomes(t, 'sockets.address', address, 2);
      await view(token, address);

      await silent.waitClosed();
      await heldBecomes(t, 'sockets.address', address, 2);
      await member(owner, address);
    });
  },
  {
    env: { TRUST_PROXY: '1', SOCKETS_PER_ADDRESS: '3', SOCKETS_PER_PUBLIC_LINK: '4', SOCKETS_PER_ACCOUNT: '2' },
    heartbeatMs: 300,
  },
);
