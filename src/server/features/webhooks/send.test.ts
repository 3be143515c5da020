import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ForbiddenAddress, isForbiddenAddress, parseWebhookUrl, resolveTarget } from './address-guard.js';
import { sendDelivery, signature } from './send.js';
import { verifySignature } from '../../../../test/webhook-receiver.js';

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
      '192.0.0.170',
      '198.18.0.1',
      '224.0.0.251',
      '255.255.255.255',
      '::',
      '::1',
      '::127.0.0.1',
      'fe80::1',
      'fe80::1%eth0',
      'fec0::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '100::1',
      '5f00::1',
      'not an address',
    ];
    const allowed = ['93.184.216.34', '1.1.1.1', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'];
    expect(forbidden.filter((a) => !isForbiddenAddress(a))).toEqual([]);
    expect(allowed.filter((a) => isForbiddenAddress(a))).toEqual([]);
  });

  it('refuses IPv4 inside IPv6 unless a public IPv4 address travels through the well-known NAT64 prefix or 6to4', () => {
    const forbidden = [
      // IPv4-mapped (::ffff:0:0/96), public or not: the socket would reach the IPv4 address directly.
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::ffff:8.8.8.8',
      '0:0:0:0:0:ffff:808:808',
      // IPv4-translated (::ffff:0:0:0/96).
      '::ffff:0:7f00:1',
      '::ffff:0:808:808',
      // Local-use NAT64 (64:ff9b:1::/48) leads into the local network whatever it carries.
      '64:ff9b:1::808:808',
      '64:ff9b:1:a9fe:a9fe::',
      // Well-known NAT64 and 6to4 with a private IPv4 address inside.
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      // Teredo (2001::/32) and the rest of the IETF's 2001::/23, documentation ranges.
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:2::1',
      '2001:20::1',
      '2001:db8::1',
      '3fff::1',
    ];
    const allowed = ['64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1'];
    expect(forbidden.filter((a) => !isForbiddenAddress(a))).toEqual([]);
    expect(allowed.filter((a) => isForbiddenAddress(a))).toEqual([]);
  });

  it('says that a name is not allowed without saying what it resolves to, and the same when it does not resolve', async () => {
    const refusal = async (host: string) => {
      try {
        await resolveTarget(new URL(`http://${host}/`), false);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(ForbiddenAddress);
        return (error as Error).message;
      }
    };
    const local = await refusal('localhost');
    expect(local).toBe('localhost is not allowed: webhooks may only be sent to hosts with public addresses');
    expect(await refusal('nowhere.invalid')).toBe(local!.replace('localhost', 'nowhere.invalid'));
    expect(await refusal('[::ffff:7f00:1]')).not.toContain('127.0.0.1');
    // With private addresses allowed, a name that does not resolve says so.
    await expect(resolveTarget(new URL('http://nowhere.invalid/'), true)).rejects.toThrow(
      'nowhere.invalid could not be resolved',
    );
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
      expect(result).toMatchObject({ ok: false, status: null, error: 'no answer within 0.2 s' });
      expect(result.elapsedMs).toBeGreaterThanOrEqual(200);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('records a failed connection by its code, without the address it tried', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const result = await sendDelivery({
      url: `http://localhost:${port}/`,
      body: '{}',
      secret: 's',
      event: 'card.created',
      deliveryId: 1,
      allowPrivate: true,
      now: new Date(),
    });
    expect(result).toMatchObject({ ok: false, status: null, error: 'connection failed (ECONNREFUSED)' });
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
      expect(refused.error).toBe('localhost is not allowed: webhooks may only be sent to hosts with public addresses');
      expect(hits).toBe(0);
      expect(await sendDelivery({ ...out, url: `http://127.0.0.1:${port}/`, allowPrivate: true })).toMatchObject({
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
