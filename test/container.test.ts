import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../src/server/config.js';
import { projectRoot } from '../src/server/version.js';
import { createTestDatabase } from './databases.js';
import { startApp } from './harness.js';

/**
 * No container engine runs on the machines that build Tavla, so this checks
 * what can be checked without one: the image's steps are the README's own
 * commands, and its port, volume and health check agree with the service.
 */

interface Instruction {
  op: string;
  args: string;
}

function dockerfile(): Instruction[] {
  const text = readFileSync(path.join(projectRoot, 'Dockerfile'), 'utf8');
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [op = '', ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

/** A version against a range of space-separated `>=`/`<` comparators (all the engines field uses). */
function satisfies(version: string, range: string): boolean {
  const parts = (v: string) => v.replace(/^v/, '').split('.').map(Number);
  const compare = (a: string, b: string) => {
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
  return range.split(/\s+/).every((comparator) => {
    const match = /^(>=|<)(\d+(?:\.\d+){0,2})$/.exec(comparator);
    if (!match) throw new Error(`unexpected comparator ${comparator}`);
    return match[1] === '>=' ? compare(version, match[2]!) >= 0 : compare(version, match[2]!) < 0;
  });
}

const packageJson = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  engines: { node: string };
};
const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');

function execForm(args: string): string[] {
  return JSON.parse(args) as string[];
}

describe('Dockerfile', () => {
  const steps = dockerfile();
  const stages = steps.filter((s) => s.op === 'FROM');
  const runtime = steps.slice(steps.lastIndexOf(stages[stages.length - 1]!));

  it('builds in stages on Node 24 (the current LTS line) Debian slim, within the engines field: 20.19 through 26', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.args).toMatch(/^node:24-(bookworm|bullseye|trixie)-slim\b/);
    const range = packageJson.engines.node;
    for (const version of ['20.19.0', '22.12.0', '24.0.0', '24.21.0', '26.9.0'])
      expect(satisfies(version, range), version).toBe(true);
    for (const version of ['20.18.1', '18.20.0', '27.0.0']) expect(satisfies(version, range), version).toBe(false);
    expect(satisfies(process.version, range)).toBe(true);
  });

  it('installs and builds with the README commands, which exist in package.json', () => {
    const runs = steps.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(runs.some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm run build\b/.test(r))).toBe(true);
    expect(packageJson.scripts.build).toBeTruthy();
    expect(readme).toContain('npm ci');
    // `npm start` = build, then this very command: the image runs what the README runs.
    const cmd = execForm(runtime.find((s) => s.op === 'CMD')!.args).join(' ');
    expect(packageJson.scripts.start).toBe(`npm run build && ${cmd}`);
  });

  it('runs as a non-root user with DATA_DIR on the /data volume and the default port exposed', () => {
    const user = runtime.find((s) => s.op === 'USER');
    expect(user?.args).toBeTruthy();
    expect(user!.args).not.toMatch(/^(root|0)(:|$)/);
    const env = runtime
      .filter((s) => s.op === 'ENV')
      .map((s) => s.args)
      .join(' ');
    expect(env).toMatch(/\bDATA_DIR=\/data\b/);
    expect(execForm(runtime.find((s) => s.op === 'VOLUME')!.args)).toEqual(['/data']);
    const defaults = withTempDataDir((dir) => loadConfig({ DATA_DIR: dir, AUTH_SECRET: 'x'.repeat(32) }));
    expect(runtime.find((s) => s.op === 'EXPOSE')?.args).toBe(String(defaults.port));
  });

  it('keeps local state out of the build context', () => {
    const ignored = readFileSync(path.join(projectRoot, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['node_modules', 'dist', 'data', '.git']) expect(ignored).toContain(entry);
  });

  describe('HEALTHCHECK', () => {
    let base = '';
    let stop = async () => {};
    beforeAll(async () => {
      const db = await createTestDatabase('sqlite');
      const started = await startApp('sqlite', db.url, db.dataDir);
      base = await started.listen();
      stop = async () => {
        await started.app.close();
        await started.database.close();
        await db.drop();
      };
    });
    afterAll(() => stop());

    const healthCommand = () => {
      const check = runtime.find((s) => s.op === 'HEALTHCHECK')!;
      const cmd = check.args.slice(check.args.indexOf('CMD') + 3).trim();
      return execForm(cmd);
    };

    // The service answers in this process, so the check runs as a child without blocking it.
    const runCheck = (port: string) =>
      promisify(execFile)(process.execPath, healthCommand().slice(1), {
        env: { ...process.env, PORT: port },
        timeout: 10_000,
      });

    it('passes against a running service on the port it is told', async () => {
      expect(healthCommand()[0]).toBe('node');
      await expect(runCheck(new URL(base).port)).resolves.toBeDefined();
    });

    it('fails when nothing answers', async () => {
      await expect(runCheck('1')).rejects.toThrow();
    });
  });
});

