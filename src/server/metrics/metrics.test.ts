import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedBoard } from '../../../test/factories.js';
import { eachDialect, type TestContext } from '../../../test/harness.js';
import { Viewer } from '../../../test/realtime-client.js';
import { loadConfig } from '../config.js';
import { projectRoot } from '../version.js';
import { serveMetrics } from './metrics.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** Every metric the README lists: the scrape names each of them. */
const NAMES = [
  'tavla_http_request_duration_seconds',
  'tavla_realtime_sockets',
  'tavla_realtime_messages_sent_total',
  'tavla_jobs_waiting',
  'tavla_jobs_running',
  'tavla_jobs_oldest_age_seconds',
  'tavla_db_connections',
  'tavla_db_pool_waiting',
  'tavla_group_commit_batch_size',
  'tavla_webhook_deliveries_total',
  'tavla_signin_failures_total',
  'tavla_signin_lockouts_total',
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
];

/** The value of one series (`name{labels}`), 0 when the scrape does not have it yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

async function scrape(t: TestContext): Promise<string> {
  const res = await t.inject(null, { method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.body;
}

eachDialect(
  'metrics with METRICS_TOKEN',
  (t) => {
    const open: Viewer[] = [];
    afterEach(() => {
      for (const v of open.splice(0)) v.close();
    });

    it('answers 401 without the token or with a wrong one, and the text format with it, naming every metric', async () => {
      const none = await t.inject(null, { method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      const wrong = await t.inject(null, { method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
      expect(wrong.statusCode).toBe(401);
      const user = await t.signUp();
      // A session or an API key is no way in either.
      expect((await t.inject(user, { method: 'GET', url: '/metrics' })).statusCode).toBe(401);

      const text = await scrape(t);
      for (const name of NAMES) expect(text, name).toContain(`# TYPE ${name} `);
      expect(text).toMatch(/^tavla_jobs_waiting\{queue="mail"\} \d+$/m);
      expect(text).toMatch(/^tavla_db_connections\{state="in_use"\} \d+$/m);
    });

    it('counts a request in the histogram under its route template and status', async () => {
      const user = await t.signUp();
      const board = await t.createBoard(user);
      const series = 'tavla_http_request_duration_seconds_count{method="GET",route="/api/data/board",status="200"}';
      const missing = 'tavla_http_request_duration_seconds_count{method="GET",route="/api/public/:token/version",status="404"}';
      const token = 'ab'.repeat(32);
      const before = await scrape(t);
      const url = `/api/data/board?id=${board.id}&userId=${user.id}`;
      expect((await t.inject(user, { method: 'GET', url })).statusCode).toBe(200);
      expect((await t.inject(user, { method: 'GET', url })).statusCode).toBe(200);
      expect((await t.inject(null, { method: 'GET', url: `/api/public/${token}/version` })).statusCode).toBe(404);
      const after = await scrape(t);
      expect(sample(after, series) - sample(before, series)).toBe(2);
      expect(sample(after, missing) - sample(before, missing)).toBe(1);
      // Never the raw path: tokens and ids would multiply the series.
      expect(after).not.toContain(token);
    });

    it('shows an open realtime socket in the gauge until it closes, and counts what it is sent', async () => {
      const user = await t.signUp();
      const board = await t.createBoard(user);
      const sockets = 'tavla_realtime_sockets{audience="members"}';
      const sent = 'tavla_realtime_messages_sent_total{audience="members"}';
      const before = await scrape(t);
      const viewer = await Viewer.connect(await t.listen(), { cookie: user.cookie });
      open.push(viewer);
      viewer.send({ type: 'subscribe', boardId: board.id });
      await viewer.next('subscribed', (m) => m.boardId === board.id);
      const during = await scrape(t);
      expect(sample(during, sockets) - sample(before, sockets)).toBe(1);
      expect(sample(during, sent) - sample(before, sent)).toBeGreaterThanOrEqual(1);
      viewer.close();
      await expect.poll(async () => sample(await scrape(t), sockets), { timeout: 5000 }).toBe(sample(before, sockets));
    });

    it('counts group-commit batches and sign-in failures', async () => {
      const user = await t.signUp();
      const before = await scrape(t);
      await seedBoard(t, user, { Todo: ['a card'] });
      const bad = await t.inject(null, {
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { origin: 'http://localhost:3000' },
        payload: { email: user.email, password: 'not the password' },
      });
      expect(bad.statusCode).toBe(401);
      const after = await scrape(t);
      expect(sample(after, 'tavla_group_commit_batch_size_count')).toBeGreaterThan(
        sample(before, 'tavla_group_commit_batch_size_count'),
      );
      expect(sample(after, 'tavla_signin_failures_total') - sample(before, 'tavla_signin_failures_total')).toBe(1);
    });
  },
  { env: { METRICS_TOKEN: TOKEN } },
);

eachDialect('metrics without METRICS_TOKEN', (t) => {
  it('are not served on the main port at all', async () => {
    const res = await t.inject(null, {
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer anything-at-all-here' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('tavla_');
  });
});

describe('the Grafana dashboard', () => {
  it('charts every tavla_ metric and the process metrics', () => {
    const dashboard = readFileSync(path.join(projectRoot, 'ops/grafana/tavla.json'), 'utf8');
    const queries = (JSON.parse(dashboard) as { panels: Array<{ targets: Array<{ expr: string }> }> }).panels
      .flatMap((p) => p.targets.map((t) => t.expr))
      .join('\n');
    for (const name of NAMES.filter((n) => n.startsWith('tavla_'))) expect(queries, name).toContain(name);
    expect(queries).toContain('process_cpu_seconds_total');
    expect(queries).toContain('nodejs_eventloop_lag');
  });
});

describe('METRICS_PORT', () => {
  it('defaults to loopback and refuses a short token', () => {
    const env = { DATA_DIR: '/tmp/tavla-metrics-config', AUTH_SECRET: 'x'.repeat(32) };
    expect(loadConfig({ ...env, METRICS_PORT: '9464' }).metrics).toEqual({ token: null, port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ ...env }).metrics.port).toBeNull();
    expect(() => loadConfig({ ...env, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('serves /metrics on loopback only, asking for the token when one is set', async () => {
    const server = await serveMetrics({ port: 0, host: '127.0.0.1', token: TOKEN });
    try {
      expect(server.address.address).toBe('127.0.0.1');
      expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
      const ok = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('# TYPE tavla_http_request_duration_seconds histogram');
      expect((await fetch(`${server.url}/other`)).status).toBe(404);
      // From another interface of this machine, nothing listens on that port.
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal);
      if (outside) {
        await expect(fetch(`http://${outside.address}:${server.address.port}/metrics`)).rejects.toThrow();
      }
    } finally {
      await server.close();
    }
  });
});
