import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from './error-handler.js';
import { registerWebApp } from './web.js';

async function appWith(distDir: string, language?: string): Promise<FastifyInstance> {
  const app = Fastify();
  registerErrorHandling(app);
  app.post('/api/data/cardMove', () => ({ success: true }));
  registerWebApp(app, distDir, language);
  await app.ready();
  return app;
}

describe('the web app from the same origin', () => {
  let dir: string;
  let app: FastifyInstance;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tavla-web-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html lang="en"><div id="root"></div></html>');
    writeFileSync(path.join(dir, 'assets/index-abc123.js'), script);
    writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
    app = await appWith(dir);
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("names the instance's language in the page, so the app can fall back to it", async () => {
    const german = await appWith(dir, 'de');
    try {
      const res = await german.inject({ url: '/board/1', headers: { accept: 'text/html' } });
      expect(res.body).toContain('<html lang="de" data-instance-language="de">');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
      const english = await app.inject({ url: '/' });
      expect(english.body).toContain('data-instance-language="en"');
      expect(english.headers.etag).not.toBe(res.headers.etag);
    } finally {
      await german.close();
    }
  });

  it('answers / with index.html: revalidated every time, with a strict CSP', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('id="root"');
  });

  it('caches hashed assets for good, and gzips them for clients that ask', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(script);
    const plain = await app.inject({ url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    const again = await app.inject({ url: '/assets/index-abc123.js', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('answers the client-side routes with index.html when HTML is wanted', async () => {
    for (const url of ['/board/12?card=4', '/sign-in', '/invite/abc']) {
      const res = await app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('id="root"');
    }
  });

  it('leaves the API, missing files and non-HTML requests alone', async () => {
    const api = await app.inject({ url: '/api/nothing', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'Not found' });
    const wrongMethod = await app.inject({ url: '/api/data/cardMove' });
    expect(wrongMethod.statusCode).toBe(405);
    const missingAsset = await app.inject({ url: '/assets/gone.js', headers: { accept: 'text/html' } });
    expect(missingAsset.statusCode).toBe(404);
    const json = await app.inject({ url: '/board/1', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
  });

  it('never serves a file from outside the folder', async () => {
    const res = await app.inject({ url: '/..%2f..%2f..%2fetc%2fpasswd', headers: { accept: 'text/html' } });
    expect(res.body).not.toContain('root:');
  });

  it('registers nothing when the app was not built', async () => {
    const bare = await appWith(path.join(dir, 'missing'));
    const res = await bare.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    await bare.close();
  });
});
