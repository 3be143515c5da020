import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isForbiddenAddress, parseWebhookUrl } from './address-guard.js';
import { sendDelivery, signature } from './send.js';
import { verifySignature } from './testing.js';

describe('webhook addresses', () => {
  it('refuses internal IPv4 and IPv6 addresses, IPv4 ones inside IPv6 too, and lets public ones through', () => {
    const forbidden = [
      '0.0.0.0',
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.100.100.200',
      '224.0.0.251',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      'not an address',
    ];
    const allowed = ['93.184.216.34', '1.1.1.1', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];
    expect(forbidden.filter((a) => !isForbiddenAddress(a))).toEqual([]);
    expect(allowed.filter((a) => isForbiddenAddress(a))).toEqual([]);
  });

  it('takes http and https addresses without credentials only', () => {
    expect(parseWebhookUrl(' https://example.com:8443/hook?x=1 ').href).toBe('https://example.com:8443/hook?x=1');
    for (const bad of ['gopher://example.com/', 'https://a:b@example.com/', 'https://a@example.com/', 'example.com', 'data:,x']) {
      expect(() => parseWebhookUrl(bad)).toThrow();
    }
  });
});

describe('sending a delivery', () => {
  it('signs "<t>.<body>" with the secret', () => {
    const header = signature('secret', '{"a":1}', 1_700_000_000);
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature('secret', header, '{"a":1}')).toBe(true);
    expect(verifySignature('secret', header, '{"a":2}')).toBe(false);
  });

  it('counts a receiver that does not answer in time as a failure', async () => {
    const server = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await sendDelivery({
        url: `http://127.0.0.1:${port}/`,
        body: '{}',
        secret: 's',
        event: 'card.created',
        deliveryId: 1,
        allowPrivate: true,
        now: new Date(),
        timeoutMs: 200,
      });
      expect(result).toEqual({ ok: false, status: null, error: 'no answer within 0.2 s' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses a private address unless allowed, without connecting', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const out = { body: '{}', secret: 's', event: 'card.created', deliveryId: 1, now: new Date() };
      const refused = await sendDelivery({ ...out, url: `http://localhost:${port}/`, allowPrivate: false });
      expect(refused.ok).toBe(false);
      expect(refused.error).toContain('may not reach');
      expect(hits).toBe(0);
      expect(await sendDelivery({ ...out, url: `http://127.0.0.1:${port}/`, allowPrivate: true })).toEqual({
        ok: true,
        status: 200,
        error: null,
      });
      expect(hits).toBe(1);
      // By name: the connection goes to the checked address (localhost may also have ::1, offered too).
      expect((await sendDelivery({ ...out, url: `http://localhost:${port}/`, allowPrivate: true })).ok).toBe(true);
      expect(hits).toBe(2);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
