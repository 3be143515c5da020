import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** How mail leaves, for the administrators: SMTP_URL's server (never its credentials), or the outbox. */
export function mailTransport(
  config: Pick<Config, 'smtpUrl' | 'dataDir'>,
): { kind: 'smtp'; host: string } | { kind: 'outbox'; directory: string } {
  if (!config.smtpUrl) return { kind: 'outbox', directory: path.join(config.dataDir, 'outbox') };
  const url = new URL(config.smtpUrl);
  return { kind: 'smtp', host: `${url.protocol}//${url.host}` };
}

/**
 * SMTP when `SMTP_URL` is set; otherwise each mail becomes an `.eml` file in
 * `DATA_DIR/outbox/` (and a log line), so nothing is lost on an instance
 * without a mail server and an administrator can still deliver by hand.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'dataDir' | 'baseUrl'>, log: FastifyBaseLogger): Mailer {
  const from = `Tavla <no-reply@${new URL(config.baseUrl).hostname}>`;
  // nodemailer loads with the first mail: a few MiB that an idle instance need not hold.
  let transport: Promise<Transporter> | undefined;
  let opened: Transporter | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => {
      opened = config.smtpUrl
        ? nodemailer.createTransport(config.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      return opened;
    }));
  const close = () => opened?.close();

  if (config.smtpUrl) {
    return {
      async send(mail) {
        await (await open()).sendMail({ from, ...mail });
      },
      close,
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  return {
    async send(mail) {
      const info = (await (await open()).sendMail({ from, ...mail })) as { message: Buffer };
      await mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message);
      log.info({ file, subject: mail.subject }, 'mail written to the outbox (no SMTP_URL set)');
    },
    close,
  };
}
