import { createReadStream, existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.webmanifest']);

/** Headers for the app's HTML: nothing from elsewhere runs, nothing frames it. */
const HTML_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; " +
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/**
 * The built web app (`dist/web`) from the same origin as the API: hashed files
 * under `/assets/` cached for good, `index.html` revalidated every time and
 * answered for every other page address (the app routes on the client).
 * Registers nothing when the app has not been built.
 */
export function registerWebApp(app: FastifyInstance, distDir: string, language = 'en'): void {
  const root = path.resolve(distDir);
  const indexFile = path.join(root, 'index.html');
  if (!existsSync(indexFile)) return;
  const gzipped = new Map<string, { key: string; body: Buffer }>();
  // The page names the instance's language: the app's last fallback when neither account nor browser has one it knows.
  let page: { key: string; body: Buffer } | null = null;
  const indexBody = (etag: string): Buffer => {
    if (page?.key !== etag) {
      const html = readFileSync(indexFile, 'utf8').replace(
        /<html lang="[^"]*"/,
        `<html lang="${language}" data-instance-language="${language}"`,
      );
      page = { key: etag, body: Buffer.from(html) };
    }
    return page.body;
  };

  const send = (request: FastifyRequest, reply: FastifyReply, file: string, stats: Stats, cacheControl: string) => {
    const ext = path.extname(file).toLowerCase();
    const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}-${language}"`;
    reply
      .header('content-type', TYPES[ext] ?? 'application/octet-stream')
      .header('cache-control', cacheControl)
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .header('vary', 'accept-encoding');
    if (ext === '.html') reply.headers(HTML_HEADERS);
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();

    const body = file === indexFile ? indexBody(etag) : null;
    const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (acceptsGzip && COMPRESSIBLE.has(ext) && stats.size > 1024 && stats.size < 8 * 1024 * 1024) {
      let cached = gzipped.get(file);
      if (cached?.key !== etag) {
        cached = { key: etag, body: gzipSync(body ?? readFileSync(file)) };
        gzipped.set(file, cached);
      }
      return reply.header('content-encoding', 'gzip').header('content-length', cached.body.length).send(cached.body);
    }
    if (body) return reply.header('content-length', body.length).send(body);
    return reply.header('content-length', stats.size).send(createReadStream(file));
  };

  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/')) return reply.callNotFound();

    let relative: string;
    try {
      relative = decodeURIComponent(pathname);
    } catch {
      return reply.callNotFound();
    }
    const file = path.join(root, path.normalize(relative));
    if (file.startsWith(root + path.sep) && !relative.includes('\0')) {
      const stats = statIfFile(file);
      if (stats) {
        const immutable = pathname.startsWith('/assets/');
        return send(request, reply, file, stats, immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      }
    }
    // Any other page address is the app's own (client-side routes); files that are not there stay 404s.
    const wantsHtml = pathname === '/' || String(request.headers.accept ?? '').includes('text/html');
    if (!wantsHtml || pathname.startsWith('/assets/')) return reply.callNotFound();
    const stats = statIfFile(indexFile);
    if (!stats) return reply.callNotFound();
    return send(request, reply, indexFile, stats, 'no-cache');
  });
}

function statIfFile(file: string): Stats | null {
  try {
    const stats = statSync(file);
    return stats.isFile() ? stats : null;
  } catch {
    return null;
  }
}
