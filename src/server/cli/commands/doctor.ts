import { ConfigError, loadConfig } from '../../config.js';
import type { Command } from '../command.js';
import { doctorChecks, type DoctorContext, type Finding } from '../doctor/checks.js';

export const doctor: Command = {
  name: 'doctor',
  summary: 'check the configuration, database, files and mail; exit 1 on any failure',
  usage: '',
  help: `Checks, one line each (ok, warn or fail), what the service needs:
  version       Tavla's and Node.js's
  BASE_URL      set (links in mails and feeds use it)
  AUTH_SECRET   set (else a secret kept in DATA_DIR is used)
  database      DATABASE_URL answers
  migrations    the schema is this version's
  files         DATA_DIR is writable (and private)
  SMTP          SMTP_URL's server answers (without SMTP_URL mails go to DATA_DIR/outbox)
An invalid configuration fails first, and the checks that need it are left out.
The exit code is 1 when a line says fail, else 0 (warnings included).`,
  async run(_args, io) {
    const context: DoctorContext = { env: process.env, config: null, database: null };
    const lines: Array<Finding & { name: string }> = [];
    try {
      context.config = loadConfig(process.env);
      lines.push({ name: 'configuration', level: 'ok', text: 'valid' });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      lines.push({ name: 'configuration', level: 'fail', text: error.message.replace(/\n\s*/g, ' ') });
    }
    const print = (line: Finding & { name: string }) => io.out(`${line.level.padEnd(4)}  ${line.name.padEnd(13)} ${line.text}`);
    print(lines[0]!);
    try {
      for (const check of doctorChecks) {
        if (check.needs === 'config' && !context.config) continue;
        if (check.needs === 'database' && !context.database) continue;
        let finding: Finding;
        try {
          finding = await check.run(context);
        } catch (error) {
          finding = { level: 'fail', text: error instanceof Error ? error.message : String(error) };
        }
        const line = { name: check.name, ...finding };
        lines.push(line);
        print(line);
      }
    } finally {
      await context.database?.close();
    }
    return lines.some((line) => line.level === 'fail') ? 1 : 0;
  },
};