describe('compose.yaml', () => {
  const compose = parse(readFileSync(path.join(projectRoot, 'compose.yaml'), 'utf8')) as {
    services: Record<string, Record<string, unknown>>;
    volumes: Record<string, unknown>;
  };
  const tavla = compose.services.tavla as {
    build: string;
    depends_on: Record<string, { condition: string }>;
    environment: { DATABASE_URL: string; DATA_DIR: string; PORT: string };
    ports: [string];
    volumes: [string];
  };
  const db = compose.services.db as {
    image: string;
    environment: { POSTGRES_DB: string; POSTGRES_USER: string; POSTGRES_PASSWORD: string };
    volumes: [string];
    healthcheck: { test: string[] };
  };

  it('runs PostgreSQL 16 with a health check, and Tavla waits for it to be healthy', () => {
    expect(db.image).toMatch(/^postgres:16\b/);
    expect(db.healthcheck.test.join(' ')).toContain('pg_isready');
    expect(tavla.build).toBe('.');
    const [dependency] = Object.entries(tavla.depends_on);
    expect(dependency).toEqual(['db', { condition: 'service_healthy' }]);
  });

  it('points DATABASE_URL at that database with its own user, password and name', () => {
    const url = new URL(tavla.environment.DATABASE_URL.replace(/\$\{POSTGRES_PASSWORD:-([^}]*)\}/g, '$1'));
    const password = db.environment.POSTGRES_PASSWORD.replace(/\$\{POSTGRES_PASSWORD:-([^}]*)\}/g, '$1');
    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('db');
    expect(url.username).toBe(db.environment.POSTGRES_USER);
    expect(url.password).toBe(password);
    expect(url.pathname).toBe(`/${db.environment.POSTGRES_DB}`);
    // The configuration accepts it as a PostgreSQL address.
    const config = withTempDataDir((dir) =>
      loadConfig({ DATA_DIR: dir, AUTH_SECRET: 'x'.repeat(32), DATABASE_URL: url.toString() }),
    );
    expect(config.databaseUrl).toMatch(/^postgres:/);
  });

  it('gives each service a named volume, mounted where the data lives', () => {
    const [tavlaVolume, tavlaTarget] = tavla.volumes[0].split(':');
    const [dbVolume, dbTarget] = db.volumes[0].split(':');
    expect(Object.keys(compose.volumes).sort()).toEqual([dbVolume, tavlaVolume].sort());
    expect(tavlaTarget).toBe(tavla.environment.DATA_DIR);
    expect(tavlaTarget).toBe('/data');
    expect(dbTarget).toBe('/var/lib/postgresql/data');
  });

  it('publishes the port the service listens on', () => {
    const [, container] = tavla.ports[0].split(':');
    expect(container).toBe(tavla.environment.PORT);
    const dockerfileExpose = dockerfile().find((s) => s.op === 'EXPOSE')?.args;
    expect(container).toBe(dockerfileExpose);
  });
});

function withTempDataDir<T>(use: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tavla-container-'));
  try {
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
