import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.js';
import { openDatabase, type Database } from '../../db/database.js';
import { migrationState } from '../../db/migrations/index.js';
import { isDataDirExposed } from '../../files/private-files.js';
import { fileStore } from '../../files/store.js';
import { serviceVersion } from '../../version.js';
import { redactUrl } from '../service.js';

export type Level = 'ok' | 'warn' | 'fail';

/** One line of `tavla doctor`. */
export interface Finding {
  level: Level;
  text: string;
}

/** What the checks look at; `config` is null when the environment is not a valid configuration. */
export interface DoctorContext {
  env: NodeJS.ProcessEnv;
  config: Config | null;
  /** The database, opened by the `database` check for the ones after it (null when it does not answer). */
  database: Database | null;
}

/**
 * One check of `tavla doctor`: its name (the line's second column) and what
 * it finds. `needs`: the checks it cannot run without (it is left out when
 * the configuration is invalid or the database does not answer).
 */
export interface DoctorCheck {
  name: string;
  needs?: 'config' | 'database';
  run(context: DoctorContext): Promise<Finding>;
}

const ok = (text: string): Finding => ({ level: 'ok', text });
const warn = (text: string): Finding => ({ level: 'warn', text });
const fail = (text: string): Finding => ({ level: 'fail', text });

/** How long a server (database, SMTP) may take to answer before it counts as not answering. */
export const ANSWER_TIMEOUT_MS = 5000;

const version: DoctorCheck = {
  name: 'version',
  run() {
    const major = Number(process.versions.node.split('.')[0]);
    const text = `Tavla ${serviceVersion} on Node.js ${process.versions.node}`;
    // package.json's engines: 20.19 up to 26.
    return Promise.resolve(major >= 20 && major <= 26 ? ok(text) : warn(`${text}: supported are Node.js 20.19 to 26`));
  },
};

const baseUrl: DoctorCheck = {
  name: 'BASE_URL',
  needs: 'config',
  run({ env, config }) {
    if (!env.BASE_URL?.trim()) return Promise.resolve(warn(`not set: links in mails and feeds point to ${config!.baseUrl}`));
    return Promise.resolve(ok(config!.baseUrl));
  },
};

const authSecret: DoctorCheck = {
  name: 'AUTH_SECRET',
  needs: 'config',
  run({ env, config }) {
    if (env.AUTH_SECRET?.trim()) return Promise.resolve(ok('set'));
    return Promise.resolve(
      warn(
        `not set: the secret kept in ${path.join(config!.dataDir, 'auth-secret')} is used; several processes need one AUTH_SECRET`,
      ),
    );
  },
};

const database: DoctorCheck = {
  name: 'database',
  needs: 'config',
  async run(context) {
    const url = redactUrl(context.config!.databaseUrl);
    let opened: Database;
    try {
      opened = openDatabase(context.config!.databaseUrl, { snapshotConnections: 1 });
    } catch (error) {
      return fail(`${url} cannot be opened: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!(await opened.ping(ANSWER_TIMEOUT_MS))) {
      await opened.close().catch(() => undefined);
      return fail(`${url} does not answer`);
    }
    context.database = opened;
    return ok(`${url} answers (${opened.dialect.label})`);
  },
};

const schema: DoctorCheck = {
  name: 'migrations',
  needs: 'database',
  async run({ database }) {
    const { pending, unknown } = await migrationState(database!.db, database!.dialect);
    if (unknown.length > 0) return fail(`migrated by a newer Tavla (${unknown.join(', ')}): run that version`);
    if (pending.length > 0) {
      return warn(`${pending.length} steps pending: the service runs them at start, or \`tavla migrate\``);
    }
    return ok('up to date');
  },
};

const files: DoctorCheck = {
  name: 'files',
  needs: 'config',
  async run({ config }) {
    const { dataDir } = config!;
    if (!existsSync(dataDir)) return fail(`DATA_DIR ${dataDir} does not exist`);
    // Where every upload is written first (files/store.ts), in a bucket's case too.
    const { scratchDir } = fileStore(config!);
    const probe = path.join(scratchDir, `doctor-${randomBytes(4).toString('hex')}`);
    try {
      await mkdir(scratchDir, { recursive: true });
      await writeFile(probe, 'tavla doctor', { flag: 'wx' });
    } catch (error) {
      return fail(`DATA_DIR ${dataDir} is not writable: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await rm(probe, { force: true });
    }
    if (isDataDirExposed(dataDir)) return warn(`DATA_DIR ${dataDir} is writable, but other accounts can read it: chmod 700 it`);
    return ok(`DATA_DIR ${dataDir} is writable`);
  },
};

const bucket: DoctorCheck = {
  name: 'bucket',
  needs: 'config',
  async run({ config }) {
    if (!config!.s3) return ok('not used: files are kept in DATA_DIR');
    const store = fileStore(config!);
    try {
      await store.check();
      return ok(`${store.describe()} can be written, read and deleted from`);
    } catch (error) {
      return fail(`${store.describe()} cannot be used: ${error instanceof Error ? error.message : String(error)}`);
    }
  },
};

const smtp: DoctorCheck = {
  name: 'SMTP',
  needs: 'config',
  async run({ config }) {
    const { smtpUrl, dataDir } = config!;
    if (!smtpUrl) return warn(`SMTP_URL not set: mails are written to ${path.join(dataDir, 'outbox')}`);
    const host = new URL(smtpUrl).host;
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport(smtpUrl);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        transport.verify(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${ANSWER_TIMEOUT_MS / 1000} s`)), ANSWER_TIMEOUT_MS);
        }),
      ]);
      return ok(`${host} answers`);
    } catch (error) {
      return fail(`${host}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  },
};

/** In the order they print. */
export const doctorChecks: DoctorCheck[] = [version, baseUrl, authSecret, database, schema, files, bucket, smtp];
